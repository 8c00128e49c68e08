"""One-turn effects bind to the minions they reach when they resolve (issue 14, part 1).

Good Habits says it outright: "Every minion currently in play ... gets +1 power this turn";
the Smash Up: Munchkin rulebook (Terms) counts a card as *affected* when "it is ... changed in
power": the cards changed are the ones there when the ability happens. So a minion played or
moved in later that turn gets nothing, and a boost stays on its minion when it moves (it is on
the minion, not on the base). One case per card whose one-turn effect covers a scope.
"""

from __future__ import annotations

import pytest

from companion.catalogue.cards import Card, load_catalogue
from companion.catalogue.effect_terms import Scope
from companion.catalogue.effects import PowerEffect
from companion.rules import game as rules
from companion.rules.one_turn import binds_to_minions, resolve
from companion.rules.power import evaluate
from companion.rules.table import Table

CAT = load_catalogue()
REX = "core/king-rex"  # 7, no ability: passes every filter a one-turn effect has
BASE = "core/jungle-oasis"  # no ability
MONSTER = "munchkin/web-troll"  # 1


def _binding() -> list[tuple[Card, int]]:
    return [
        (card, index)
        for card in CAT
        for index, effect in enumerate(card.effects)
        if binds_to_minions(effect) and getattr(effect, "when", None) is None
    ]


def _table(scope: Scope) -> tuple[Table, str, str]:
    """A at base-1 with a monster there; the reached minion ``x`` is A's, or B's for a scope
    over other players' minions. Returns the table, ``x``'s controller and the source tag."""
    table = Table(players=("A", "B"))
    for zone in ("base-1", "base-2"):
        table = rules.enter_base(table, zone, BASE)
    table = rules.play_minion(table, CAT, "base-1", "troll", MONSTER, None, None)
    owner = "B" if scope is Scope.OTHERS_HERE else "A"
    table = rules.play_minion(table, CAT, "base-1", "x", REX, owner, owner)
    table = rules.add_counters(table, "x", 1)  # We Will Rock You counts them
    source = "x" if scope in (Scope.SELF, Scope.PLAYED) else "src"
    if source == "src":
        table = rules.play_minion(table, CAT, "base-1", "src", REX, "A", "A")
    return table, owner, source


@pytest.mark.parametrize(("card", "index"), _binding(), ids=lambda v: getattr(v, "id", str(v)))
def test_a_one_turn_boost_stays_with_the_minions_it_reached(card: Card, index: int) -> None:
    effect = card.effects[index]
    assert isinstance(effect, PowerEffect)
    table, owner, source = _table(effect.scope)
    tag = source if effect.scope is not Scope.PLAYED else None
    bearer = "x" if effect.scope is Scope.PLAYED else None
    resolved = resolve(table, CAT, card, index, "A", "base-1", tag=tag, bearer=bearer)
    amount = effect.amount  # x carries one counter: a per-counter count is 1
    before = evaluate(table, CAT).power_of("x") or 0
    assert evaluate(resolved, CAT).power_of("x") == max(0, before + amount)
    late = rules.play_minion(resolved, CAT, "base-1", "late", REX, owner, owner)
    late = rules.add_counters(late, "late", 1)
    plain = rules.add_counters(
        rules.play_minion(table, CAT, "base-1", "late", REX, owner, owner), "late", 1
    )
    assert evaluate(late, CAT).power_of("late") == evaluate(plain, CAT).power_of("late")
    moved = rules.move_minion(resolved, "x", "base-2")
    moved_before = rules.move_minion(table, "x", "base-2")
    assert evaluate(moved, CAT).power_of("x") == max(
        0, (evaluate(moved_before, CAT).power_of("x") or 0) + amount
    )
    assert evaluate(rules.end_turn(resolved), CAT).power_of("x") == evaluate(
        rules.end_turn(table), CAT
    ).power_of("x")


def test_every_card_named_in_the_issue_is_reached() -> None:
    reached = {card.id for card, _ in _binding()}
    for card in (
        "munchkin/good-habits",
        "munchkin/join-the-club",
        "core/howl",
        "core/swashbuckling",
        "oops/combat-training",
        "oops/form-a-posse",
        "monster-smash/frenzy",
        "oops/plague-of-locusts",
        "oops/blessing-of-anubis",
        "munchkin/campaign",
        "munchkin/elf-help-guru",
        "monster-smash/pack-alpha",
    ):
        assert card in reached, card
