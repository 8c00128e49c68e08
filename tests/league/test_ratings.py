"""Season ratings: placings from final VP and winners, the Plackett-Luce update, and that
rating as games arrive equals rating from scratch."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from companion.league.ratings import DEFAULT, RatedGame, Skill, placings, rate_game, rerate, update


def test_placings_put_every_winner_first_and_share_tied_places() -> None:
    assert placings([15, 10, 10, 5], winners=[0]) == [1, 2, 2, 4]
    # a shared win: both first, the next player third
    assert placings([16, 16, 9], winners=[0, 1]) == [1, 1, 3]
    # a winner on the Madness tie-break: the other 16 is not first
    assert placings([16, 16, 9], winners=[1]) == [2, 1, 3]
    # no winner (a void game): by VP alone
    assert placings([3, 7, 7], winners=[]) == [3, 1, 1]


def test_winner_rises_loser_falls_and_both_grow_surer() -> None:
    after = rate_game([DEFAULT, DEFAULT], [1, 2])
    assert after[0].mu > DEFAULT.mu > after[1].mu
    assert after[0].sigma < DEFAULT.sigma and after[1].sigma < DEFAULT.sigma
    assert after[0].ordinal == pytest.approx(after[0].mu - 3 * after[0].sigma)


def test_a_tie_between_equals_changes_nobody_s_mean() -> None:
    after = rate_game([DEFAULT, DEFAULT, DEFAULT], [1, 1, 1])
    assert [s.mu for s in after] == pytest.approx([DEFAULT.mu] * 3)


def test_the_update_is_openskill_plackett_luce() -> None:
    before = [Skill(27.0, 6.0), Skill(24.0, 7.5), Skill(25.0, 8.0)]
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    expected = model.rate(teams, ranks=[2.0, 1.0, 3.0])
    after = rate_game(before, [2, 1, 3])
    assert [(s.mu, s.sigma) for s in after] == [(t[0].mu, t[0].sigma) for t in expected]


def test_a_guest_plays_with_a_fresh_rating_and_keeps_nothing() -> None:
    current = {"ann": Skill(30.0, 4.0)}
    changes = update(current, RatedGame(1, (("ann", 2), (None, 1))))
    assert [c.player for c in changes] == ["ann"]
    assert None not in current
    assert current["ann"].mu < 30.0  # she lost to the guest
    expected = rate_game([Skill(30.0, 4.0), DEFAULT], [2, 1])[0]
    assert current["ann"] == expected


def test_a_game_needs_two_seats_with_places() -> None:
    with pytest.raises(ValueError):
        rate_game([DEFAULT], [1])
    with pytest.raises(ValueError):
        rate_game([DEFAULT, DEFAULT], [1])


def test_rating_as_games_arrive_equals_rating_from_scratch() -> None:
    rng = random.Random(7)
    names = ["ann", "ben", "cat", "dan", "eve"]
    games = []
    for n in range(60):
        seats = rng.sample(names, rng.randint(2, 4))
        vp = [rng.randint(5, 20) for _ in seats]
        best = max(vp)
        places = placings(vp, [i for i, v in enumerate(vp) if v == best])
        games.append(RatedGame(n, tuple(zip(seats, places, strict=True))))
    current: dict[str, Skill] = {}
    for game in games:
        update(current, game)
    final, changes = rerate(games)
    assert final == current
    assert len(changes) == sum(len(g.seats) for g in games)
    # each change starts where the player's previous one ended
    last: dict[str, Skill] = {}
    for change in changes:
        assert change.before == last.get(change.player, DEFAULT)
        last[change.player] = change.after
