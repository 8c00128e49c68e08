"""Faction-pair win rates."""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.storage.history import faction_pair_stats
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from tests.tapes import HEADER


def test_faction_pair_win_rates_count_finished_games_only(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    first = LiveGame.start(store, HEADER, catalogue).game_id
    second = LiveGame.start(store, HEADER, catalogue).game_id
    LiveGame.start(store, HEADER, catalogue)  # still in progress
    store.log.finish_game(first, ["Ann"])
    store.log.finish_game(second, ["Ann", "Ben"])
    rows = {tuple(r["factions"]): r for r in faction_pair_stats(store.log.games())}
    ann = rows[("munchkin/elves", "munchkin/orcs")]
    assert (ann["games"], ann["wins"], ann["win_rate"]) == (2, 1.5, 0.75)
    cat = rows[("munchkin/dwarves", "munchkin/warriors")]
    assert (cat["games"], cat["wins"]) == (2, 0)
