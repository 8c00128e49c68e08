"""What a table remembers stays bounded however long it runs (issue 15, 8); the soak figure
itself is a benchmark (bench/soak_bench.py: soak_rss_growth_pct), never a timed test."""

from __future__ import annotations

from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected
from companion.hardware.readers.base import Health
from companion.storage.store import EventStore
from companion.table.live import UNDO_DEPTH, LiveGame
from tests.tapes import HEADER


def shuttle(live: LiveGame, moves: int) -> None:
    """A minion moved between two bases, ``moves`` times: every move a change."""
    live.submit({"tap": "B1", "zone": "base-1"})
    live.submit({"tap": "B2", "zone": "base-2"})
    for n in range(moves):
        live.submit({"tap": "TC", "zone": f"base-{n % 2 + 1}"})


def undo_all(live: LiveGame) -> tuple[int, str]:
    undone = 0
    while True:
        try:
            live.submit({"input": "undo"})
        except Rejected as exc:
            return undone, str(exc)
        undone += 1


def test_a_live_game_keeps_its_last_changes_to_undo(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    shuttle(live, UNDO_DEPTH + 40)
    assert len(live.game._before) == UNDO_DEPTH
    resumed = LiveGame.resume(store, live.game_id, catalogue)
    undone, said = undo_all(live)
    assert undone == UNDO_DEPTH and "no longer kept to undo" in said
    assert undo_all(resumed)[0] == UNDO_DEPTH  # a restart keeps the same ones
    assert resumed.game.state == live.game.state
    store.close()


def test_reader_health_forgets_old_reads_even_when_nobody_asks() -> None:
    now = [0.0]
    health = Health("base-1", lambda: now[0])
    for _ in range(10_000):
        now[0] += 0.5
        health.read()
    assert len(health._recent) <= 121
    assert health.snapshot().reads_per_minute == 121  # the minute includes both its ends


@pytest.mark.parametrize("depth", [1, 3])
def test_keep_undo_never_forgets_the_states_it_keeps(catalogue: Catalogue, depth: int) -> None:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    shuttle(live, 5)
    states: list[Any] = list(live.game._before)
    live.game.keep_undo(depth)
    assert live.game._before == states[-depth:]
    store.close()
