"""Tablets paired at the table: each holds a token of its own; the store keeps only its hash.

A copy of the database (a backup, a file sent to someone) therefore gives nobody control, and
forgetting every tablet (``companion token --rotate``) is one statement.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from companion.storage.records import Locked, writing
from companion.storage.schema import scalar

TOKEN_BYTES = 32


@dataclass(frozen=True, slots=True)
class PairedTablet:
    paired: float
    via: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class PairedTablets:
    """The paired tablets of an :class:`~companion.storage.store.EventStore` (``store.tablets``)."""

    def __init__(self, locked: Locked, *, clock: Callable[[], float]) -> None:
        self._locked = locked
        self._clock = clock

    def pair(self, via: str) -> str:
        """A new tablet token, remembered (by its hash) until :meth:`forget`."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self._locked() as db, writing(db):
            db.execute(
                "INSERT INTO tablets (key_hash, paired, via) VALUES (?, ?, ?)",
                [token_hash(token), self._clock(), via],
            )
        return token

    def is_paired(self, token: str) -> bool:
        """Whether ``token`` is a paired tablet's (a lookup by hash: no timing to learn from)."""
        if not token:
            return False
        with self._locked() as db:
            found = scalar(db, "SELECT count(*) FROM tablets WHERE key_hash = ?", token_hash(token))
        return bool(found)

    def all(self) -> list[PairedTablet]:
        with self._locked() as db:
            rows = db.execute("SELECT paired, via FROM tablets ORDER BY paired").fetchall()
        return [PairedTablet(float(paired), str(via)) for paired, via in rows]

    def forget(self) -> int:
        """Unpair every tablet; returns how many there were."""
        with self._locked() as db, writing(db):
            return int(db.execute("DELETE FROM tablets").rowcount)
