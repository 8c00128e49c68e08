"""The durable event store: games, their append-only logs, raw reader reads and tag bindings.

Every game must survive a power cut, so each write is one transaction, committed (WAL,
``synchronous=FULL``) before the method returns: a line is appended before it is acknowledged.
The log is append-only (undo is itself an appended line) and a game is rebuilt by replaying it.
The store knows lines and events as JSON data, never the rules.

A mistyped ``--db`` path must not damage another program's file, so the store reads the file
header itself and refuses anything that is not ours before SQLite ever opens it.

Threading: one writer. The store is meant to be used from one thread at a time; its connection
is opened with ``check_same_thread=False`` and every use of it goes through one lock, so the web
server thread and a reader thread may share one store safely.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database, Migrations

from companion.errors import StoreError

APPLICATION_ID = 0x54434D50
"""``PRAGMA application_id`` of our files ("TCMP", big-endian at offset 68 of the header)."""
SCHEMA_VERSION = "1"
#: ``rejected``: a tape line the tracker refused (kept for the record, never replayed)
READ_KINDS = frozenset({"arrived", "left", "error", "rejected"})
_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 108  # the 100-byte file header plus page 1's b-tree header (the schema table)

Line = dict[str, Any]
Entry = tuple[Line, list[dict[str, Any]], bool]

migrations = Migrations("companion")


@migrations(name="0001-initial")
def _initial(db: Database) -> None:
    """Games, their logs, raw reads, tag bindings, and the schema version."""
    # fmt: off
    db.table("games").create(
        {"id": int, "game": str, "header": str, "players": str, "started": float,
         "ended": float, "winner": str, "winners": str},
        pk="id", not_null=["game", "header", "players", "started"],
    )
    db.table("log").create(
        {"id": int, "game_id": int, "seq": int, "at": float, "recorded": float,
         "line": str, "events": str, "changed": int},
        pk="id", not_null=["game_id", "seq", "recorded", "line", "events", "changed"],
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("reads").create(
        {"id": int, "zone": str, "uid": str, "kind": str, "at": float, "recorded": float,
         "detail": str},
        pk="id", not_null=["zone", "uid", "kind", "at", "recorded"],
    )
    db.table("bindings").create(
        {"uid": str, "card": str, "owner": str, "bound": float},
        pk="uid", not_null=["card", "bound"],
    )
    db.table("meta").create({"key": str, "value": str}, pk="key", not_null=["value"])
    # fmt: on
    db.table("log").create_index(["game_id", "seq"], unique=True)
    db.table("reads").create_index(["recorded"])
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", [SCHEMA_VERSION])
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


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


def check_file(path: Path) -> None:
    """Refuse a file that is not ours, reading its header ourselves so SQLite never touches it.

    A missing or empty file, or a SQLite file with no application id and nothing in it, is
    adopted. :raises StoreError: for anything else that is not ours.
    """
    if path.is_dir():
        raise StoreError(f"{path} is a directory; choose a file path for --db")
    try:
        with path.open("rb") as file:
            head = file.read(_HEADER_BYTES)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"{path} cannot be read ({exc.strerror}); choose another path") from None
    if not head:
        return
    if not head.startswith(_MAGIC) or len(head) < _HEADER_BYTES:
        raise StoreError(
            f"{path} is not a SQLite database (first bytes {head[:16]!r}); "
            "it was left untouched; move it away or choose another path"
        )
    app_id = int.from_bytes(head[68:72], "big")
    schema_is_empty = head[100] == 0x0D and head[103:105] == b"\x00\x00"  # leaf page, no cells
    if app_id == APPLICATION_ID or (app_id == 0 and schema_is_empty):
        return
    raise StoreError(_foreign(str(path)))


def _foreign(name: str) -> str:
    return (
        f"{name} is not a table-companion database (it is a SQLite file of another program); "
        "it was left untouched; choose another --db path"
    )


class EventStore:
    """Games and their append-only logs in one SQLite file (see the module docstring)."""

    def __init__(self, db: Database, *, name: str, clock: Callable[[], float]) -> None:
        """Use :meth:`open` or :meth:`memory`; ``db`` must already be checked and migrated."""
        self.db = db
        """The sqlite-utils database, for inspection; write only through the methods."""
        self.name = name
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._next_seq: dict[int, int] = {}

    @classmethod
    def open(cls, path: str | Path, *, clock: Callable[[], float] = time.time) -> EventStore:
        """Open (or create) the store at ``path``. :raises StoreError: if the file is not ours."""
        path = Path(path)
        check_file(path)
        try:
            conn = sqlite3.connect(path, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"{path} cannot be opened ({exc}); choose another path") from None
        return cls._start(Database(conn), str(path), clock, on_disk=True)

    @classmethod
    def memory(cls, *, clock: Callable[[], float] = time.time) -> EventStore:
        """A fresh store in memory, for tests."""
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        return cls._start(Database(conn), ":memory:", clock, on_disk=False)

    @classmethod
    def _start(
        cls, db: Database, name: str, clock: Callable[[], float], *, on_disk: bool
    ) -> EventStore:
        try:
            for attempt in range(_SETUP_ATTEMPTS):
                try:
                    _prepare(db, name, on_disk=on_disk)
                    break
                except sqlite3.OperationalError as exc:
                    # Two programs opening a new file at once race to create it; SQLite
                    # refuses the later writer at once (a stale snapshot: no busy wait helps).
                    racing = "locked" in str(exc) or "already exists" in str(exc)
                    if not racing or attempt == _SETUP_ATTEMPTS - 1:
                        raise
                    if db.conn.in_transaction:
                        db.execute("ROLLBACK")
                    time.sleep(0.02 + 0.01 * attempt)
        except sqlite3.DatabaseError as exc:
            db.close()
            raise StoreError(f"{name} cannot be opened as the store ({exc})") from None
        except BaseException:
            db.close()
            raise
        return cls(db, name=name, clock=clock)

    def close(self) -> None:
        """Close the connection (idempotent); SQLite checkpoints the WAL on the way out."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self.db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _locked(self) -> Iterator[Database]:
        """The connection, held by this thread; SQLite failures become :class:`StoreError`."""
        with self._lock:
            if self._closed:
                raise StoreError(f"the store {self.name} is closed")
            try:
                yield self.db
            except sqlite3.Error as exc:
                raise StoreError(f"{self.name}: the store failed ({exc})") from exc

    # Games and their logs

    def create_game(self, header: dict[str, Any]) -> int:
        """Store a new game with its tape header exactly as given; returns its id."""
        players = header.get("players") if isinstance(header, dict) else None
        if not isinstance(header, dict) or not isinstance(header.get("game"), str):
            raise StoreError('a game header must be an object with a "game"')
        if not isinstance(players, list) or not players:
            raise StoreError('a game header must have a non-empty "players" list')
        row = [header["game"], _dump(header, "header"), _dump(players, "players"), self._clock()]
        with self._locked() as db:
            with db.atomic():
                sql = "INSERT INTO games (game, header, players, started) VALUES (?, ?, ?, ?)"
                game_id = db.execute(sql, row).lastrowid
            assert game_id is not None
            self._next_seq[game_id] = 1
        return game_id

    def append(self, game_id: int, line: Line, events: list[dict[str, Any]], changed: bool) -> int:
        """Append one line and its events, committed before returning; returns its seq."""
        return self.append_many(game_id, [(line, events, changed)])

    def append_many(self, game_id: int, entries: Iterable[Entry]) -> int:
        """Append several lines in one transaction (imports, benchmarks); returns the last seq.

        O(1) per line however long the log: the next seq is kept in memory after the first
        lookup, and the unique (game_id, seq) index guards it. :raises StoreError: unknown game.
        """
        rows = [
            (_at(line), _dump(line, "line"), _dump(events, "events"), c)
            for line, events, c in entries
        ]
        with self._locked() as db:
            try:
                with db.atomic():
                    seq = self._next_seq.get(game_id) or self._first_free_seq(db, game_id)
                    for at, line_json, events_json, changed in rows:
                        db.execute(
                            "INSERT INTO log (game_id, seq, at, recorded, line, events, changed)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?)",
                            [game_id, seq, at, self._clock(), line_json, events_json, int(changed)],
                        )
                        seq += 1
            except BaseException:
                self._next_seq.pop(game_id, None)
                raise
            self._next_seq[game_id] = seq
        return seq - 1

    def _first_free_seq(self, db: Database, game_id: int) -> int:
        _require_game(db, game_id)
        return int(_scalar(db, "SELECT max(seq) FROM log WHERE game_id = ?", game_id) or 0) + 1

    def last_seq(self, game_id: int) -> int:
        """The seq of the last appended line (0 for a game with none)."""
        with self._locked() as db:
            _require_game(db, game_id)
            return int(_scalar(db, "SELECT max(seq) FROM log WHERE game_id = ?", game_id) or 0)

    def lines(self, game_id: int) -> list[Line]:
        """The game's tape event lines, in seq order (replaying them rebuilds the game)."""
        with self._locked() as db:
            _require_game(db, game_id)
            sql = "SELECT line FROM log WHERE game_id = ? ORDER BY seq"
            rows = db.execute(sql, [game_id]).fetchall()
        return [json.loads(line) for (line,) in rows]

    def log(self, game_id: int, *, last: int | None = None) -> list[LogEntry]:
        """The game's whole log (or its ``last`` lines), in seq order."""
        with self._locked() as db:
            _require_game(db, game_id)
            rows = db.execute(
                "SELECT seq, at, recorded, line, events, changed FROM log"
                " WHERE game_id = ? ORDER BY seq DESC LIMIT ?",
                [game_id, -1 if last is None else last],
            ).fetchall()
        rows.reverse()
        return [
            LogEntry(seq, at, recorded, json.loads(line), json.loads(events), bool(changed))
            for seq, at, recorded, line, events, changed in rows
        ]

    def game(self, game_id: int) -> GameRecord:
        """One game. :raises StoreError: if there is no such game."""
        records = self._games("WHERE id = ?", [game_id])
        if not records:
            raise StoreError(f"there is no game {game_id} in {self.name}")
        return records[0]

    def games(self) -> list[GameRecord]:
        """All games, newest first (by id: a Pi has no clock battery, its time can jump)."""
        return self._games("", [])

    def latest_open_game(self) -> GameRecord | None:
        """The newest game that has not ended (the one to resume after a power cut), if any."""
        records = self._games("WHERE ended IS NULL", [], limit=1)
        return records[0] if records else None

    def _games(self, where: str, params: list[Any], limit: int = -1) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games {where} ORDER BY id DESC LIMIT {int(limit)}"
        with self._locked() as db:
            rows = db.execute(sql, params).fetchall()
        return [
            GameRecord(
                id_, game, json.loads(head), json.loads(seats), start, end, winner, _loads(winners)
            )
            for id_, game, head, seats, start, end, winner, winners in rows
        ]

    def finish_game(self, game_id: int, winners: list[str]) -> None:
        """Record the end of a game (again, if an undo took a win back and another came)."""
        row = [self._clock(), winners[0] if winners else None, _dump(winners, "winners"), game_id]
        with self._locked() as db, db.atomic():
            _require_game(db, game_id)
            db.execute("UPDATE games SET ended = ?, winner = ?, winners = ? WHERE id = ?", row)

    # Raw reads

    def append_read(
        self, zone: str, uid: str, kind: str, at: float, detail: dict[str, Any] | None = None
    ) -> None:
        """Keep a raw reader read, committed, whatever the tracker makes of it."""
        if kind not in READ_KINDS:
            raise StoreError(f"a read is {', '.join(sorted(READ_KINDS))}, not {kind!r}")
        detail_json = None if detail is None else _dump(detail, "detail")
        row = [zone, uid, kind, at, self._clock(), detail_json]
        with self._locked() as db, db.atomic():
            db.execute(
                "INSERT INTO reads (zone, uid, kind, at, recorded, detail)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )

    # Tag bindings

    def bind(
        self, uid: str, card: str, owner: str | None = None, *, rebind: bool = False
    ) -> Binding:
        """Enrol a tag as a card. :raises StoreError: if it is bound to another card (unless
        ``rebind``): a tag stuck on the wrong card would corrupt every game it is played in."""
        uid = _uid(uid)
        with self._locked() as db, db.atomic():
            current = _binding(db, uid)
            if current is not None and current.card != card and not rebind:
                raise StoreError(
                    f"tag {uid} is already bound to {current.card}; unbind it first"
                    f" or rebind it to {card}"
                )
            if current is not None and (current.card, current.owner) == (card, owner):
                return current
            binding = Binding(uid, card, owner, self._clock())
            db.execute(
                "INSERT OR REPLACE INTO bindings (uid, card, owner, bound) VALUES (?, ?, ?, ?)",
                [uid, card, owner, binding.bound],
            )
        return binding

    def binding(self, uid: str) -> Binding | None:
        """The card a tag is bound to, if any."""
        with self._locked() as db:
            return _binding(db, _uid(uid))

    def bindings(self) -> dict[str, Binding]:
        """Every binding, by uid."""
        with self._locked() as db:
            rows = db.execute("SELECT uid, card, owner, bound FROM bindings ORDER BY uid")
            return {row[0]: Binding(*row) for row in rows.fetchall()}

    def unbind(self, uid: str) -> bool:
        """Forget a tag's binding; returns whether there was one."""
        with self._locked() as db, db.atomic():
            return db.execute("DELETE FROM bindings WHERE uid = ?", [_uid(uid)]).rowcount > 0


_GAME_COLUMNS = "id, game, header, players, started, ended, winner, winners"


_SETUP_ATTEMPTS = 50


def _prepare(db: Database, name: str, *, on_disk: bool) -> None:
    """Check the file is ours (or new), set the pragmas, apply pending migrations."""
    # One snapshot for both reads: another program may be creating this file now.
    db.execute("BEGIN")
    app_id = _scalar(db, "PRAGMA application_id")
    tables = _scalar(db, "SELECT count(*) FROM sqlite_master")
    db.execute("COMMIT")
    if app_id != APPLICATION_ID and (app_id != 0 or tables):
        raise StoreError(_foreign(name))  # e.g. tables only in another program's -wal
    if on_disk:
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{name}: cannot use write-ahead logging (mode {mode})")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    if app_id == 0:
        # Stamp the file before anything else: migrations commit their bookkeeping
        # table separately, and a power cut there must not leave a file we refuse.
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    migrations.apply(db)


def _scalar(db: Database, sql: str, *params: Any) -> Any:
    return db.execute(sql, list(params)).fetchone()[0]


def _require_game(db: Database, game_id: int) -> None:
    if _scalar(db, "SELECT count(*) FROM games WHERE id = ?", game_id) == 0:
        raise StoreError(f"there is no game {game_id} in this store")


def _binding(db: Database, uid: str) -> Binding | None:
    row = db.execute("SELECT uid, card, owner, bound FROM bindings WHERE uid = ?", [uid]).fetchone()
    return None if row is None else Binding(*row)


def _uid(uid: str) -> str:
    cleaned = uid.strip().upper()
    if not cleaned:
        raise StoreError("a tag uid cannot be empty")
    return cleaned


def _at(line: Line) -> float | None:
    """The tape event's "at" (seconds since the game started), when it carries a number."""
    if not isinstance(line, dict):
        raise StoreError(f"a tape line must be a JSON object, not {type(line).__name__}")
    at = line.get("at")
    return float(at) if isinstance(at, int | float) and not isinstance(at, bool) else None


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _dump(value: object, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"the {what} cannot be stored as JSON ({exc})") from None
