"""A step's work does not grow with the game's length, and a stored log is replayed without
checking its lines again (issue 24).

Counted, never timed: the profiler counts every function call (Python and built-in) made
while the tracker applies a line. The same taps on the same table cost the same number of calls
in a fresh game and late in a long night that has piled up scorings, treasure draws and open
deals; before issue 24 every step walked every open deal.
"""

from __future__ import annotations

import cProfile
import gc
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import InvalidLine
from companion.rules import abilities
from companion.simulation.plausible import random_header, random_lines
from companion.storage.store import EventStore
from companion.table import live as live_module
from companion.table.live import LiveGame
from companion.tape.limits import check_line
from companion.tape.lines import parse_header
from companion.tracker.game import Game
from tests import tapes

LONG_NIGHT = 6_000
SHUTTLES = 40


class CallCounter:
    """Counts the calls made while :meth:`counting` is open: cProfile's own counts (the same
    profiler hook, in C: a hook written in Python made each counted tap 10-20 times slower)."""

    def __init__(self) -> None:
        self.calls = 0

    @contextmanager
    def counting(self) -> Iterator[None]:
        """Count inside the block (within :func:`no_collection`: see there)."""
        profiler = cProfile.Profile(builtins=True)
        profiler.enable()
        try:
            yield
        finally:
            profiler.disable()
            self.calls += sum(entry.callcount for entry in profiler.getstats())


@contextmanager
def no_collection() -> Iterator[None]:
    """A garbage collection inside a counting window would count the finalizers of whatever
    earlier tests left behind: collect once first, and none until the block ends (a collection
    before each window cost 0.1 s each, most of this file's time)."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _clear_table(game: Game) -> None:
    """Bring the table back to empty through ordinary inputs (its history stays)."""
    while game.state.table.winners:
        game.apply({"input": "undo"})
    duel = game.state.duel
    if duel is not None and duel.is_open:
        game.apply({"input": "resolve-duel"})
    for prompt in game.state.prompts:
        game.apply({"input": "answer", "prompt": prompt.id, "option": len(prompt.options) - 1})
    if game.state.table.scoring is not None:
        game.apply({"input": "award"})
    for base in game.state.table.bases:
        game.apply({"input": "remove-base", "zone": base.zone})


def _shuttle_calls(game: Game, catalogue: Catalogue) -> list[int]:
    """Five bases with ten cards each, then ten minions tapped back and forth between two
    bases: the calls each of those taps cost."""
    tags = game.state.header.tags
    bases = [uid for uid, b in tags.items() if catalogue[b.card].type == "base"][:5]
    minions = [uid for uid, b in tags.items() if catalogue[b.card].type == "minion"][:50]
    for zone, uid in enumerate(bases, start=1):
        game.apply({"tap": uid, "zone": f"base-{zone}"})
    for n, uid in enumerate(minions):
        game.apply({"tap": uid, "zone": f"base-{n % 5 + 1}"})
    counter = CallCounter()
    costs = []
    with no_collection():
        for n in range(SHUTTLES):
            costs.append(_counted_shuttle(game, minions[n % 10], counter))
    return costs


def _counted_shuttle(game: Game, uid: str, counter: CallCounter) -> int:
    """The calls one tap of ``uid`` to the other of bases 1 and 2 costs."""
    found = game.state.table.locate(uid)
    zone = "base-1" if found is None or found[0].zone != "base-1" else "base-2"
    # the rules' table-status cache empties itself every 16 tables: start each tap from an
    # empty one, so the count does not depend on what ran before (other tests, the setup)
    abilities._CACHE.clear()
    before = counter.calls
    with counter.counting():
        game.apply({"tap": uid, "zone": zone})
    return counter.calls - before


@pytest.fixture(scope="module")
def long_night(catalogue: Catalogue) -> tuple[dict[str, Any], Game]:
    rng = random.Random(1)
    header = random_header(rng, catalogue)
    game = Game(parse_header(header, catalogue), catalogue)
    for line in random_lines(rng, header, catalogue, LONG_NIGHT):
        game.apply(line)
    _clear_table(game)
    return header, game


def test_the_long_night_has_piled_up_history(long_night: tuple[dict[str, Any], Game]) -> None:
    _, game = long_night
    state = game.state
    assert state.version > LONG_NIGHT
    assert len(state.deals) >= 20 and len(state.scorings) >= 20 and len(state.treasure_draws) >= 20
    assert state.table.bases == ()


def test_a_tap_late_in_a_long_night_costs_what_it_costs_in_a_fresh_game(
    catalogue: Catalogue, long_night: tuple[dict[str, Any], Game]
) -> None:
    header, long_game = long_night
    fresh = Game(parse_header(header, catalogue), catalogue)
    fresh_calls = _shuttle_calls(fresh, catalogue)
    long_calls = _shuttle_calls(long_game, catalogue)
    assert len(long_game.state.deals) >= 20  # still open: the taps had them to walk past
    assert long_calls == fresh_calls


def test_the_counter_sees_work_that_grows_with_a_list(catalogue: Catalogue) -> None:
    """The counter counts built-in calls too (a loop appending per item shows up)."""
    counter = CallCounter()
    kept: list[int] = []
    with no_collection(), counter.counting():
        for item in range(100):
            kept.append(item)
    assert counter.calls >= 100


def test_a_stored_log_is_replayed_without_checking_its_lines_again(
    catalogue: Catalogue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines are checked where they come in (a submitted line), not on every replay."""
    checked: list[object] = []

    def counting_check(line: Any) -> Any:
        checked.append(line)
        return check_line(line)

    monkeypatch.setattr(live_module, "check_line", counting_check)
    store = EventStore.memory()
    live = LiveGame.start(store, tapes.HEADER, catalogue)
    for line in (tapes.tap("B1", "base-1"), tapes.tap("TC", "base-1"), tapes.inp("end-turn")):
        live.submit(line)
    assert len(checked) == 3
    with pytest.raises(InvalidLine):
        live.submit({"input": "vp", "player": "Ann", "delta": 10**6})
    resumed = LiveGame.resume(store, live.game_id, catalogue)
    assert len(checked) == 4
    assert resumed.game.state.table == live.game.state.table
