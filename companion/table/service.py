"""The running table: readers -> tap filter -> tracker -> store, with feedback and listeners.

One worker thread turns reads into taps; every change (from a tap, the tablet or a button)
goes through :meth:`TableService.submit` under one lock, so the game has a single writer.
Each state carries a version; a request that says which version it saw is refused if the
table has changed since (two tablets pressing "award" at once cannot score twice).

A table may have no game in progress (its first boot, or after the last game ended and the
service restarted): the readers run, reads are stored, tags can be enrolled, and every line
that needs a game is refused with :class:`~companion.errors.NoGame` until one starts.

The worker is its own object, supervised (:mod:`.worker`): no exception in handling one read
stops it, and a failing store keeps the work it could not store waiting, retried with back-off;
nothing is acknowledged until it is stored, and :attr:`TableService.store_health` says what is
wrong. It runs on its own thread, or (``worker_thread=False``) the owner advances it with
:meth:`TableService.step`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.errors import NoGame, Rejected, StoreBusy, StoreError
from companion.hardware.feedback import NullFeedback, TableFeedback
from companion.hardware.readers.base import HealthSnapshot, Reader, TagRead
from companion.hardware.readers.registry import ReaderContext, open_reader
from companion.hardware.readers.taps import Tap, TapFilter
from companion.storage.store import EventStore
from companion.table.enrol import BulkEnrolment, EnrolError, deck_order
from companion.table.feedback_view import feedback_view
from companion.table.live import LiveGame
from companion.table.pairing import Pairing
from companion.table.supervision import BUSY_WAIT, StoreHealth, StoreHealthSnapshot
from companion.table.view import TableView, Views
from companion.table.worker import Line, TapTiming, Worker, beep
from companion.tape.documents import Document, Event
from companion.tracker.games import GameOutcome, game_outcome

Clock = Callable[[], float]
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Change:
    """What listeners hear after each applied line."""

    version: int
    events: tuple[Event, ...]
    changed: bool


__all__ = ["Change", "TableService", "TapTiming"]


class TableService:
    """One table's readers, game, store and feedback.

    ``live`` is the game in progress, or None for a table without one: then ``store`` and
    ``catalogue`` are needed (with a game they default to the game's). With
    ``worker_thread=False`` no worker thread runs: the owner calls :meth:`step` (tests).
    """

    def __init__(
        self,
        live: LiveGame | None,
        readers: Mapping[str, str],
        *,
        clock: Clock,
        feedback: TableFeedback | None = None,
        context: ReaderContext | None = None,
        tap_filter: TapFilter | None = None,
        store: EventStore | None = None,
        catalogue: Catalogue | None = None,
        pairing_clock: Clock | None = None,
        worker_thread: bool = True,
    ) -> None:
        self.live = live
        self.store: EventStore = store if store is not None else _need(live).store
        self.catalogue = catalogue if catalogue is not None else _need(live).game.catalogue
        self.store.wait_when_busy(BUSY_WAIT)
        self.clock = clock
        self.feedback: TableFeedback = feedback or NullFeedback()
        self.feedback.on_end_turn = self.end_turn_pressed
        self.feedback.on_end_turn_held = self.end_turn_held
        self.feedback.on_undo = self.undo_pressed
        self.pairing = Pairing(
            pairing_clock or clock,
            grant=lambda: self.store.tablets.pair("button"),
            waiting=self.feedback.pairing,
            has_button=lambda: "end-turn" in self.feedback.buttons,
            changed=self._health_changed,
        )
        self.context = context or ReaderContext(clock)
        self.context.known_tag = self._is_bound
        self._lock, self._listening = threading.RLock(), threading.Lock()
        self._listeners: list[Callable[[Change], None]] = []
        self.store_health = StoreHealth()
        self._worker_thread = worker_thread
        self.worker = Worker(
            self,
            store=self.store,
            tap_filter=tap_filter or TapFilter(),
            clock=clock,
            feedback=self.feedback,
            health=self.store_health,
            on_health=self._health_changed,
            chores=self.pairing.tick,
        )
        #: the last taps' stage times, oldest first
        self.timings = self.worker.timings
        #: while set, arrivals at this zone enrol tags instead of playing cards
        self.enrolment: tuple[str, BulkEnrolment] | None = None
        self.enrolment_messages: list[str] = []
        self.readers: dict[str, Reader] = {
            zone: open_reader(spec, zone, self.worker.put, clock, self.context)
            for zone, spec in readers.items()
        }
        self._views = Views()
        #: the table as everyone sees it, swapped whole once per version: read it unlocked
        self.view: TableView = self._views.build(None, tuple(self.readers))

    # Life cycle

    def start(self) -> None:
        self.worker.start(thread=self._worker_thread)
        for reader in self.readers.values():
            reader.start()
        self.feedback.show(feedback_view(self.document()))

    def stop(self) -> None:
        # each reader thread may be sleeping out its poll period: all asked at once, the
        # table waits for the longest period instead of their sum
        for reader in self.readers.values():
            reader.begin_stop()
        for reader in self.readers.values():
            reader.stop()
        self.worker.stop()
        self.context.close()
        self.feedback.close()

    def open_zones(self, zones: Iterable[str], spec: str = "sim:") -> list[str]:
        """Open and start a ``spec`` reader for each of ``zones`` that has none (a simulated
        table given a Munchkin Cthulhu game's seats and combat pad); returns the zones opened."""
        opened: list[str] = []
        with self._lock:
            for zone in zones:
                if zone in self.readers:
                    continue
                reader = open_reader(spec, zone, self.worker.put, self.clock, self.context)
                self.readers = {**self.readers, zone: reader}  # readers is read unlocked
                reader.start()
                opened.append(zone)
        return opened

    def step(self) -> None:
        """Advance a table started without a worker thread: every read fed or reported so far
        is handled, then the chores due at the clock (:meth:`Worker.step`).

        :raises RuntimeError: the table's worker runs on its own thread."""
        self.worker.step()

    # The game

    @property
    def version(self) -> int:
        """The game's state version (0 with no game in progress)."""
        live = self.live
        return 0 if live is None else int(live.game.state.version)

    def playing(self) -> LiveGame:
        """The game in progress. :raises NoGame: there is none."""
        live = self.live
        if live is None:
            raise NoGame()
        return live

    def submit(self, line: dict[str, Any], *, seen_version: int | None = None) -> GameOutcome:
        """Apply, store and announce one line, in the caller's thread (with or without a
        worker thread: a caller never waits for the worker; reads it has not taken yet come
        after this line, as they would a moment later).

        :raises Rejected: no game, a stale version or a line the game refuses.
        :raises StoreError: not stored (nothing changed); also while taps wait for a failing
            store, so a tablet input never overtakes them.
        """
        with self._lock:
            live = self.playing()
            if seen_version is not None and seen_version != self.version:
                raise Rejected(
                    f"the table changed since you looked (version {seen_version}, now "
                    f"{self.version}): check the screen and try again"
                )
            if not self.store_health.ok and self.worker.waiting and not self.worker.in_worker():
                snapshot = self.store_health.snapshot()
                raise (StoreBusy if snapshot.state == "busy" else StoreError)(
                    f"the game store is {snapshot.state} ({snapshot.error}); taps are waiting "
                    "to be stored and nothing was changed: try again shortly"
                )
            try:
                outcome = live.submit(line)
            except StoreError as exc:
                if not self.worker.in_worker():  # it reports its own, once, with its retry
                    self.worker.store_failed(exc)
                raise
            self.worker.store_ok()
            self._announce(outcome)
            return outcome

    def document(self) -> Document | None:
        """The current state document (built once per version); None with no game."""
        return self.snapshot()[1]

    def snapshot(self) -> tuple[int, Document | None]:
        """The version and the state document of that version, read together."""
        with self._lock:  # the view of the game as it stands, built once per version
            live, view = self.live, self.view
            if (view.game_id, view.version) != (live and live.game_id, self.version):
                view = self.view = self._views.build(live, tuple(self.readers))
            return view.version, view.document

    # The table's buttons

    def end_turn_pressed(self) -> None:
        """A press (not a hold) ends the turn, even while a tablet asks to pair: then the page
        says so, and how to let the tablet in, and the buzzer beeps once (the turn ended)."""
        asking = self.pairing.ended_turn()
        if self._press({"input": "end-turn"}) and asking:
            self.feedback.accepted()

    def end_turn_held(self) -> bool:
        """End turn held down: whether a tablet waiting to pair took it (then the turn goes
        on, and the buzzer beeps that tablet's code once more)."""
        if not self.pairing.press():
            return False
        self.feedback.paired()
        return True

    def undo_pressed(self) -> None:
        self._press({"input": "undo"})

    def _press(self, line: dict[str, Any]) -> bool:
        """Submit a button's line; whether it was taken (a refusal is heard)."""
        try:
            self.submit(line)
        except Rejected:
            self.feedback.ignored()
        except StoreError:
            self.feedback.failed()
        else:
            return True
        return False

    def replace_game(self, live: LiveGame, by: str | None = None) -> None:
        """A new game starts at this table (the readers keep running), ``by`` whom; the one it
        replaces, if unfinished, is void."""
        with self._lock:
            before = self.live
            if before is not None and live.game_id != before.game_id:
                before.abandon(by)
            self.live = live
            self.enrolment = None
            self._announce(game_outcome(live.game.state, (), True))

    def listen(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``listener`` after every line (its own lock, not the table's); returns a stop."""
        with self._listening:
            self._listeners.append(listener)

        def stop() -> None:
            with self._listening:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def health(self) -> list[HealthSnapshot]:
        return [reader.health.snapshot() for reader in self.readers.values()]

    def store_snapshot(self) -> StoreHealthSnapshot:
        """The store's health, with how much work waits for it."""
        return self.store_health.snapshot(self.worker.waiting)

    def start_enrolment(self, zone: str, faction: str, owner: str | None = None) -> str:
        """Taps at ``zone`` now bind the faction's cards in printed order.

        :raises EnrolError: for an unknown faction or zone.
        """
        if zone not in self.readers:
            raise EnrolError(f"unknown zone {zone!r}; zones: {', '.join(self.readers)}")
        enrolment = BulkEnrolment(deck_order(self.catalogue, faction), owner)
        with self._lock:
            self.enrolment = (zone, enrolment)
            self.enrolment_messages = [enrolment.prompt()]
        return enrolment.prompt()

    def stop_enrolment(self) -> None:
        with self._lock:
            self.enrolment = None

    # What the worker asks (:class:`~companion.table.worker.Served`)

    def enrolling(self, zone: str) -> bool:
        """Whether arrivals at ``zone`` enrol tags (they skip the tap filter)."""
        enrolment = self.enrolment
        return enrolment is not None and enrolment[0] == zone

    def enrol(self, read: TagRead) -> list[Line] | None:
        """The bind line to store if a bulk enrolment took the read (its binding is stored
        already); None if no enrolment is running at the read's zone."""
        with self._lock:
            if self.enrolment is None or self.enrolment[0] != read.zone:
                return None
            _, enrolment = self.enrolment
            before = len(enrolment.bound)
            live = self.live
            tags = live.game.state.header.tags if live is not None else {}
            known = {uid: binding.card for uid, binding in tags.items()}
            message = enrolment.read(read.uid, self.store, self.catalogue, known, read.card)
            self.enrolment_messages.append(message)
            if enrolment.finished:
                self.enrolment = None
            if len(enrolment.bound) == before:
                beep(self.feedback.ignored)
                return []
            if live is None:  # stored: the next game knows the tag
                beep(self.feedback.accepted)
                return []
            uid, card = enrolment.bound[-1]  # the running game knows the tag at once
            line: Line = {"input": "bind", "tag": uid, "card": card}
            if enrolment.owner in live.game.state.header.players:
                line["owner"] = enrolment.owner
            return [line]

    def _is_bound(self, uid: str) -> bool:
        """Whether the game in progress knows ``uid`` (its readers then skip the card id):
        asked from reader threads, it reads the current state, never the store."""
        live = self.live
        return live is not None and uid in live.game.state.header.tags

    def feed(self, read: TagRead) -> None:
        """Hand a read to the worker as a reader would (tests, the virtual table)."""
        self.worker.put(read)

    # Internals

    def _announce(self, outcome: GameOutcome) -> None:
        """Tell the LEDs and every listener; one that fails is logged, never passed on (the
        line is stored: the caller must hear that it was)."""
        self.snapshot()  # this version's view, published before anyone hears of the change
        try:
            self.feedback.show(feedback_view(self.view.document))
        except Exception:
            log.exception("the table's lights could not show the new state")
        self._tell(Change(self.version, outcome.events, outcome.changed))

    def _tell(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("a listener failed on version %d", change.version)

    def _health_changed(self) -> None:
        """Viewers hear a change of the store's health (or of pairing) like a change of the
        game."""
        self._tell(Change(self.version, (), False))

    def recognise(self, tap: Tap) -> None:
        """A card whose NDEF record names a card we know is recognised without enrolment
        (the uid stays the key: an enrolled uid is never rebound from its NDEF)."""
        if tap.card is None or tap.card not in self.catalogue:
            return
        live = self.live
        if live is not None and tap.uid in live.game.state.header.tags:
            return
        try:
            self.submit({"input": "bind", "tag": tap.uid, "card": tap.card})
        except NoGame:
            pass  # stored below: the next game knows the card
        except Rejected:
            return
        if self.store.bindings.get(tap.uid) is None:
            self.store.bindings.bind(tap.uid, tap.card)


def _need(live: LiveGame | None) -> LiveGame:
    if live is None:
        raise ValueError("a table without a game needs its store and catalogue")
    return live
