"""Property tests over random tapes: the tracker never breaks its invariants."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.catalogue.cards import load_catalogue
from companion.errors import Rejected
from companion.rules.power import evaluate
from companion.simulation.plausible import random_header, random_lines
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.tape.lines import parse_header
from companion.tracker.document import state_document
from companion.tracker.game import Game
from companion.tracker.state import TrackerState

CATALOGUE = load_catalogue()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _places(state: TrackerState) -> Counter[str]:
    seen: Counter[str] = Counter()
    for base in state.table.bases:
        if base.tag:
            seen[base.tag] += 1
        seen.update(a.tag for a in base.attached)
        seen.update(b.tag for b in base.buried)
        for minion in base.minions:
            seen[minion.tag] += 1
            seen.update(a.tag for a in minion.attached)
    if state.pending is not None:
        seen[state.pending.tag] += 1
    return seen


def _game(seed: int, length: int) -> tuple[dict, list[dict], Game]:
    rng = random.Random(seed)
    header = random_header(rng, CATALOGUE, players=rng.randint(2, 4), zones=rng.randint(2, 5))
    lines = list(random_lines(rng, header, CATALOGUE, length))
    game = Game(parse_header(header, CATALOGUE), CATALOGUE)
    return header, lines, game


@SETTINGS
@given(st.integers(0, 10**6), st.integers(1, 150))
def test_every_step_keeps_the_invariants(seed: int, length: int) -> None:
    _, lines, game = _game(seed, length)
    for line in lines:
        game.apply(line)
        assert all(n == 1 for n in _places(game.state).values())
        for base in evaluate(game.state.table, CATALOGUE).bases:
            assert base.breakpoint >= 0 and base.total >= 0
            assert all(p >= 0 for p in base.minion_power.values())


@SETTINGS
@given(st.integers(0, 10**6), st.integers(1, 120), st.integers(0, 10**6))
def test_undo_restores_the_previous_state_exactly(seed: int, length: int, pick: int) -> None:
    _, lines, game = _game(seed, length)
    coin = random.Random(pick)
    for line in lines:
        before = game.state
        outcome = game.apply(line)
        if outcome.changed and line.get("input") != "undo" and coin.random() < 0.3:
            game.apply({"input": "undo"})
            assert replace(game.state, version=0) == replace(before, version=0)
            game.apply(line)  # and play it again


@SETTINGS
@given(st.integers(0, 10**6), st.integers(1, 120))
def test_replaying_an_exported_game_gives_the_same_state(seed: int, length: int) -> None:
    header, lines, _ = _game(seed, length)
    store = EventStore.memory()
    live = LiveGame.start(store, header, CATALOGUE)
    for line in lines:
        live.submit(line)
    exported = [store.log.game(live.game_id).header, *store.log.lines(live.game_id)]
    again = Game(parse_header(exported[0], CATALOGUE), CATALOGUE)
    for line in exported[1:]:
        again.apply(line)
    assert state_document(again.state, CATALOGUE) == state_document(live.game.state, CATALOGUE)
    store.close()


def test_rejected_lines_change_nothing() -> None:
    _, lines, game = _game(5, 60)
    for line in lines:
        game.apply(line)
    before = game.state
    for bad in (
        {"input": "award"},
        {"input": "counter", "tag": "NOPE", "delta": 1},
        {"tap": "X", "zone": "nowhere"},
        {"input": "madness", "player": "Zed", "delta": 1},
    ):
        with pytest.raises(Rejected):
            game.apply(bad)
        assert game.state is before
