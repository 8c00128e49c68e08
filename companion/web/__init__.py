"""The tablet dashboard (Flask): pages, the JSON API and its event stream, over one table."""
