"""Keeping the table running when its store fails: the store's health and when to retry.

A failed write (disk I/O error, a full disk, a file made read-only) must neither stop the table
nor be acknowledged: the work that failed waits, the table says so (the dashboard's banner, the
error sound), and it is retried with back-off until the store takes it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

StoreState = Literal["ok", "busy", "failing"]
"""``busy``: another program holds the store's write lock (writes wait for it); ``failing``:
the store refuses writes (full disk, I/O error, a file made read-only)."""

FIRST_RETRY = 0.1  #: seconds before the first retry of a failed write
LONGEST_RETRY = 2.0  #: seconds between retries once back-off has grown
BUSY_WAIT = 0.02
"""Seconds a write waits for another program's write lock (SQLite's busy timeout) while the
table holds its own lock: enough for another program's short write; longer waits are the
worker's retries, outside every lock, so the view never waits on the store."""


LOW_DISK = 64 * 1024
"""Bytes free below which the store's disk counts as full (a tap's write needs a few pages)."""
DISK_LOOK_EVERY = 10.0  #: seconds between looks at the store's free space


class DiskWatch:
    """Whether the store's disk is full, looked at now and then, so that a full disk is
    reported before a write fails on it: a table started on one, or a disk another program
    fills while the table is idle, would otherwise say its store is fine."""

    def __init__(self, free: Callable[[], int | None], every: float = DISK_LOOK_EVERY) -> None:
        """``free``: the bytes free on the store's disk (None: not on a disk)."""
        self._free = free
        self.every = every
        self._next: float | None = None
        #: the table said the disk is full, and has not seen room since
        self.reported = False

    def due(self, now: float) -> bool:
        """Whether it is time for another look (and the next one is then ``every`` later)."""
        if self._next is not None and now < self._next:
            return False
        self._next = now + self.every
        return True

    def problem(self) -> str | None:
        """A full disk, said as what to do; None if there is room (or it cannot tell: the
        writes will say)."""
        try:
            free = self._free()
        except OSError:
            return None
        if free is None or free >= LOW_DISK:
            return None
        return (
            f"the disk holding the games database is full ({free // 1024} KiB free): free "
            "some space"
        )


@dataclass(frozen=True, slots=True)
class StoreHealthSnapshot:
    state: StoreState
    error: str | None  #: what the store said last time it failed
    since: float | None  #: when it started failing (the table's clock)
    failures: int  #: failed writes since the table started
    waiting: int  #: reads and lines waiting to be stored
    faults: int  #: reads or inputs dropped because handling them raised (a bug)
    last_fault: str | None

    def document(self) -> dict[str, object]:
        return {
            "state": self.state,
            "error": self.error,
            "since": self.since,
            "failures": self.failures,
            "waiting": self.waiting,
            "faults": self.faults,
            "last_fault": self.last_fault,
        }


class StoreHealth:
    """Thread-safe: the worker and web threads report, the dashboard reads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: StoreState = "ok"
        self._error: str | None = None
        self._since: float | None = None
        self._failures = 0
        self._faults = 0
        self._last_fault: str | None = None
        self._attempts = 0
        #: bumped on every change a viewer should see
        self.generation = 0

    @property
    def ok(self) -> bool:
        """Whether the last write went through (nothing waits for the store)."""
        return self._state == "ok"

    def failed(self, error: str, now: float, *, busy: bool = False) -> tuple[bool, float]:
        """A write failed (``busy``: another program held the write lock): returns (whether
        this starts a failure, seconds until a retry)."""
        with self._lock:
            starting = self._state == "ok"
            if starting:
                self._since = now
            state: StoreState = "busy" if busy else "failing"
            # the same failure again (each retry) is no news: viewers keep the view they have
            if (state, error) != (self._state, self._error):
                self.generation += 1
            self._state, self._error = state, error
            self._failures += 1
            delay = min(LONGEST_RETRY, FIRST_RETRY * 2**self._attempts)
            self._attempts += 1
            return starting, delay

    def succeeded(self) -> bool:
        """A write went through: returns whether the store was failing until now."""
        with self._lock:
            recovered = self._state != "ok"
            if recovered:
                self._state, self._since, self._error = "ok", None, None
                self.generation += 1
            self._attempts = 0
            return recovered

    def fault(self, error: str) -> None:
        with self._lock:
            self._faults += 1
            self._last_fault = error
            self.generation += 1

    def snapshot(self, waiting: int = 0) -> StoreHealthSnapshot:
        """``waiting``: the reads and lines the table holds for the store (the table knows)."""
        with self._lock:
            return StoreHealthSnapshot(
                self._state,
                self._error,
                self._since,
                self._failures,
                waiting,
                self._faults,
                self._last_fault,
            )
