"""What every reader reports, whatever the hardware: tag reads per zone, and its health.

Readers know tags and zones, never cards or rules (they may pass on the card id a tag's NDEF
record names; the tracker decides what it means). Times come from an injected clock.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from companion.errors import CompanionError


class ReaderError(CompanionError, OSError):
    """A reader spec is wrong, or a reader cannot be set up at all."""


Clock = Callable[[], float]
ReadKind = Literal["arrived", "left"]


@dataclass(frozen=True, slots=True)
class TagRead:
    """A tag arrived at (or left) a zone's antenna."""

    zone: str
    uid: str  #: upper-case hex, as the reader reports it
    kind: ReadKind
    at: float  #: the injected clock's time of the read
    card: str | None = None  #: the card id in the tag's NDEF record, if one was read
    #: for an arrival at an nfcpy reader: the injected clock's time the tag was selected (its
    #: sense; nfcpy's activation where a card id is written or the tag is not a Type 2 tag):
    #: ``at - activated`` is our reader's own time, the card id's READs and the hand-over
    activated: float | None = None


Sink = Callable[[TagRead], None]

HealthState = Literal["starting", "ok", "reopening", "failed", "stopped"]


@dataclass(frozen=True, slots=True)
class HealthSnapshot:
    zone: str
    state: HealthState
    last_read: float | None
    reads_per_minute: int
    errors: int
    reopens: int
    last_error: str | None
    last_poll: float | None


@dataclass
class Health:
    """A zone's health, updated by its reader thread and read by the dashboard (thread-safe)."""

    zone: str
    clock: Clock
    state: HealthState = "starting"
    last_read: float | None = None
    errors: int = 0
    reopens: int = 0
    last_error: str | None = None
    last_poll: float | None = None
    _recent: deque[float] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self) -> None:
        with self._lock:
            now = self.clock()
            self.last_read = now
            self.last_poll = now
            self._recent.append(now)
            self._forget(now)  # also with nobody asking: a table runs for weeks
            self.state = "ok"

    def _forget(self, now: float) -> None:
        """Drop reads older than a minute (called with the lock held)."""
        while self._recent and self._recent[0] < now - 60.0:
            self._recent.popleft()

    def polled(self) -> None:
        with self._lock:
            self.last_poll = self.clock()
            if self.state in ("starting", "reopening"):
                self.state = "ok"

    def failed(self, error: str, *, reopening: bool = True) -> None:
        with self._lock:
            self.errors += 1
            self.last_error = error
            self.state = "reopening" if reopening else "failed"

    def reopened(self) -> None:
        with self._lock:
            self.reopens += 1

    def set_state(self, state: HealthState) -> None:
        with self._lock:
            self.state = state

    def snapshot(self) -> HealthSnapshot:
        with self._lock:
            now = self.clock()
            self._forget(now)
            return HealthSnapshot(
                self.zone,
                self.state,
                self.last_read,
                len(self._recent),
                self.errors,
                self.reopens,
                self.last_error,
                self.last_poll,
            )


class Reader(ABC):
    """One zone's reader.

    Drivers *must* implement :meth:`start` and :meth:`stop`; they report reads by calling
    ``sink`` (from any thread) and keep :attr:`health` current. A reader error is never
    reported as a card leaving: the driver reopens with back-off and says so in its health.
    Drivers *may* override :meth:`write_card_id` (NDEF writing, for enrolment).
    """

    def __init__(self, zone: str, sink: Sink, clock: Clock) -> None:
        self.zone = zone
        self.sink = sink
        self.clock = clock
        self.health = Health(zone, clock)

    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def stop(self, timeout: float = 3.0) -> None: ...

    def begin_stop(self) -> None:
        """Ask the reader to stop without waiting for it (:meth:`stop` waits): a table asks
        all its readers first, so they wind down together rather than one after another."""
        return  # a reader whose stop() does not wait has nothing to ask ahead

    def reopen(self) -> None:
        """Close and open the reader again (a person asked, from the readers page)."""
        self.stop()
        self.health.reopened()
        self.start()

    def write_card_id(self, uid: str, card_id: str) -> bool:
        """Write an NDEF record naming ``card_id`` to the tag ``uid`` now on this reader.
        Returns False where the driver cannot write (the uid alone still identifies it)."""
        return False
