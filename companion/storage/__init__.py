"""Storage: the SQLite event store, a live game in front of it, game history."""
