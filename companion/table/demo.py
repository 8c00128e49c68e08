"""The self-playing demo: a plausible game played through the simulated NFC path at a human pace.

Each tap of the planned game (:func:`companion.simulation.plausible.plausible_lines`) is a card
put on a zone of the virtual table, left there until the table has taken it (or a while has
passed), and lifted again; tablet inputs (end turn, score, award, the answer to every prompt,
each treasure dealt) go to the service as the tablet would send them. A person can pause and
resume it; starting another game stops it. Time is injected: ``sleep`` and ``clock`` (tests
pass fast ones); ``direct`` hands taps straight to the service (the readers' job) for tests
that drive the steps themselves.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected
from companion.simulation.cthulhu_play import cthulhu_lines
from companion.simulation.plausible import make_header, plausible_lines
from companion.table.games import DEMO_PLAYERS
from companion.table.service import TableService
from companion.table.virtual import NoSimZone, VirtualTable
from companion.tape.documents import CthulhuDocument


def demo_header(catalogue: Catalogue, zones: int = 3) -> dict[str, Any]:
    """A demo game's header: the demo players, and a simulated tag on every card in play."""
    factions = {name: list(chosen) for name, chosen in DEMO_PLAYERS.items()}
    return make_header(list(DEMO_PLAYERS), factions, catalogue, zones)


class DemoPlayer:
    def __init__(
        self,
        service: TableService,
        *,
        rng: random.Random | None = None,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        dwell: float = 1.2,
        think: tuple[float, float] = (1.5, 4.0),
        settle: float = 3.0,
        direct: bool = False,
    ) -> None:
        self.service = service
        self.table = VirtualTable(service)
        self.rng = rng or random.Random()
        #: the plan's randomness: as given, else the game's own (the same plan on every start)
        self._plan_rng = rng
        self.clock = clock
        self.dwell = dwell  #: seconds a card lies on its zone
        self.think = think  #: seconds between moves
        self.settle = settle  #: longest wait for the table to take a tap
        self.direct = direct  #: taps go to the service, not through the simulated readers
        self.steps = 0
        self.finished = False
        self._sleep = sleep or self._interruptible_sleep
        self._stopping = threading.Event()
        self._running = threading.Event()
        self._running.set()
        self._thread: threading.Thread | None = None

    # Control

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="demo-player", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stopping.set()
        self._running.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def status(self) -> dict[str, Any]:
        alive = self._thread is not None and self._thread.is_alive()
        return {
            "paused": self.paused,
            "playing": alive and not self.finished,
            "steps": self.steps,
            "finished": self.finished,
        }

    # Play

    def run(self) -> None:
        """Play the table's game from its start to its end (or until stopped, or until
        another game starts)."""
        live = self.service.live
        if live is None:
            return
        for line in self.lines():
            self._running.wait()
            if self._stopping.is_set() or self.service.live is not live:
                return
            self.play(line)
            self.steps += 1
            self._sleep(self.rng.uniform(*self.think))
        self.finished = True

    def lines(self) -> Iterator[dict[str, Any]]:
        """The planned game for the table's game, line by line (without the tape's clock)."""
        live = self.service.live
        if live is None:
            return
        header = live.game.state.header
        if header.game == "munchkin-cthulhu":
            tags = {uid: binding.card for uid, binding in header.tags.items()}
            yield from cthulhu_lines(
                self.rng, tags, live.game.catalogue.cthulhu, lambda: self._document()
            )
            return
        plan = {
            "tape": 1,
            "game": header.game,
            "players": list(header.players),
            "factions": {p: list(f) for p, f in header.factions.items()},
            "zones": list(header.zones),
            "tags": {uid: binding.card for uid, binding in header.tags.items()},
        }
        # the same game always has the same plan (seeded by its id), so a demo started again
        # on its own game passes over what its log already holds and plays on from there
        played = [_without_time(line) for line in live.store.log.lines(live.game_id)]
        rng = self._plan_rng or random.Random(live.game_id)
        for planned in plausible_lines(rng, plan, live.game.catalogue):
            line = _without_time(planned)
            if played and played[0] == line:
                played.pop(0)
                continue
            played = []  # the table went another way: play on from here
            yield line

    def _document(self) -> CthulhuDocument | None:
        """The Munchkin Cthulhu game's document (``None``: the table plays no such game)."""
        document = self.service.document()
        if document is None or document["game"] != "munchkin-cthulhu":
            return None
        return document

    def play(self, line: dict[str, Any]) -> None:
        """One planned line at the table (a line the real table refuses is passed over)."""
        if "tap" in line and self.direct:
            with contextlib.suppress(Rejected):
                self.service.submit(line)
            return
        if "tap" in line:
            self.tap(str(line["tap"]), str(line["zone"]))
            return
        with contextlib.suppress(Rejected):  # the real table went another way: play on
            self.service.submit(line)

    def tap(self, uid: str, zone: str) -> None:
        """Put the card on the zone, wait until the table has taken it, lift it."""
        before = self.service.version
        try:
            self.table.place(zone, uid)
        except (NoSimZone, ValueError):
            return
        self._sleep(self.dwell)
        deadline = self.clock() + self.settle
        while self.service.version == before and self.clock() < deadline:
            if self._stopping.is_set():
                break
            self._sleep(0.05)
        self.table.lift(zone)

    def _interruptible_sleep(self, seconds: float) -> None:
        self._stopping.wait(seconds)


def _without_time(line: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "at"}
