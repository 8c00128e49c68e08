"""Faction statistics: Wilson intervals, and win rates per faction and per pair."""

from __future__ import annotations

import pytest

from companion.league.stats import Result, faction_rates, pair_rates, wilson


def test_wilson_interval_known_values() -> None:
    # 5 of 10: the textbook 95% Wilson interval is 0.2366 to 0.7634
    low, high = wilson(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0) and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0)


def test_wilson_narrows_with_more_games_and_knows_nothing_without_any() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    small = wilson(3, 10)
    large = wilson(300, 1000)
    assert large[1] - large[0] < small[1] - small[0]
    assert large[0] < 0.3 < large[1]
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_each_seat_counts_for_both_its_factions_and_its_pair() -> None:
    results = [
        Result(("core/ninjas", "core/robots"), True, 2),
        Result(("core/aliens", "core/zombies"), False, 2),
        Result(("core/robots", "core/ninjas"), False, 4),
        Result(("core/ninjas", "core/aliens"), True, 4),
    ]
    by_faction = {r.factions: r for r in faction_rates(results)}
    ninjas = by_faction[("core/ninjas",)]
    assert (ninjas.games, ninjas.wins) == (3, 2)
    assert ninjas.rate == pytest.approx(2 / 3)
    # expected: the mean of 1/players over its games (2, 4 and 4 players)
    assert ninjas.expected == pytest.approx((1 / 2 + 1 / 4 + 1 / 4) / 3)
    assert ninjas.interval == wilson(2, 3)
    pairs = {r.factions: r for r in pair_rates(results)}
    # the same pair whichever order the factions were chosen in
    robots_ninjas = pairs[("core/ninjas", "core/robots")]
    assert (robots_ninjas.games, robots_ninjas.wins) == (2, 1)
    assert sum(r.games for r in pairs.values()) == len(results)


def test_rates_come_most_played_first() -> None:
    results = [Result(("a/x", "a/y"), True, 2)] + [Result(("a/y", "a/z"), False, 2)] * 3
    assert [r.factions for r in faction_rates(results)][0] == ("a/y",)
