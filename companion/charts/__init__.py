"""Charts drawn on the server as SVG, for the dashboard and the league's pages alike."""
