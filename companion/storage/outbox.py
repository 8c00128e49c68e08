"""The league outbox: finished (and voided) games waiting to be shipped to a league server, kept
in the table's own file so that a restart or a night offline loses none of them.

A game enters the outbox in the same transaction that records its end (:func:`queue_game`,
called by the game log), with the whole push as it will be sent: the game's stable id, its
tape, what the table's tracker made of it. Shipping (elsewhere) only reads due entries and
records each answer. The league's player names are cached here for offline nights.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from companion.storage.records import Locked, dump, loads, writing
from companion.storage.schema import scalar

PENDING, SENT, REFUSED = "pending", "sent", "refused"
TOO_LARGE = "too-large"  #: larger than the league takes: kept, never sent
LEAGUE_GAME = "smashup"  #: the game a league counts


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    game_id: int
    uid: str
    status: str  #: "finished" or "void"
    payload: dict[str, Any]
    queued: float
    state: str  #: pending, sent, refused or too-large
    attempts: int
    next_try: float
    last_error: str | None
    sent: float | None
    answer: dict[str, Any] | None


def game_uid(db: Database, game_id: int) -> str:
    """The game's id in the league: this file's own random id and the game's number."""
    table = scalar(db, "SELECT value FROM meta WHERE key = 'table_uid'")
    return f"{table}-{game_id}"


def queue_game(
    db: Database, game_id: int, status: str, claimed_vp: Mapping[str, int] | None, now: float
) -> None:
    """Put the game's push in the outbox (inside the caller's transaction). A game finished
    again after an undo replaces its entry if that was not sent yet. Only Smash Up games go:
    a league counts nothing else."""
    kind, head, players, winners = db.execute(
        "SELECT game, header, players, winners FROM games WHERE id = ?", [game_id]
    ).fetchone()
    if kind != LEAGUE_GAME:
        return
    header = json.loads(head)
    lines = [json.loads(line) for (line,) in db.execute(
        "SELECT line FROM log WHERE game_id = ? ORDER BY seq", [game_id]
    )]  # fmt: skip
    uid = game_uid(db, game_id)
    push: dict[str, Any] = {
        "id": uid,
        "status": status,
        "tape": [header, *lines],
        "guests": [g for g in header.get("guests", []) if g in json.loads(players)],
        "finished_at": now,
    }
    if claimed_vp is not None:
        push["claimed"] = {"winners": loads(winners) or [], "vp": dict(claimed_vp)}
    db.execute("DELETE FROM outbox WHERE game_id = ? AND state = ?", [game_id, PENDING])
    db.execute(
        "INSERT INTO outbox (game_id, uid, status, payload, queued, next_try)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [game_id, uid, status, dump(push, "league push"), now, now],
    )


def withdraw(db: Database, game_id: int) -> None:
    """An undo took the end back: the game is not finished, its unsent entry goes."""
    db.execute("DELETE FROM outbox WHERE game_id = ? AND state = ?", [game_id, PENDING])


class Outbox:
    """The league outbox of an :class:`~companion.storage.store.EventStore` (``store.outbox``)."""

    def __init__(self, locked: Locked, *, clock: Callable[[], float]) -> None:
        self._locked = locked
        self._clock = clock

    def due(self, now: float, *, settled_before: float) -> list[OutboxEntry]:
        """Pending entries whose next try has come, queued before ``settled_before``, oldest
        first."""
        return self._entries(
            "WHERE state = ? AND next_try <= ? AND queued <= ? ORDER BY id",
            [PENDING, now, settled_before],
        )

    def newest(self, limit: int = 50) -> list[OutboxEntry]:
        """The newest entries, whatever their state."""
        return self._entries("ORDER BY id DESC LIMIT ?", [limit])

    def sent(self, entry: int, answer: Mapping[str, Any]) -> None:
        self._update(entry, state=SENT, sent=self._clock(), answer=dump(answer, "answer"))

    def refused(self, entry: int, error: str) -> None:
        """The league refused the push for good (a conflict, a malformed game): kept, not
        sent again."""
        self._update(entry, state=REFUSED, last_error=error)

    def too_large(self, entry: int, error: str) -> None:
        """The push is larger than the league takes: parked, never sent again, so it holds
        back none of the games behind it."""
        self._update(entry, state=TOO_LARGE, last_error=error)

    def retry(self, entry: int, error: str, next_try: float) -> None:
        with self._locked() as db, writing(db):
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try = ?"
                " WHERE id = ?",
                [error, next_try, entry],
            )

    def cache_league_players(self, names: Sequence[str]) -> None:
        """Keep the league's player names for nights without the league server."""
        value = dump({"names": list(names), "fetched": self._clock()}, "league players")
        with self._locked() as db, writing(db):
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('league_players', ?)", [value]
            )

    def league_players(self) -> tuple[list[str], float | None]:
        """The cached league player names and when they were fetched (``None``: never)."""
        with self._locked() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'league_players'").fetchone()
        if row is None:
            return [], None
        cached = json.loads(row[0])
        return [str(name) for name in cached["names"]], float(cached["fetched"])

    def _update(self, entry: int, **values: Any) -> None:
        columns = ", ".join(f"{key} = ?" for key in values)
        with self._locked() as db, writing(db):
            db.execute(f"UPDATE outbox SET {columns} WHERE id = ?", [*values.values(), entry])

    def _entries(self, where: str, params: list[Any]) -> list[OutboxEntry]:
        with self._locked() as db:
            rows = db.execute(
                "SELECT id, game_id, uid, status, payload, queued, state, attempts, next_try,"
                f" last_error, sent, answer FROM outbox {where}",
                params,
            ).fetchall()
        return [
            OutboxEntry(i, g, u, st, json.loads(p), q, s, a, n, e, sent, loads(answer))
            for i, g, u, st, p, q, s, a, n, e, sent, answer in rows
        ]
