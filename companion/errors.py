"""The exception hierarchy: every error we raise on purpose is a :class:`CompanionError`."""

from __future__ import annotations


class CompanionError(Exception):
    """Root of all errors the companion raises deliberately (with a message a person can act on)."""


class CatalogueError(CompanionError, ValueError):
    """The card catalogue is malformed; the message names the file, card and field."""


class TapeError(CompanionError, ValueError):
    """A tape line could not be read or applied; the message names the line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class StoreError(CompanionError):
    """The event store refused to open or write (corrupt or foreign file, bad game id)."""


class StoreBusy(StoreError):
    """Another program holds the store's write lock: nothing was written; the same write
    goes through once it lets go."""


class Rejected(CompanionError, ValueError):
    """An input a game's tracker cannot accept (it changes nothing); the message says what to do."""


class NoGame(Rejected):
    """The table has no game in progress (first boot, or every game finished)."""

    def __init__(self) -> None:
        super().__init__("no game in progress: start one on the New game page (/setup)")


class InvalidLine(Rejected):
    """A line whose fields break the tape contract's types or our limits (the message names
    the field); it changes nothing."""
