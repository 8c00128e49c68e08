"""The table's worker: reads -> tap filter -> store -> lines -> game, supervised.

The tap filter judges a read as soon as the worker takes it (a tap waits for nothing); the raw
read is then stored, before any line it leads to. No exception in handling one read stops the
worker. A failing store keeps the work it could not store waiting, in order, retried with
back-off (:mod:`.supervision`): a read keeps the filter's verdict while it waits, and a line is
acknowledged only once stored, so a retry never stores or counts anything twice. Anything else
that fails (a bug) is logged, counted in the health and dropped, and the next read is handled
as usual.

The worker runs on its own thread (:meth:`Worker.start`: the product), or its owner advances
it with :meth:`Worker.step` (tests, on an injected clock): the same work, in the same order.
What a line means is the table's business, asked through :class:`Served`.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

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
TIMINGS_KEPT = 200
Line = dict[str, Any]


class Served(Protocol):
    """What the worker asks of the table it works for: what a line, an enrolment and a card's
    own NDEF record mean (the game's side of a read)."""

    def submit(self, line: Line, *, seen_version: int | None = None) -> GameOutcome:
        """Apply, store and announce ``line``. :raises Rejected: :raises StoreError:"""
        ...

    def enrolling(self, zone: str) -> bool:
        """Whether arrivals at ``zone`` enrol tags (they skip the tap filter)."""
        ...

    def enrol(self, read: TagRead) -> list[Line] | None:
        """The lines to store if an enrolment took ``read``; None if none runs at its zone."""
        ...

    def recognise(self, tap: Tap) -> None:
        """Bind the tap's tag from the card its NDEF record names, if the game lacks it."""
        ...


@dataclass(frozen=True, slots=True)
class TapTiming:
    """When one tap passed each stage, in seconds on the table's clock: what the benchmarks
    and the readers page add up (place -> activated -> read -> tap -> stored -> screen)."""

    zone: str
    uid: str
    activated: float | None  #: the tag was selected (nfcpy readers only: TagRead.activated)
    read: float  #: the reader handed the read over
    tap: float  #: the worker took it as a tap (the tap filter passed it; stored next)
    stored: float  #: the tap's line stored and announced to every listener


@dataclass(slots=True)
class Work:
    """One piece of work waiting for the store: a raw read (filtered, then stored) or a line
    (with the tap it came from, whose NDEF binding goes first)."""

    read: TagRead | None = None
    line: Line | None = None
    tap: Tap | None = None
    stored: bool = False  #: the raw read is in the store
    #: the lines the tap filter made of the read (None: not filtered yet, or enrolling)
    follow: list[Work] | None = None
    source: TagRead | None = None  #: the read that made the tap (for its stage times)
    tapped: float = 0.0  #: when the filter passed it as a tap (the table's clock)


def beep(sound: Callable[[], None]) -> None:
    """Play a feedback sound; a buzzer that fails is logged, never passed on."""
    try:
        sound()
    except Exception:
        log.exception("the buzzer failed")


class Worker:
    """Turns reads into stored lines for ``served`` (see the module docstring).

    :param on_health: called when the store's health changes (viewers hear it).
    :param chores: the table's time-driven chores, run when the worker is idle.
    """

    def __init__(
        self,
        served: Served,
        *,
        store: EventStore,
        tap_filter: TapFilter,
        clock: Callable[[], float],
        feedback: TableFeedback,
        health: StoreHealth,
        on_health: Callable[[], None],
        chores: Callable[[], None],
    ) -> None:
        self._served = served
        self._store = store
        self._filter = tap_filter
        self._clock = clock
        self._feedback = feedback
        self.health = health
        self._on_health = on_health
        self._chores = chores
        self._disk = DiskWatch(store.free_bytes)
        self._reads: queue.Queue[TagRead] = queue.Queue()
        self._waiting: deque[Work] = deque()
        self._retry_at: float | None = None
        self._started_at = clock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._working_in: int | None = None  #: the thread doing the work now
        self._stepping = threading.Lock()  #: steps from two threads take turns
        #: the last taps' stage times, oldest first
        self.timings: deque[TapTiming] = deque(maxlen=TIMINGS_KEPT)

    # Life cycle

    def put(self, read: TagRead) -> None:
        """Queue a read (the readers' sink: any thread)."""
        self._reads.put(read)

    def start(self, *, thread: bool = True) -> None:
        """Look at the disk (a table started on a full one says so at once) and, with
        ``thread``, start the worker thread; without, the owner calls :meth:`step`."""
        self.look_at_disk()
        if thread:
            self._thread = threading.Thread(target=self._run, name="table-worker", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)

    def step(self) -> None:
        """Handle every read queued now, in order, then the idle chores due at the clock (a
        conflict's question, the disk, the table's chores): the worker's work, done in the
        caller's thread. Work the store refused stays waiting until a step at or after its
        retry time.

        :raises RuntimeError: the worker runs on its own thread (one worker at a time).
        """
        if self.alive:
            raise RuntimeError("the table's worker runs on its own thread: it cannot be stepped")
        with self._stepping:
            self._working_in = threading.get_ident()
            try:
                self._take(0.0)
                self._work_through()
                if not self._waiting:
                    self._idle()
            finally:
                self._working_in = None

    @property
    def alive(self) -> bool:
        """Whether the worker thread runs (a stepped worker has none)."""
        return self._thread is not None and self._thread.is_alive()

    def in_worker(self) -> bool:
        """Whether the caller is the worker, doing its work (then a line comes from a read)."""
        return self._working_in == threading.get_ident()

    @property
    def waiting(self) -> int:
        """The reads and lines waiting for the store."""
        return len(self._waiting)

    # The store's health

    def store_failed(self, error: StoreError) -> None:
        busy = isinstance(error, StoreBusy)
        starting, delay = self.health.failed(str(error), self._clock(), busy=busy)
        self._retry_at = self._clock() + delay
        if starting:
            log.error("the store failed: %s; retrying in %.1f s", error, delay)
            beep(self._feedback.failed)
            self._on_health()

    def store_ok(self) -> None:
        self._retry_at = None
        if self.health.succeeded():
            log.warning("the store works again")
            self._on_health()

    def look_at_disk(self) -> None:
        """Now and then: a full disk is reported before a write fails on it (a table started
        on one would say its store is fine until the first tap); room again clears it."""
        if not self._disk.due(self._clock()):
            return
        problem = self._disk.problem()
        if problem is not None and not self._disk.reported:
            self._disk.reported = True
            self.store_failed(StoreError(problem))
        elif problem is None and self._disk.reported:
            self._disk.reported = False
            if not self._waiting:  # else the waiting work's retry says when it is stored
                self.store_ok()

    # The loop

    def _run(self) -> None:
        self._working_in = threading.get_ident()
        while not self._stop.is_set():
            self._take(self._wait_time())
            if self._waiting:
                self._work_through()
            else:
                self._idle()

    def _idle(self) -> None:
        self._handle(self._filter.poll(self._clock()))
        self.look_at_disk()
        self._chores()

    def _wait_time(self) -> float:
        """How long to wait for a read: until a retry or a conflict's question is due, at
        most :data:`IDLE_WAIT`."""
        now = self._clock()
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
            if not self.health.ok and read.kind == "arrived":
                beep(self._feedback.failed)  # heard at once: this tap is not taken yet
            if len(self._waiting) >= MAX_WAITING:
                self.health.fault("too many reads waiting for the store: the oldest lost")
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
            if self._retry_at is not None and self._clock() < self._retry_at:
                return
            work = self._waiting[0]
            try:
                follow = self._do(work)
            except StoreError as exc:
                self.store_failed(exc)
                return
            except Exception as exc:  # a bug in handling one read must not stop the table
                log.exception("handling %s failed; it is dropped", work)
                self.health.fault(f"{type(exc).__name__}: {exc}")
                self._on_health()
                beep(self._feedback.failed)
                follow = []
            self._waiting.popleft()
            self._waiting.extendleft(reversed(follow))
            self.store_ok()

    def _do(self, work: Work) -> list[Work]:
        """Do one piece of work; returns the work it leads to. :raises StoreError:"""
        read = work.read
        if read is None:
            assert work.line is not None
            self._apply(work)
            return []
        enrolling = read.kind == "arrived" and self._served.enrolling(read.zone)
        if work.follow is None and not enrolling:
            work.follow = self._filtered(read)  # kept: a retry below never feeds it twice
        if not work.stored:
            detail = {"card": read.card} if read.card else None
            self._store.log.append_read(read.zone, read.uid, read.kind, read.at, detail)
            work.stored = True
        if work.follow is not None:
            return work.follow
        enrolled = self._served.enrol(read)
        if enrolled is None:
            return self._filtered(read)
        return [Work(line=line) for line in enrolled]

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
        tapped = self._clock()
        for output in outputs:
            if isinstance(output, Ignored):
                continue
            at = max(0.0, round(output.at - self._started_at, 3))
            if isinstance(output, Crosstalk):
                line: Line = {
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
            self._served.recognise(tap)
        try:
            outcome = self._served.submit(line)
        except Rejected:
            beep(self._feedback.ignored)
            return
        if tap is not None:
            self._timed(tap, work.source, work.tapped)
        elif line.get("input") == "tap-moved":
            return  # the card's tap was heard already: a correction is silent
        beep(self._feedback.accepted if outcome.changed else self._feedback.ignored)

    def _timed(self, tap: Tap, read: TagRead | None, tapped: float) -> None:
        """Keep the tap's stage times (``read`` is the read that made it, if it was one)."""
        made_it = read is not None and (read.uid, read.zone) == (tap.uid, tap.zone)
        activated = read.activated if read is not None and made_it else None
        read_at = read.at if read is not None and made_it else tap.at
        self.timings.append(TapTiming(tap.zone, tap.uid, activated, read_at, tapped, self._clock()))
