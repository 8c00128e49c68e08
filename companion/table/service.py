"""The running table: readers -> tap filter -> tracker -> store, with feedback and listeners.

One worker thread turns reads into taps; every change (from a tap, the tablet or a button)
goes through :meth:`TableService.submit` under one lock, so the game has a single writer.
Each state carries a version; a request that says which version it saw is refused if the
table has changed since (two tablets pressing "award" at once cannot score twice).

The worker is supervised: no exception in handling one read stops it. A store that fails keeps
the work it could not store waiting, in order, retried with back-off (:mod:`.supervision`);
nothing is acknowledged until it is stored, and the health says what is wrong meanwhile.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import Rejected, StoreError
from companion.hardware.feedback import NullFeedback, TableFeedback
from companion.hardware.readers.base import HealthSnapshot, Reader, TagRead
from companion.hardware.readers.registry import ReaderContext, open_reader
from companion.hardware.readers.taps import Crosstalk, Ignored, Tap, TapFilter
from companion.storage.session import LiveGame
from companion.table.enrol import BulkEnrolment, EnrolError, deck_order
from companion.table.supervision import StoreHealth, StoreHealthSnapshot
from companion.tape.documents import Document, Event
from companion.tracker.document import state_document
from companion.tracker.state import Outcome

Clock = Callable[[], float]
log = logging.getLogger(__name__)
IDLE_WAIT = 0.05  #: seconds the worker waits for a read before polling the tap filter
MAX_WAITING = 10_000  #: reads kept while the store is down (the oldest go first beyond)


@dataclass(slots=True)
class _Work:
    """One piece of work waiting for the store: a raw read (stored, then filtered) or a line
    (with the tap it came from, whose NDEF binding goes first)."""

    read: TagRead | None = None
    line: dict[str, Any] | None = None
    tap: Tap | None = None
    stored: bool = False  #: the raw read is in the store; only filtering it is left


@dataclass(frozen=True, slots=True)
class Change:
    """What listeners hear after each applied line."""

    version: int
    events: tuple[Event, ...]
    changed: bool


class TableService:
    def __init__(
        self,
        live: LiveGame,
        readers: Mapping[str, str],
        *,
        clock: Clock,
        feedback: TableFeedback | None = None,
        context: ReaderContext | None = None,
        tap_filter: TapFilter | None = None,
    ) -> None:
        self.live = live
        self.clock = clock
        self.feedback: TableFeedback = feedback or NullFeedback()
        self.context = context or ReaderContext(clock)
        self._filter = tap_filter or TapFilter()
        self._reads: queue.Queue[TagRead] = queue.Queue()
        self._lock = threading.RLock()
        self._listeners: list[Callable[[Change], None]] = []
        self._document: tuple[int, Document] | None = None
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        self._started_at = clock()
        self.store_health = StoreHealth()
        self._waiting: deque[_Work] = deque()
        self._retry_at: float | None = None
        #: while set, arrivals at this zone enrol tags instead of playing cards
        self.enrolment: tuple[str, BulkEnrolment] | None = None
        self.enrolment_messages: list[str] = []
        self.readers: dict[str, Reader] = {
            zone: open_reader(spec, zone, self._reads.put, clock, self.context)
            for zone, spec in readers.items()
        }

    # Life cycle

    def start(self) -> None:
        self._worker = threading.Thread(target=self._work, name="table-worker", daemon=True)
        self._worker.start()
        for reader in self.readers.values():
            reader.start()
        self.feedback.show(self.document())

    def stop(self) -> None:
        for reader in self.readers.values():
            reader.stop()
        self._stop.set()
        if self._worker is not None:
            self._worker.join(timeout=3)
        self.context.close()
        self.feedback.close()

    # The game

    @property
    def version(self) -> int:
        return int(self.live.game.state.version)

    def submit(self, line: dict[str, Any], *, seen_version: int | None = None) -> Outcome:
        """Apply, store and announce one line.

        :raises Rejected: stale version or bad line. :raises StoreError: not stored (nothing
            changed); also while the worker still has taps waiting for the store, so a tablet
            input never overtakes them.
        """
        with self._lock:
            if seen_version is not None and seen_version != self.version:
                raise Rejected(
                    f"the table changed since you looked (version {seen_version}, now "
                    f"{self.version}): check the screen and try again"
                )
            if self.store_health.failing and self._waiting and not self._in_worker():
                raise StoreError(
                    f"the game store is failing ({self.store_health.snapshot().error}); taps "
                    "are waiting to be stored and nothing was changed: try again shortly"
                )
            try:
                outcome = self.live.submit(line)
            except StoreError as exc:
                self._store_failed(exc)
                raise
            self._store_ok()
            self._announce(outcome)
            return outcome

    def _in_worker(self) -> bool:
        return threading.current_thread() is self._worker

    def document(self) -> Document:
        """The current state document (built once per version)."""
        return self.snapshot()[1]

    def snapshot(self) -> tuple[int, Document]:
        """The version and the state document of that version, read together."""
        with self._lock:
            version = self.version
            if self._document is None or self._document[0] != version:
                self._document = (
                    version,
                    state_document(self.live.game.state, self.live.game.catalogue),
                )
            return self._document

    def replace_game(self, live: LiveGame) -> None:
        """A new game starts at this table (the readers keep running)."""
        with self._lock:
            self.live = live
            self._document = None
            self.enrolment = None
            self._announce(Outcome(live.game.state, (), True))

    def listen(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``listener`` after every applied line; returns a function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def health(self) -> list[HealthSnapshot]:
        return [reader.health.snapshot() for reader in self.readers.values()]

    def store_snapshot(self) -> StoreHealthSnapshot:
        """The store's health, with how much work waits for it."""
        self.store_health.waiting = len(self._waiting)
        return self.store_health.snapshot()

    def start_enrolment(self, zone: str, faction: str, owner: str | None = None) -> str:
        """Taps at ``zone`` now bind the faction's cards in printed order.

        :raises EnrolError: for an unknown faction or zone.
        """
        if zone not in self.readers:
            raise EnrolError(f"unknown zone {zone!r}; zones: {', '.join(self.readers)}")
        enrolment = BulkEnrolment(deck_order(self.live.game.catalogue, faction), owner)
        with self._lock:
            self.enrolment = (zone, enrolment)
            self.enrolment_messages = [enrolment.prompt()]
        return enrolment.prompt()

    def stop_enrolment(self) -> None:
        with self._lock:
            self.enrolment = None

    def _enrol(self, read: TagRead) -> list[_Work] | None:
        """The bind line to store if a bulk enrolment took the read (its binding is stored
        already); None if no enrolment is running at the read's zone."""
        with self._lock:
            if self.enrolment is None or self.enrolment[0] != read.zone:
                return None
            _, enrolment = self.enrolment
            before = len(enrolment.bound)
            tags = self.live.game.state.header.tags
            known = {uid: binding.card for uid, binding in tags.items()}
            message = enrolment.read(read.uid, self.live.store, self.live.game.catalogue, known)
            self.enrolment_messages.append(message)
            if enrolment.done:
                self.enrolment = None
            if len(enrolment.bound) == before:
                self.feedback.ignored()
                return []
            uid, card = enrolment.bound[-1]
            line: dict[str, Any] = {"input": "bind", "tag": uid, "card": card}
            if enrolment.owner in self.live.game.state.header.players:
                line["owner"] = enrolment.owner
            return [_Work(line=line)]

    def feed(self, read: TagRead) -> None:
        """Hand a read to the worker as a reader would (tests, the virtual table)."""
        self._reads.put(read)

    # Internals

    def _announce(self, outcome: Outcome) -> None:
        """Tell the LEDs and every listener; one that fails is logged, never passed on (the
        line is stored: the caller must hear that it was)."""
        change = Change(self.version, outcome.events, outcome.changed)
        try:
            self.feedback.show(self.document())
        except Exception:
            log.exception("the table's lights could not show the new state")
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("a listener failed on version %d", change.version)

    def _store_failed(self, error: StoreError) -> None:
        starting, delay = self.store_health.failed(str(error), self.clock())
        self._retry_at = self.clock() + delay
        if starting:
            log.error("the store failed: %s; retrying in %.1f s", error, delay)
            self._beep(self.feedback.failed)
            self._announce(Outcome(self.live.game.state, (), False))

    def _store_ok(self) -> None:
        self._retry_at = None
        if self.store_health.succeeded():
            log.warning("the store works again")
            self._announce(Outcome(self.live.game.state, (), False))

    def _beep(self, sound: Callable[[], None]) -> None:
        try:
            sound()
        except Exception:
            log.exception("the buzzer failed")

    def _work(self) -> None:
        while not self._stop.is_set():
            self._take(self._wait_time())
            if self._waiting:
                self._work_through()
            else:
                self._handle(self._filter.poll(self.clock()))

    def _wait_time(self) -> float:
        if self._retry_at is not None:
            return max(0.0, min(IDLE_WAIT, self._retry_at - self.clock()))
        return 0.0 if self._waiting else IDLE_WAIT

    def _take(self, timeout: float) -> None:
        """Move arrived reads onto the waiting work, in order."""
        try:
            read = self._reads.get(timeout=timeout) if timeout > 0 else self._reads.get_nowait()
        except queue.Empty:
            return
        while True:
            if self.store_health.failing and read.kind == "arrived":
                self._beep(self.feedback.failed)  # heard at once: this tap is not taken yet
            if len(self._waiting) >= MAX_WAITING:
                self.store_health.fault("too many reads waiting for the store: the oldest lost")
                self._waiting.popleft()
            self._waiting.append(_Work(read=read))
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
                self._beep(self.feedback.failed)
                follow = []
            self._waiting.popleft()
            self._waiting.extendleft(reversed(follow))
            self._store_ok()

    def _do(self, work: _Work) -> list[_Work]:
        """Do one piece of work; returns the work it leads to. :raises StoreError:"""
        read = work.read
        if read is None:
            assert work.line is not None
            self._apply(work.line, work.tap)
            return []
        if not work.stored:
            detail = {"card": read.card} if read.card else None
            self.live.store.append_read(read.zone, read.uid, read.kind, read.at, detail)
            work.stored = True
        enrolled = self._enrol(read) if read.kind == "arrived" else None
        if enrolled is not None:
            return enrolled
        return self._lines(self._filter.poll(read.at) + self._filter.feed(read))

    def _handle(self, outputs: list[Tap | Crosstalk | Ignored]) -> None:
        """Outputs of the filter with nothing waiting: their lines wait like any work."""
        self._waiting.extend(self._lines(outputs))
        if self._waiting:
            self._work_through()

    def _lines(self, outputs: list[Tap | Crosstalk | Ignored]) -> list[_Work]:
        found = []
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
                found.append(_Work(line=line))
            else:
                line = {"tap": output.uid, "zone": output.zone, "at": at}
                found.append(_Work(line=line, tap=output))
        return found

    def _apply(self, line: dict[str, Any], tap: Tap | None) -> None:
        """Store a line from the readers, with the sound that says how it went."""
        if tap is not None:
            self._bind_from_ndef(tap)
        try:
            outcome = self.submit(line)
        except Rejected:
            self._beep(self.feedback.ignored)
            return
        self._beep(self.feedback.accepted if outcome.changed else self.feedback.ignored)

    def _bind_from_ndef(self, tap: Tap) -> None:
        """A card whose NDEF record names a card we know is recognised without enrolment
        (the uid stays the key: an enrolled uid is never rebound from its NDEF)."""
        if tap.card is None or tap.card not in self.live.game.catalogue:
            return
        if tap.uid in self.live.game.state.header.tags:
            return
        try:
            self.submit({"input": "bind", "tag": tap.uid, "card": tap.card})
        except Rejected:
            return
        if self.live.store.binding(tap.uid) is None:
            self.live.store.bind(tap.uid, tap.card)
