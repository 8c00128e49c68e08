"""Every encoded card of the core set and Monster Smash, on small tables with the real catalogue.

One case per card that carries ``effects``: each builds a table, applies the card the way the
tracker does (in play, attached, or as a one-turn temporary) and checks the numbers its text
implies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.catalogue.effects import HookEffect
from companion.rules import game as rules
from companion.rules.power import evaluate
from companion.rules.scoring import score_base
from companion.rules.table import Table, Temporary
from tests.effects_oops_munchkin import computed

CAT: Catalogue = load_catalogue()
SETS = ("core", "monster-smash")

PLAIN_BASE = "core/jungle-oasis"  # no ability, breakpoint 12, VP 2/0/0
REX = "core/king-rex"  # 7, no ability
MASTER = "core/ninja-master"  # 5
TIGER = "core/tiger-assassin"  # 4
SHINOBI = "core/shinobi"  # 3
WALKER = "core/walker"  # 2
GUARD = "core/microbot-guard"  # 1, a microbot

Case = Callable[[], None]
CASES: dict[str, Case] = {}


def case(card_id: str) -> Callable[[Case], Case]:
    def register(fn: Case) -> Case:
        assert card_id not in CASES, card_id
        CASES[card_id] = fn
        return fn

    return register


def table_with(*bases: str) -> Table:
    """Players A and B; base-1 holds the first card, and so on; plain bases fill up to two."""
    table = Table(players=("A", "B"))
    cards = (*bases, PLAIN_BASE, PLAIN_BASE)[: max(2, len(bases))]
    for n, card in enumerate(cards, start=1):
        table = rules.enter_base(table, f"base-{n}", card)
    return table


def put(
    table: Table,
    tag: str,
    card: str,
    player: str,
    zone: str = "base-1",
    owner: str | None = None,
) -> Table:
    return rules.play_minion(table, CAT, zone, tag, card, owner or player, player)


def powers(table: Table, *tags: str) -> tuple[int | None, ...]:
    view = evaluate(table, CAT)
    return tuple(view.power_of(tag) for tag in tags)


def one_turn(table: Table, card: str, player: str, *, bearer: str | None = None) -> Table:
    """A one-turn effect as the tracker keeps it: with a chosen minion, or at base-1."""
    zone = None if bearer is not None else "base-1"
    temporary = Temporary(card, 0, player, table.turn, zone=zone, bearer=bearer)
    return rules.add_temporary(table, temporary)


def vp_at(table: Table, zone: str) -> dict[str, int]:
    return {p.player: p.vp for p in score_base(table, CAT, zone).ranking}


# ---------------------------------------------------------------- core set


@case("core/invader")
def _invader() -> None:
    table = put(table_with(), "i", "core/invader", "A")
    assert table.vp == (1, 0)
    table = put(table, "i2", "core/invader", "B", "base-2")
    assert table.vp == (1, 1)


@case("core/armor-stego")
def _armor_stego() -> None:
    table = put(table_with(), "s", "core/armor-stego", "A")
    assert powers(table, "s") == (3,)  # A's own turn
    table = rules.end_turn(table)
    assert powers(table, "s") == (5,)  # B's turn
    table = rules.end_turn(table)
    assert powers(table, "s") == (3,)


@case("core/war-raptor")
def _war_raptor() -> None:
    table = put(table_with(), "r1", "core/war-raptor", "A")
    assert powers(table, "r1") == (3,)
    table = put(table, "r2", "core/war-raptor", "A")
    table = put(table, "far", "core/war-raptor", "A", "base-2")
    table = put(table, "w", WALKER, "A")
    assert powers(table, "r1", "r2", "far", "w") == (4, 4, 3, 2)


@case("core/augmentation")
def _augmentation() -> None:
    table = put(put(table_with(), "t", TIGER, "A"), "o", SHINOBI, "B")
    table = one_turn(table, "core/augmentation", "A", bearer="t")
    assert powers(table, "t", "o") == (8, 3)
    assert powers(rules.end_turn(table), "t") == (4,)


@case("core/howl")
def _howl() -> None:
    table = put(put(table_with(), "a1", TIGER, "A"), "b1", SHINOBI, "B")
    table = put(table, "a2", WALKER, "A", "base-2")
    table = one_turn(table, "core/howl", "A")
    assert powers(table, "a1", "a2", "b1") == (5, 3, 3)
    assert powers(rules.end_turn(table), "a1", "a2") == (4, 2)


@case("core/upgrade")
def _upgrade() -> None:
    table = put(put(table_with(), "t", TIGER, "A"), "o", SHINOBI, "B")
    table = rules.attach_to_minion(table, "t", "u", "core/upgrade", "A", "A")
    assert powers(table, "t", "o") == (6, 3)
    table = rules.move_minion(table, "t", "base-2")
    assert evaluate(table, CAT).base("base-2").power == {"A": 6}


@case("core/poison")
def _poison() -> None:
    table = put(put(table_with(), "m", MASTER, "A"), "s", SHINOBI, "A")
    table = rules.attach_to_minion(table, "m", "p1", "core/poison", "B", "B")
    table = rules.attach_to_minion(table, "s", "p2", "core/poison", "B", "B")
    assert powers(table, "m", "s") == (1, 0)  # 5-4, and 3-4 floored at 0
    assert evaluate(table, CAT).base("base-1").power == {"A": 1}


@case("core/swashbuckling")
def _swashbuckling() -> None:
    table = put(put(table_with(), "a1", MASTER, "A"), "b1", TIGER, "B")
    table = put(table, "a2", GUARD, "A", "base-2")
    table = one_turn(table, "core/swashbuckling", "A")
    assert powers(table, "a1", "a2", "b1") == (6, 2, 4)
    assert powers(rules.end_turn(table), "a1", "a2") == (5, 1)


@case("core/microbot-alpha")
def _microbot_alpha() -> None:
    table = put(table_with(), "alpha", "core/microbot-alpha", "A")
    assert powers(table, "alpha") == (1,)
    table = put(table, "rex", REX, "A", "base-2")  # every minion of A's is a microbot
    table = put(table, "g", GUARD, "A")
    table = put(table, "theirs", GUARD, "B")
    assert powers(table, "alpha", "rex", "g", "theirs") == (3, 7, 1, 1)


@case("core/microbot-fixer")
def _microbot_fixer() -> None:
    table = put(table_with(), "fix", "core/microbot-fixer", "A")
    table = put(table, "g", GUARD, "A", "base-2")
    table = put(table, "rex", REX, "A")
    table = put(table, "theirs", GUARD, "B")
    # only microbots (itself included), only A's
    assert powers(table, "fix", "g", "rex", "theirs") == (2, 2, 7, 1)
    table = put(table, "fix2", "core/microbot-fixer", "A", "base-2")
    assert powers(table, "fix", "fix2", "g", "rex") == (3, 3, 3, 7)
    # with A's Microbot Alpha in play, all of A's minions are microbots
    table = put(table, "alpha", "core/microbot-alpha", "A")
    assert powers(table, "fix", "g", "rex", "theirs") == (3, 3, 9, 1)
    assert powers(table, "alpha") == (1 + 4 + 2,)  # four other microbots, two fixers
    # B's Alpha does not make A's minions microbots
    other = put(table_with(), "fix", "core/microbot-fixer", "A")
    other = put(other, "rex", REX, "A")
    other = put(other, "alpha", "core/microbot-alpha", "B")
    assert powers(other, "fix", "rex", "alpha") == (2, 7, 1)


@case("core/jammed-signal")
def _jammed_signal() -> None:
    table = table_with("core/the-central-brain", "core/the-central-brain")
    table = put(put(table, "a", TIGER, "A"), "b", SHINOBI, "B")
    table = put(table, "far", WALKER, "A", "base-2")
    assert powers(table, "a", "b", "far") == (5, 4, 3)
    table = rules.attach_to_base(table, "base-1", "j1", "core/jammed-signal", "B", "B")
    assert powers(table, "a", "b", "far") == (4, 3, 3)
    table = rules.attach_to_base(table, "base-1", "j2", "core/jammed-signal", "A", "A")
    assert powers(table, "a", "b") == (4, 3)  # a second signal takes nothing more
    # on a base without a power ability it changes nothing
    plain = rules.attach_to_base(
        put(table_with(), "a", TIGER, "A"), "base-1", "j", "core/jammed-signal", "B", "B"
    )
    assert powers(plain, "a") == (4,)


@case("core/factory-436-1337")
def _factory() -> None:
    table = table_with("core/factory-436-1337")
    table = put(put(table, "a1", REX, "A"), "a2", MASTER, "A")  # 12 power: two full fives
    table = put(table, "b1", TIGER, "B")
    assert vp_at(table, "base-1") == {"A": 2 + 2, "B": 2}
    table = put(table, "a3", SHINOBI, "A")  # 15: three full fives
    assert vp_at(table, "base-1") == {"A": 2 + 3, "B": 2}


@case("core/the-central-brain")
def _central_brain() -> None:
    table = table_with("core/the-central-brain")
    table = put(put(table, "a", TIGER, "A"), "b", SHINOBI, "B")
    table = put(table, "far", WALKER, "A", "base-2")
    assert powers(table, "a", "b", "far") == (5, 4, 2)
    assert evaluate(table, CAT).base("base-1").total == 9


@case("core/cave-of-shinies")
def _cave_of_shinies() -> None:
    table = table_with("core/cave-of-shinies")
    table = put(table, "a", TIGER, "A")
    table = put(table, "stolen", SHINOBI, "A", owner="B")  # owned by B, controlled by A
    table = put(table, "far", WALKER, "A", "base-2")
    table, _ = rules.leave_play(table, CAT, "a")
    assert table.vp == (1, 0)
    table, _ = rules.leave_play(table, CAT, "stolen")
    assert table.vp == (1, 1)
    table, _ = rules.leave_play(table, CAT, "far")
    assert table.vp == (1, 1)


@case("core/rhodes-plaza-mall")
def _rhodes_plaza_mall() -> None:
    table = table_with("core/rhodes-plaza-mall")
    table = put(put(table, "a1", REX, "A"), "a2", GUARD, "A")
    table = put(put(table, "b1", GUARD, "B"), "b2", GUARD, "B")
    table = put(table, "b3", WALKER, "B")
    assert vp_at(table, "base-1") == {"A": 2, "B": 3}


# ---------------------------------------------------------------- Monster Smash

PACK_ALPHA = "monster-smash/pack-alpha"  # 5
LOUP_GAROU = "monster-smash/loup-garou"  # 4
TEENAGE_WOLF = "monster-smash/teenage-wolf"  # 3
HOWLER = "monster-smash/howler"  # 2


@case("monster-smash/pack-alpha")
def _pack_alpha() -> None:
    table = put(table_with(), "alpha", PACK_ALPHA, "A")
    table = put(put(table, "a", WALKER, "A"), "b", WALKER, "B")
    table = put(table, "far", WALKER, "A", "base-2")
    table = one_turn(table, PACK_ALPHA, "A", bearer="alpha")
    assert powers(table, "alpha", "a", "b", "far") == (6, 3, 2, 2)
    assert powers(rules.end_turn(table), "alpha", "a") == (5, 2)


@case("monster-smash/loup-garou")
def _loup_garou() -> None:
    table = put(put(table_with(), "lg", LOUP_GAROU, "A"), "a", WALKER, "A")
    table = one_turn(table, LOUP_GAROU, "A", bearer="lg")
    assert powers(table, "lg", "a") == (6, 2)
    assert powers(rules.end_turn(table), "lg") == (4,)


@case("monster-smash/teenage-wolf")
def _teenage_wolf() -> None:
    table = put(put(table_with(), "tw", TEENAGE_WOLF, "A"), "a", WALKER, "A")
    table = one_turn(table, TEENAGE_WOLF, "A", bearer="tw")
    assert powers(table, "tw", "a") == (4, 2)
    assert powers(rules.end_turn(table), "tw") == (3,)


@case("monster-smash/howler")
def _howler() -> None:
    table = put(put(table_with(), "h", HOWLER, "A"), "a", WALKER, "A")
    table = one_turn(table, HOWLER, "A", bearer="h")
    assert powers(table, "h", "a") == (4, 2)
    assert powers(rules.end_turn(table), "h") == (2,)


@case("monster-smash/frenzy")
def _frenzy() -> None:
    table = put(put(table_with(), "big", PACK_ALPHA, "A"), "four", LOUP_GAROU, "A")
    table = put(table, "small", TEENAGE_WOLF, "A", "base-2")
    table = rules.add_counters(table, "small", 1)  # current power 4, printed 3: not counted
    table = put(table, "theirs", MASTER, "B")
    table = one_turn(table, "monster-smash/frenzy", "A")
    assert powers(table, "big", "four", "small", "theirs") == (6, 5, 4, 5)
    assert powers(rules.end_turn(table), "big", "four") == (5, 4)


@case("monster-smash/full-moon")
def _full_moon() -> None:
    table = put(put(table_with(), "a", TEENAGE_WOLF, "A"), "b", WALKER, "B")
    table = put(table, "far", HOWLER, "A", "base-2")
    table = rules.attach_to_base(table, "base-1", "fm", "monster-smash/full-moon", "A", "A")
    assert powers(table, "a", "b", "far") == (4, 2, 2)
    table = put(table, "a2", HOWLER, "A")
    assert powers(table, "a2") == (3,)


@case("monster-smash/marking-territory")
def _marking_territory() -> None:
    table = put(put(table_with(), "a", PACK_ALPHA, "A"), "b", WALKER, "B")
    table = rules.attach_to_base(table, "base-1", "mt", "monster-smash/marking-territory", "A", "A")
    assert evaluate(table, CAT).base("base-1").breakpoint == 12  # not switched on
    table = replace(table, declared=frozenset({("mt", 0)}))
    view = evaluate(table, CAT).base("base-1")
    assert (view.breakpoint, view.ready) == (0, True)
    assert evaluate(table, CAT).base("base-2").breakpoint == 12
    assert evaluate(rules.end_turn(table), CAT).base("base-1").breakpoint == 12  # B's turn


@case("monster-smash/moot-site")
def _moot_site() -> None:
    table = table_with("monster-smash/moot-site")
    table = put(put(table, "first", HOWLER, "A"), "second", WALKER, "A")
    table = one_turn(table, "monster-smash/moot-site", "A", bearer="first")
    assert powers(table, "first", "second") == (4, 2)
    assert powers(rules.end_turn(table), "first") == (2,)


# ---------------------------------------------------------------- the table itself


def encoded_cards() -> list[str]:
    """Cards with power, breakpoint or VP effects (table effects have tracker scenarios)."""
    return sorted(card.id for card in CAT if card.set in SETS and computed(card))


@pytest.mark.parametrize("card_id", sorted(CASES))
def test_encoded_card(card_id: str) -> None:
    assert CAT[card_id].effects, f"{card_id} has a case but no effects"
    CASES[card_id]()


def test_every_encoded_card_has_a_case() -> None:
    assert [card for card in encoded_cards() if card not in CASES] == []
    assert len(encoded_cards()) == len(CASES)


def test_only_core_set_hooks_are_used() -> None:
    hooks = {
        effect.name
        for card in CAT
        if card.set in SETS
        for effect in card.effects
        if isinstance(effect, HookEffect)
    }
    assert hooks == {"core-sets/jammed-signal"}
