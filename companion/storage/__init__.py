"""Storage: the SQLite event store (games, logs, bindings, outbox, tablets) and game history."""
