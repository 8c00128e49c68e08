"""Cancelling a card's abilities removes all of them (issue 14, part 1), for every canceller.

Smash Up: Munchkin rulebook, Terms: "Cancel: This means the ability is treated as if it does
not exist." So a cancelled card adds no power, gives no traits ("all your minions are
Microbots"), scores no bonus, gives no VP and triggers nothing.
"""

from __future__ import annotations

import pytest

from companion.catalogue.cards import load_catalogue
from companion.rules import game as rules
from companion.rules.one_turn import resolve
from companion.rules.power import evaluate
from companion.rules.scoring import score_base
from companion.rules.table import Table

CAT = load_catalogue()
ALPHA, FIXER, GUARD, REX = (
    "core/microbot-alpha",
    "core/microbot-fixer",
    "core/microbot-guard",
    "core/king-rex",
)
CURSE, SIGNAL, POTION = (
    "munchkin/curse-of-imprisonment",
    "core/jammed-signal",
    "munchkin/potion-of-paralysis",
)


def table_with(*bases: str) -> Table:
    table = Table(players=("A", "B"))
    for n, card in enumerate((*bases, "core/jungle-oasis", "core/jungle-oasis")[:2], start=1):
        table = rules.enter_base(table, f"base-{n}", card)
    return table


def put(table: Table, tag: str, card: str, player: str | None, zone: str = "base-1") -> Table:
    return rules.play_minion(table, CAT, zone, tag, card, player, player)


def powers(table: Table, *tags: str) -> tuple[int | None, ...]:
    view = evaluate(table, CAT)
    return tuple(view.power_of(tag) for tag in tags)


def microbots() -> Table:
    """A's Microbot Alpha and Fixer at base-1, King Rex (no microbot) at base-2."""
    table = put(put(table_with(), "alpha", ALPHA, "A"), "fix", FIXER, "A")
    return put(table, "rex", REX, "A", "base-2")


def test_microbots_as_they_are() -> None:
    """Microbot Alpha: "+1 power per other Microbot you control; all your minions are treated
    as Microbots"; Fixer: "Your Microbots +1 power"."""
    assert powers(microbots(), "alpha", "fix", "rex") == (1 + 2 + 1, 1 + 1, 7 + 1)


def test_cancelling_microbot_alpha_undoes_its_microbots() -> None:
    """Cursed (Curse of Imprisonment), Alpha makes nobody a Microbot: Rex loses Fixer's +1;
    Alpha (a Microbot by its printed name) keeps Fixer's +1 but loses its own count."""
    table = rules.attach_to_minion(microbots(), "alpha", "c", CURSE, "B", "B")
    assert powers(table, "alpha", "fix", "rex") == (1 + 1, 1 + 1, 7)


def test_a_potion_on_the_microbots_base_cancels_alpha_and_fixer() -> None:
    """Potion of Paralysis at base-1 cancels both there: no Microbots by Alpha, no +1 by
    Fixer, anywhere."""
    table = resolve(microbots(), CAT, CAT[POTION], 0, "B", "base-1")
    assert powers(table, "alpha", "fix", "rex") == (1, 1, 7)


def test_potion_of_paralysis_reaches_only_its_base() -> None:
    """Rulebook clarification: "This does not cancel the ability of the base, or of cards at
    other bases": Alpha at base-2 keeps working."""
    table = put(put(table_with(), "alpha", ALPHA, "A", "base-2"), "fix", FIXER, "A")
    table = put(table, "rex", REX, "A")
    table = resolve(table, CAT, CAT[POTION], 0, "B", "base-1")
    assert powers(table, "alpha", "fix", "rex") == (1 + 2, 1, 7)  # Fixer itself is cancelled


@pytest.mark.parametrize(
    ("base", "without", "with_signal"),
    [
        ("core/factory-436-1337", {"A": 2 + 2, "B": 2}, {"A": 2, "B": 2}),
        ("core/rhodes-plaza-mall", {"A": 2, "B": 2}, {"A": 0, "B": 0}),
        ("munchkin/garrison", {"A": 3 + 1, "B": 2 + 1}, {"A": 3, "B": 2}),
    ],
)
def test_jammed_signal_cancels_the_scoring_abilities_of_its_base(
    base: str, without: dict[str, int], with_signal: dict[str, int]
) -> None:
    """Jammed Signal: "that base's ability is cancelled": Factory 436-1337's VP per 5 power,
    Rhodes Plaza Mall's VP per minion (its printed VP are 0), Garrison's +1 over 22."""
    table = put(put(table_with(base), "a1", REX, "A"), "a2", "core/ninja-master", "A")
    table = put(put(table, "b1", REX, "B"), "b2", "core/walker", "B")  # A 12, B 9: 21
    if base == "munchkin/garrison":
        table = put(table, "a3", "core/shinobi", "A")  # A 15, B 9: 24, over 22
    jammed = rules.attach_to_base(table, "base-1", "j", SIGNAL, "B", "B")

    def vp(at: Table) -> dict[str, int]:
        return {p.player: p.vp for p in score_base(at, CAT, "base-1").ranking}

    assert (vp(table), vp(jammed)) == (without, with_signal)


def test_jammed_signal_cancels_cave_of_shinies_vp() -> None:
    """Cave of Shinies: "Whenever a minion here is destroyed, its owner scores 1 VP" — not
    while its ability is cancelled."""
    table = put(table_with("core/cave-of-shinies"), "a", REX, "A")
    gone, _ = rules.leave_play(table, CAT, "a")
    jammed = rules.attach_to_base(table, "base-1", "j", SIGNAL, "B", "B")
    gone_jammed, _ = rules.leave_play(jammed, CAT, "a")
    assert (gone.vp, gone_jammed.vp) == ((1, 0), (0, 0))


def test_a_potion_on_a_jammed_base_cancels_the_signal() -> None:
    """Potion of Paralysis cancels the cards at its base (not the base): the Jammed Signal
    there is one, so the base's own ability works again this turn."""
    table = put(table_with("core/the-central-brain"), "a", REX, "A")
    jammed = rules.attach_to_base(table, "base-1", "j", SIGNAL, "B", "B")
    assert powers(jammed, "a") == (7,)
    assert powers(resolve(jammed, CAT, CAT[POTION], 0, "A", "base-1"), "a") == (7 + 1,)


def test_last_call_cancels_an_on_play_vp() -> None:
    """Last Call: "play a minion onto it; that minion's ability is cancelled for the rest of
    the turn": Invader's "On play, gain 1 VP" does not happen."""
    table = resolve(table_with(), CAT, CAT["munchkin/last-call"], 0, "A", "base-1")
    assert put(table, "inv", "core/invader", "A").vp == (0, 0)
    assert put(table_with(), "inv", "core/invader", "A").vp == (1, 0)


def test_curse_of_imprisonment_cancels_a_vp_on_leaving() -> None:
    """Bushi's VP for going to the discard pile at power 5+ is one of its abilities: cursed,
    it gives none."""
    table = rules.add_counters(put(table_with(), "b", "oops/bushi", "A"), "b", 1)
    cursed = rules.attach_to_minion(table, "b", "c", CURSE, "B", "B")
    assert rules.leave_play(table, CAT, "b")[0].vp == (1, 0)
    assert rules.leave_play(cursed, CAT, "b")[0].vp == (0, 0)
