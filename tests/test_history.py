"""VP over time from a stored log, and faction-pair win rates."""

from __future__ import annotations

from companion.cards import Catalogue
from companion.history import faction_pair_stats, vp_over_time
from companion.session import LiveGame
from companion.store import EventStore
from tests.tapes import HEADER


def test_vp_over_time_follows_the_log(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    for line in (
        {"tap": "B3", "zone": "base-3"},
        *[{"tap": t, "zone": "base-3"} for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
        {"input": "counter", "tag": "TP", "delta": 3},
        {"input": "score", "zone": "base-3"},
        {"input": "award"},
        {"input": "undo"},
    ):
        live.submit(line)
    points = vp_over_time(store, live.game_id, catalogue)
    assert points[0].vp == (0, 0, 0)
    assert points[1].seq == 10 and sum(points[1].vp) == 4 + 2 + 1  # The Central Brain scored
    assert points[-1].vp == (0, 0, 0)  # the undo took the scoring back
    assert len(points) == 3


def test_faction_pair_win_rates_count_finished_games_only(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    first = LiveGame.start(store, HEADER, catalogue).game_id
    second = LiveGame.start(store, HEADER, catalogue).game_id
    LiveGame.start(store, HEADER, catalogue)  # still in progress
    store.finish_game(first, ["Ann"])
    store.finish_game(second, ["Ann", "Ben"])
    rows = {tuple(r["factions"]): r for r in faction_pair_stats(store.games())}
    ann = rows[("munchkin/elves", "munchkin/orcs")]
    assert (ann["games"], ann["wins"], ann["win_rate"]) == (2, 1.5, 0.75)
    cat = rows[("munchkin/dwarves", "munchkin/warriors")]
    assert (cat["games"], cat["wins"]) == (2, 0)
