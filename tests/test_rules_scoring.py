"""Placings, ties, the treasure draft and the game end, against the rulebooks
(Oops 2018 "The Big Score" / "Tie Fighter", Munchkin 2015 p. 9 and "Game Over, Man!")."""

from __future__ import annotations

import pytest

from companion.catalogue.cards import Catalogue
from companion.rules import game as rules
from companion.rules.power import evaluate
from companion.rules.scoring import rank, score_base, treasure_draft
from companion.rules.table import Table


def places(powers: dict[str, int], vp: tuple[int, int, int]) -> list[tuple[str, int, int]]:
    ranking = rank(powers, powers, vp, list(powers))
    return [(p.player, p.place, p.vp) for p in ranking]


@pytest.mark.parametrize(
    ("powers", "vp", "expected"),
    [
        # Tie Fighter: 10/10/5 on 4/2/1 -> both winners 4, the 5 takes third place (1)
        ({"A": 10, "B": 10, "C": 5}, (4, 2, 1), [("A", 1, 4), ("B", 1, 4), ("C", 3, 1)]),
        # 8/5/5/2: two tie for runner-up, so no one is third
        (
            {"A": 8, "B": 5, "C": 5, "D": 2},
            (4, 2, 1),
            [("A", 1, 4), ("B", 2, 2), ("C", 2, 2), ("D", 4, 0)],
        ),
        # three-way tie for first: everyone gets winner VP
        ({"A": 6, "B": 6, "C": 6}, (5, 3, 2), [("A", 1, 5), ("B", 1, 5), ("C", 1, 5)]),
        # tie for third: both get third
        (
            {"A": 9, "B": 7, "C": 3, "D": 3},
            (4, 3, 2),
            [("A", 1, 4), ("B", 2, 3), ("C", 3, 2), ("D", 3, 2)],
        ),
        # four players, all different: the fourth gets nothing
        (
            {"A": 9, "B": 7, "C": 3, "D": 1},
            (4, 3, 2),
            [("A", 1, 4), ("B", 2, 3), ("C", 3, 2), ("D", 4, 0)],
        ),
        # fewer than three players: third place unclaimed
        ({"A": 12, "B": 3}, (4, 2, 1), [("A", 1, 4), ("B", 2, 2)]),
        ({"A": 12}, (4, 2, 1), [("A", 1, 4)]),
    ],
)
def test_tie_patterns(
    powers: dict[str, int], vp: tuple[int, int, int], expected: list[tuple[str, int, int]]
) -> None:
    assert places(powers, vp) == expected


def test_only_eligible_players_place() -> None:
    ranking = rank({"A": 5, "B": 0}, ["A"], (4, 2, 1), ["A", "B"])
    assert [(p.player, p.place) for p in ranking] == [("A", 1)]


def test_ties_listed_clockwise_from_current_player() -> None:
    ranking = rank({"A": 5, "B": 5, "C": 5}, "ABC", (4, 2, 1), ["B", "C", "A"])
    assert [p.player for p in ranking] == ["B", "C", "A"]


def test_treasure_draft_rulebook_example() -> None:
    # Munchkin p. 9: A has more power than B, 5 treasures: A picks 1st, 3rd, 5th; C has no minion.
    order = treasure_draft({"A": 10, "B": 6, "C": 0}, ["A", "B"], 5, ["A", "B", "C"])
    assert order == ("A", "B", "A", "B", "A")


def test_treasure_draft_ties_clockwise_from_current_player() -> None:
    # Ben is the current player; Ann and Cat tie: clockwise from Ben, Cat comes before Ann.
    order = treasure_draft({"Ann": 4, "Cat": 4}, ["Ann", "Cat"], 3, ["Ben", "Cat", "Ann"])
    assert order == ("Cat", "Ann", "Cat")


def test_treasure_draft_with_nobody_there_reveals_to_nobody() -> None:
    assert treasure_draft({}, [], 3, ["A", "B"]) == ()


def _treehouse(catalogue: Catalogue) -> Table:
    table = Table(players=("Ann", "Ben", "Cat"))
    table = rules.enter_base(table, "base-1", "munchkin/treehouse", "T")
    for tag in ("H1", "H2"):
        table = rules.play_minion(
            table, catalogue, "base-1", tag, "munchkin/hippogriff", None, None
        )
    return table


def test_treehouse_with_two_hippogriffs_breaks_at_21(catalogue: Catalogue) -> None:
    # Munchkin rulebook p. 8: Treehouse (15) with two Hippogriffs (3 each) breaks at 21.
    view = evaluate(_treehouse(catalogue), catalogue).base("base-1")
    assert (view.printed_breakpoint, view.breakpoint) == (15, 21)


def test_base_keeps_scoring_after_power_drops(catalogue: Catalogue) -> None:
    # Munchkin p. 8: total 22 breaks the Treehouse (21); the Hippogriffs kill a Taunter and a
    # Turner before it scores; it still finishes scoring.
    table = _treehouse(catalogue)
    strong = [("munchkin/topper-chopper", "Ann"), ("munchkin/cardinal", "Ben")]
    for n, (card, player) in enumerate(strong):
        table = rules.play_minion(table, catalogue, "base-1", f"S{n}", card, player, player)
    extra = 0
    while evaluate(table, catalogue).base("base-1").total < 22:
        table = rules.play_minion(
            table, catalogue, "base-1", f"X{extra}", "munchkin/halfling-hireling", None, "Cat"
        )
        extra += 1
    table = rules.choose_to_score(table, catalogue, "base-1")
    for n in range(extra):
        table, _ = rules.leave_play(table, catalogue, f"X{n}")
    assert not evaluate(table, catalogue).base("base-1").ready
    table, result = rules.award(table, catalogue)
    assert result.card == "munchkin/treehouse"
    assert table.base_at("base-1") is None
    assert table.vp_of("Ann") + table.vp_of("Ben") > 0
    assert result.treasure_count == 2  # the two Hippogriffs' treasure numbers (1 each)


def test_controlled_monster_counts_for_its_controller(catalogue: Catalogue) -> None:
    table = _treehouse(catalogue)
    table = rules.set_control(table, "H1", "Ann")
    view = evaluate(table, catalogue).base("base-1")
    assert view.breakpoint == 18  # only the uncontrolled Hippogriff adds
    assert view.power == {"Ann": 3}
    result = score_base(table, catalogue, "base-1")
    assert result.treasure_count == 2  # controlled monsters' treasures are revealed too
    assert result.treasure_order == ("Ann", "Ann")


def test_choosing_a_base_that_is_not_ready_is_refused(catalogue: Catalogue) -> None:
    with pytest.raises(rules.IllegalPlayError, match="not ready"):
        rules.choose_to_score(_treehouse(catalogue), catalogue, "base-1")


@pytest.mark.parametrize(
    ("vp", "madness", "in_game", "winners"),
    [
        ((14, 10, 3), (0, 0, 0), False, ()),  # nobody at 15
        ((15, 10, 3), (0, 0, 0), False, ("A",)),
        ((16, 17, 3), (0, 0, 0), False, ("B",)),  # the most VP wins, not the first to 15
        ((16, 16, 3), (0, 0, 0), False, ()),  # tie for the most: play on
        ((16, 16, 3), (2, 0, 0), True, ("B",)),  # A loses 1 VP for two Madness
        ((16, 16, 3), (1, 1, 0), True, ("A", "B")),  # same Madness: the win is shared
        ((16, 17, 3), (0, 3, 0), True, ("A",)),  # 16/16 after the penalty; A has fewer Madness
        ((17, 16, 0), (2, 0, 0), True, ("B",)),  # 16/16 after the penalty; B has fewer Madness
    ],
)
def test_game_end(
    vp: tuple[int, ...], madness: tuple[int, ...], in_game: bool, winners: tuple[str, ...]
) -> None:
    table = Table(players=("A", "B", "C"), vp=vp, madness=madness, madness_in_game=in_game)
    assert rules.game_winners(table) == winners


def test_end_turn_passes_clockwise_and_ends_the_game() -> None:
    table = Table(players=("A", "B"), vp=(10, 3))
    table = rules.end_turn(table)
    assert (table.current_player, table.turn, table.winners) == ("B", 2, ())
    table = rules.end_turn(Table(players=("A", "B"), vp=(15, 3), current=1))
    assert table.winners == ("A",)
