"""What the store hands out (games, log entries, bindings) and the JSON it keeps them as."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from companion.errors import StoreError
from companion.storage.schema import scalar
from companion.tape.strict import StrictJSONError
from companion.tape.strict import loads as strict_loads

Line = dict[str, Any]
Entry = tuple[Mapping[str, Any], Sequence[Mapping[str, Any]], bool]
"""A tape line to append, the events derived from it, and whether it changed the game."""


@dataclass(frozen=True)
class GameRecord:
    """One stored game: its tape header exactly as given, and how it ended."""

    id: int
    game: str
    header: dict[str, Any]
    players: list[str]
    started: float
    ended: float | None
    winner: str | None
    winners: list[str] | None
    #: abandoned unfinished when another game started at the table
    void: bool = False
    #: who started the other game (a tablet, the demo), when known
    void_by: str | None = None


@dataclass(frozen=True)
class LogEntry:
    """One appended tape line with the game events the tracker derived from it."""

    seq: int
    at: float | None
    recorded: float
    line: Line
    events: list[dict[str, Any]]
    changed: bool


@dataclass(frozen=True)
class Binding:
    """A tag enrolled as a card (``owner`` names the player when two players share a faction)."""

    uid: str
    card: str
    owner: str | None
    bound: float


Locked = Callable[[], AbstractContextManager[Database]]
"""The store's one connection, held by the calling thread (``EventStore._locked``): every part
of the store reads and writes through it, so they share its lock, busy handling and errors."""


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction, committed on leaving (rolled back on an exception), that takes
    SQLite's write lock as it begins (``BEGIN IMMEDIATE``).

    Not sqlite-utils' ``atomic()`` (a deferred ``BEGIN``): a transaction that reads before it
    writes (is this tag bound already? does this game exist?) would then hold a read snapshot
    when it asks for the write lock, and SQLite refuses that upgrade at once with SQLITE_BUSY
    if another connection is writing, without waiting the busy timeout (waiting could not help:
    the snapshot may be stale by then). Taking the lock first waits the busy timeout like any
    write. Inside a transaction already begun, a savepoint (``atomic()``'s nesting)."""
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.conn.in_transaction:  # an error may have ended it already
            db.execute("ROLLBACK")
        raise


def require_game(db: Database, game_id: int) -> None:
    if scalar(db, "SELECT count(*) FROM games WHERE id = ?", game_id) == 0:
        raise StoreError(f"there is no game {game_id} in this store")


def clean_uid(uid: str) -> str:
    cleaned = uid.strip().upper()
    if not cleaned:
        raise StoreError("a tag uid cannot be empty")
    return cleaned


def line_at(line: Mapping[str, Any]) -> float | None:
    """The tape event's "at" (seconds since the game started), when it carries a number."""
    if not isinstance(line, dict):
        raise StoreError(f"a tape line must be a JSON object, not {type(line).__name__}")
    at = line.get("at")
    return float(at) if isinstance(at, int | float) and not isinstance(at, bool) else None


def loads(text: str | None, what: str = "a stored value") -> Any:
    """A stored JSON value. :raises StoreError: it is not readable (the store is damaged)."""
    if text is None:
        return None
    try:
        return strict_loads(text)
    except StrictJSONError as exc:
        raise StoreError(f"{what} in the store is damaged ({exc})") from None


def dump(value: object, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"the {what} cannot be stored as JSON ({exc})") from None
