"""The league: many tables, one standings board, on PostgreSQL (see README.md here).

The server (``companion league serve``) stores the games tables ship, replays each with our
rules engine, and keeps standings, ratings and faction statistics; the tables' side puts
each finished game in an outbox and ships it in the background.
"""
