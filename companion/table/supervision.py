"""Keeping a table running through a failing store and a bad read.

A disk that is full or failing must not silence the table: what the store could not take
(raw reads not yet stored, tap lines not yet applied) waits here in order, nothing of it is
acknowledged, and it is retried with back-off until the store takes it again. The health says
so meanwhile, for the tablet's banner.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from companion.hardware.readers.base import Clock, TagRead
from companion.tape.documents import Line

BACKOFF_FIRST = 0.2
BACKOFF_MAX = 5.0
WAITING_MAX = 10_000
"""Reads and lines kept while the store fails (a night of taps); the oldest go beyond that."""


@dataclass(frozen=True, slots=True)
class PendingLine:
    """A tap line the store could not take: applied (and acknowledged) once it does."""

    line: Line
    tap: bool


Waiting = TagRead | PendingLine


class Backlog:
    """What waits for the store, oldest first, and when to try it again."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._items: deque[Waiting] = deque()
        self._next_try = 0.0
        self._failures = 0
        self.error: str | None = None
        self.since: float | None = None
        self.dropped = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def failing(self) -> bool:
        return self.error is not None

    def due(self) -> bool:
        return bool(self._items) and self._clock() >= self._next_try

    def keep(self, item: Waiting, *, front: bool = False) -> None:
        if len(self._items) >= WAITING_MAX:
            self._items.popleft()
            self.dropped += 1
        if front:
            self._items.appendleft(item)
        else:
            self._items.append(item)

    def take(self) -> Waiting:
        return self._items.popleft()

    def failed(self, error: str) -> bool:
        """The store refused again; returns whether this is news (it was fine until now)."""
        news = self.error is None
        now = self._clock()
        if news:
            self.since = now
        self.error = error
        self._next_try = now + min(BACKOFF_MAX, BACKOFF_FIRST * 2**self._failures)
        self._failures += 1
        return news

    def recovered(self) -> bool:
        """The store took a write; returns whether it had been failing."""
        news = self.error is not None
        self.error = None
        self.since = None
        self._failures = 0
        self._next_try = 0.0
        return news

    def document(self) -> dict[str, object]:
        """The store's health as the tablet shows it."""
        return {
            "ok": self.error is None,
            "error": self.error,
            "waiting": len(self._items),
            "dropped": self.dropped,
        }
