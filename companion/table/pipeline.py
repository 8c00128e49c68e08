"""The table's worker: reads -> tap filter -> store -> lines -> game, supervised.

The tap filter judges a read as soon as the worker takes it (a tap waits for nothing); the raw
read is then stored, before any line it leads to. No exception in handling one read stops the
worker. A failing store keeps the work it could not store waiting, in order, retried with
back-off (:mod:`.supervision`): a read keeps the filter's verdict while it waits, and a line is
acknowledged only once stored, so a retry never stores or counts anything twice. Anything else
that fails (a bug) is logged, counted in the health and dropped, and the next read is handled
as usual.

A mixin of :class:`~companion.table.service.TableService` (its worker half).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.errors import Rejected, StoreBusy, StoreError
from companion.hardware.feedback import TableFeedback
from companion.hardware.readers.base import TagRead
from companion.hardware.readers.taps import Crosstalk, Ignored, Moved, Output, Tap, TapFilter
from companion.storage.store import EventStore
from companion.table.supervision import DiskWatch, StoreHealth
from companion.tracker.games import GameOutcome

log = logging.getLogger(__name__)
IDLE_WAIT = 0.05  #: seconds the worker waits for a read before polling the tap filter
MAX_WAITING = 10_000  #: reads kept while the store is down (the oldest go first beyond)


@dataclass(slots=True)
class Work:
    """One piece of work waiting for the store: a raw read (filtered, then stored) or a line
    (with the tap it came from, whose NDEF binding goes first)."""

    read: TagRead | None = None
    line: dict[str, Any] | None = None
    tap: Tap | None = None
    stored: bool = False  #: the raw read is in the store
    #: the lines the tap filter made of the read (None: not filtered yet, or enrolling)
    follow: list[Work] | None = None
    source: TagRead | None = None  #: the read that made the tap (for its stage times)
    tapped: float = 0.0  #: when the filter passed it as a tap (the service's clock)


class Pipeline:
    """The worker half of the table service (see the module docstring)."""

    clock: Callable[[], float]
    store: EventStore
    feedback: TableFeedback
    store_health: StoreHealth
    _disk: DiskWatch
    _filter: TapFilter
    _reads: queue.Queue[TagRead]
    _stop: threading.Event
    _worker: threading.Thread | None
    _started_at: float
    _waiting: deque[Work]
    _retry_at: float | None

    # What the service provides

    def submit(self, line: dict[str, Any], *, seen_version: int | None = None) -> GameOutcome:
        raise NotImplementedError

    def _enrol(self, read: TagRead) -> list[Work] | None:
        raise NotImplementedError

    def _enrolling(self, zone: str) -> bool:
        raise NotImplementedError

    def _bind_from_ndef(self, tap: Tap) -> None:
        raise NotImplementedError

    def _timed(self, tap: Tap, read: TagRead | None, tapped: float) -> None:
        raise NotImplementedError

    def _tick(self) -> None:
        """Time-driven chores of the service, called when the worker is idle."""

    def _health_changed(self) -> None:
        raise NotImplementedError

    # The store's health

    def _in_worker(self) -> bool:
        return threading.current_thread() is self._worker

    def _store_failed(self, error: StoreError) -> None:
        busy = isinstance(error, StoreBusy)
        starting, delay = self.store_health.failed(str(error), self.clock(), busy=busy)
        self._retry_at = self.clock() + delay
        if starting:
            log.error("the store failed: %s; retrying in %.1f s", error, delay)
            self._beep(self.feedback.failed)
            self._health_changed()

    def _store_ok(self) -> None:
        self._retry_at = None
        if self.store_health.succeeded():
            log.warning("the store works again")
            self._health_changed()

    def _look_at_disk(self) -> None:
        """Now and then: a full disk is reported before a write fails on it (a table started
        on one would say its store is fine until the first tap); room again clears it."""
        if not self._disk.due(self.clock()):
            return
        problem = self._disk.problem()
        if problem is not None and not self._disk.reported:
            self._disk.reported = True
            self._store_failed(StoreError(problem))
        elif problem is None and self._disk.reported:
            self._disk.reported = False
            if not self._waiting:  # else the waiting work's retry says when it is stored
                self._store_ok()

    def _beep(self, sound: Callable[[], None]) -> None:
        try:
            sound()
        except Exception:
            log.exception("the buzzer failed")

    # The loop

    def _work(self) -> None:
        while not self._stop.is_set():
            self._take(self._wait_time())
            if self._waiting:
                self._work_through()
            else:
                self._handle(self._filter.poll(self.clock()))
                self._look_at_disk()
                self._tick()

    def _wait_time(self) -> float:
        """How long to wait for a read: until a retry or a conflict's question is due, at
        most :data:`IDLE_WAIT`."""
        now = self.clock()
        if self._retry_at is not None:
            return max(0.0, min(IDLE_WAIT, self._retry_at - now))
        if self._waiting:
            return 0.0
        due = self._filter.next_due(now)
        return IDLE_WAIT if due is None else max(0.0, min(IDLE_WAIT, due - now))

    def _take(self, timeout: float) -> None:
        """Move arrived reads onto the waiting work, in order."""
        try:
            read = self._reads.get(timeout=timeout) if timeout > 0 else self._reads.get_nowait()
        except queue.Empty:
            return
        while True:
            if not self.store_health.ok and read.kind == "arrived":
                self._beep(self.feedback.failed)  # heard at once: this tap is not taken yet
            if len(self._waiting) >= MAX_WAITING:
                self.store_health.fault("too many reads waiting for the store: the oldest lost")
                self._waiting.popleft()
            self._waiting.append(Work(read=read))
            try:
                read = self._reads.get_nowait()
            except queue.Empty:
                return

    def _work_through(self) -> None:
        """Do the waiting work in order until done, or until the store fails (the work that
        failed stays first, for the retry)."""
        while self._waiting and not self._stop.is_set():
            if self._retry_at is not None and self.clock() < self._retry_at:
                return
            work = self._waiting[0]
            try:
                follow = self._do(work)
            except StoreError as exc:
                self._store_failed(exc)
                return
            except Exception as exc:  # a bug in handling one read must not stop the table
                log.exception("handling %s failed; it is dropped", work)
                self.store_health.fault(f"{type(exc).__name__}: {exc}")
                self._health_changed()
                self._beep(self.feedback.failed)
                follow = []
            self._waiting.popleft()
            self._waiting.extendleft(reversed(follow))
            self._store_ok()

    def _do(self, work: Work) -> list[Work]:
        """Do one piece of work; returns the work it leads to. :raises StoreError:"""
        read = work.read
        if read is None:
            assert work.line is not None
            self._apply(work)
            return []
        enrolling = read.kind == "arrived" and self._enrolling(read.zone)
        if work.follow is None and not enrolling:
            work.follow = self._filtered(read)  # kept: a retry below never feeds it twice
        if not work.stored:
            detail = {"card": read.card} if read.card else None
            self.store.append_read(read.zone, read.uid, read.kind, read.at, detail)
            work.stored = True
        if work.follow is not None:
            return work.follow
        enrolled = self._enrol(read)
        return enrolled if enrolled is not None else self._filtered(read)

    def _filtered(self, read: TagRead) -> list[Work]:
        """The lines the tap filter makes of ``read``, at once (a tap is made by its card's
        arrival: ``read`` is the read that made it)."""
        return self._lines(self._filter.poll(read.at) + self._filter.feed(read), read)

    def _handle(self, outputs: list[Output]) -> None:
        """Outputs of the filter with nothing waiting: their lines wait like any work."""
        self._waiting.extend(self._lines(outputs))
        if self._waiting:
            self._work_through()

    def _lines(self, outputs: list[Output], read: TagRead | None = None) -> list[Work]:
        found = []
        tapped = self.clock()
        for output in outputs:
            if isinstance(output, Ignored):
                continue
            at = max(0.0, round(output.at - self._started_at, 3))
            if isinstance(output, Crosstalk):
                line: dict[str, Any] = {
                    "input": "crosstalk",
                    "tag": output.uid,
                    "zones": [output.first, output.second],
                    "at": at,
                }
                found.append(Work(line=line))
            elif isinstance(output, Moved):  # the same play, corrected to where it rests
                line = {
                    "input": "tap-moved",
                    "tag": output.uid,
                    "from": output.origin,
                    "zone": output.zone,
                    "at": at,
                }
                found.append(Work(line=line))
            else:
                line = {"tap": output.uid, "zone": output.zone, "at": at}
                found.append(Work(line=line, tap=output, source=read, tapped=tapped))
        return found

    def _apply(self, work: Work) -> None:
        """Store a line from the readers, with the sound that says how it went."""
        line, tap = work.line, work.tap
        assert line is not None
        if tap is not None:
            self._bind_from_ndef(tap)
        try:
            outcome = self.submit(line)
        except Rejected:
            self._beep(self.feedback.ignored)
            return
        if tap is not None:
            self._timed(tap, work.source, work.tapped)
        elif line.get("input") == "tap-moved":
            return  # the card's tap was heard already: a correction is silent
        self._beep(self.feedback.accepted if outcome.changed else self.feedback.ignored)
