"""Games and their append-only logs, and raw reader reads: each write one committed transaction."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sqlite_utils import Database

from companion.errors import StoreError
from companion.storage.outbox import queue_game, withdraw
from companion.storage.records import (
    Entry,
    GameRecord,
    Line,
    Locked,
    LogEntry,
    dump,
    line_at,
    loads,
    require_game,
    writing,
)
from companion.storage.schema import scalar

#: ``rejected``: a tape line the tracker refused (kept for the record, never replayed)
READ_KINDS = frozenset({"arrived", "left", "error", "rejected"})
_GAME_COLUMNS = "id, game, header, players, started, ended, winner, winners, void, void_by"


class GameLog:
    """The games and reads of an :class:`~companion.storage.store.EventStore` (``store.log``)."""

    def __init__(self, locked: Locked, *, name: str, clock: Callable[[], float]) -> None:
        self._locked = locked
        self._name = name
        self._clock = clock
        self._next_seq: dict[int, int] = {}
        self.league_outbox = False
        """Whether finished and voided games go to the league outbox (the table has a league)."""

    def create_game(self, header: dict[str, Any]) -> int:
        """Store a new game with its tape header exactly as given; returns its id."""
        players = header.get("players") if isinstance(header, dict) else None
        if not isinstance(header, dict) or not isinstance(header.get("game"), str):
            raise StoreError('a game header must be an object with a "game"')
        if not isinstance(players, list) or not players:
            raise StoreError('a game header must have a non-empty "players" list')
        row = [header["game"], dump(header, "header"), dump(players, "players"), self._clock()]
        with self._locked() as db:
            with writing(db):
                sql = "INSERT INTO games (game, header, players, started) VALUES (?, ?, ?, ?)"
                game_id = db.execute(sql, row).lastrowid
            assert game_id is not None
            self._next_seq[game_id] = 1
        return game_id

    def append(
        self,
        game_id: int,
        line: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        changed: bool,
    ) -> int:
        """Append one line and its events, committed before returning; returns its seq."""
        return self.append_many(game_id, [(line, events, changed)])

    def append_many(self, game_id: int, entries: Iterable[Entry]) -> int:
        """Append several lines in one transaction (imports, benchmarks); returns the last seq.

        O(1) per line however long the log: the next seq is kept in memory after the first
        lookup, and the unique (game_id, seq) index guards it. :raises StoreError: unknown game.
        """
        rows = [
            (line_at(line), dump(line, "line"), dump(events, "events"), c)
            for line, events, c in entries
        ]
        with self._locked() as db:
            try:
                with writing(db):
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
        require_game(db, game_id)
        return int(scalar(db, "SELECT max(seq) FROM log WHERE game_id = ?", game_id) or 0) + 1

    def last_seq(self, game_id: int) -> int:
        """The seq of the last appended line (0 for a game with none)."""
        with self._locked() as db:
            require_game(db, game_id)
            return int(scalar(db, "SELECT max(seq) FROM log WHERE game_id = ?", game_id) or 0)

    def lines(self, game_id: int) -> list[Line]:
        """The game's tape event lines, in seq order (replaying them rebuilds the game)."""
        with self._locked() as db:
            require_game(db, game_id)
            sql = "SELECT line FROM log WHERE game_id = ? ORDER BY seq"
            rows = db.execute(sql, [game_id]).fetchall()
        return [loads(line, f"a line of game {game_id}") for (line,) in rows]

    def entries(self, game_id: int, *, last: int | None = None) -> list[LogEntry]:
        """The game's whole log (or its ``last`` lines), in seq order."""
        with self._locked() as db:
            require_game(db, game_id)
            rows = db.execute(
                "SELECT seq, at, recorded, line, events, changed FROM log"
                " WHERE game_id = ? ORDER BY seq DESC LIMIT ?",
                [game_id, -1 if last is None else last],
            ).fetchall()
        rows.reverse()
        return [
            LogEntry(
                seq,
                at,
                recorded,
                loads(line, f"game {game_id}, log entry {seq}"),
                loads(events, f"game {game_id}, the events of log entry {seq}"),
                bool(changed),
            )
            for seq, at, recorded, line, events, changed in rows
        ]

    def game(self, game_id: int) -> GameRecord:
        """One game. :raises StoreError: if there is no such game."""
        records = self._games("WHERE id = ?", [game_id]) if 0 < game_id < 2**63 else []
        if not records:
            raise StoreError(f"there is no game {game_id} in {self._name}")
        return records[0]

    def games(self) -> list[GameRecord]:
        """All games, newest first (by id: a Pi has no clock battery, its time can jump)."""
        return self._games("", [])

    def count_games(self) -> int:
        """How many games are stored (any schema version has them)."""
        with self._locked() as db:
            return int(scalar(db, "SELECT count(*) FROM games"))

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
                id_,
                game,
                loads(head, f"game {id_}'s header"),
                loads(seats, f"game {id_}'s players"),
                start,
                end,
                winner,
                loads(winners, f"game {id_}'s winners"),
                bool(void),
                void_by,
            )
            for id_, game, head, seats, start, end, winner, winners, void, void_by in rows
        ]

    def finish_game(
        self, game_id: int, winners: list[str], claimed_vp: Mapping[str, int] | None = None
    ) -> None:
        """Record the end of a game (again, if an undo took a win back and another came).

        With a league (``league_outbox``) and the final VP the tracker computed, the game's
        push enters the outbox in this same transaction.
        """
        now = self._clock()
        row = [now, winners[0] if winners else None, dump(winners, "winners"), game_id]
        with self._locked() as db, writing(db):
            require_game(db, game_id)
            db.execute("UPDATE games SET ended = ?, winner = ?, winners = ? WHERE id = ?", row)
            if self.league_outbox and claimed_vp is not None:
                queue_game(db, game_id, "finished", claimed_vp, now)

    def void_game(self, game_id: int, by: str | None = None) -> None:
        """The game was abandoned unfinished (another one started at the table, ``by`` whom):
        it ends now with no winner, marked void, and with a league it is shipped as void in
        this transaction."""
        now = self._clock()
        with self._locked() as db, writing(db):
            require_game(db, game_id)
            db.execute(
                "UPDATE games SET ended = ?, winner = NULL, winners = NULL, void = 1, void_by = ?"
                " WHERE id = ? AND ended IS NULL",
                [now, by, game_id],
            )
            if self.league_outbox:
                queue_game(db, game_id, "void", None, now)

    def reopen_game(self, game_id: int) -> None:
        """An undo took the win back: the game is open again and its unsent push withdrawn."""
        with self._locked() as db, writing(db):
            require_game(db, game_id)
            db.execute(
                "UPDATE games SET ended = NULL, winner = NULL, winners = NULL WHERE id = ?",
                [game_id],
            )
            withdraw(db, game_id)

    def append_read(
        self, zone: str, uid: str, kind: str, at: float, detail: dict[str, Any] | None = None
    ) -> None:
        """Keep a raw reader read, committed, whatever the tracker makes of it."""
        if kind not in READ_KINDS:
            raise StoreError(f"a read is {', '.join(sorted(READ_KINDS))}, not {kind!r}")
        detail_json = None if detail is None else dump(detail, "detail")
        row = [zone, uid, kind, at, self._clock(), detail_json]
        with self._locked() as db, writing(db):
            db.execute(
                "INSERT INTO reads (zone, uid, kind, at, recorded, detail)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )
