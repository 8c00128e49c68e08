"""Every encoded ability of Oops, You Did It Again and Smash Up: Munchkin, one scenario per card.

Each scenario builds a small table with the real catalogue and checks the numbers the card's
text implies. ``CASES`` maps a card id to its scenario; the last test checks that every card of
the two sets with effects has one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from companion.cards import load_catalogue
from companion.rules import game as rules
from companion.rules.power import BaseView, evaluate
from companion.rules.scoring import score_base
from companion.table import Buried, Table, Temporary

CATALOGUE = load_catalogue()
SETS = ("oops", "munchkin")

# Plain cards (no effects) used as bystanders, with their printed power.
FIVE = "munchkin/topper-chopper"  # 5
THREE = "munchkin/hammer-slammer"  # 3
TWO = "munchkin/dork-orc"  # 2
PLAIN_BASE = "munchkin/treehouse"  # breakpoint 15, no effects
OTHER_BASE = "oops/pyramids"  # breakpoint 21, no effects
WEB_TROLL = "munchkin/web-troll"  # monster 1
HIPPOGRIFF = "munchkin/hippogriff"  # monster 3, 1 treasure
GHOUL = "munchkin/ghoul"  # undead monster 3
BUCKLER = "munchkin/buckler-of-swashing"  # treasure with no power effect
MISSILE = "munchkin/magic-missile"  # treasure with no power effect

Scenario = Callable[[], None]
CASES: dict[str, Scenario] = {}


def case(card_id: str) -> Callable[[Scenario], Scenario]:
    def register(fn: Scenario) -> Scenario:
        assert card_id not in CASES, card_id
        CASES[card_id] = fn
        return fn

    return register


def new_table(*bases: str, players: tuple[str, ...] = ("A", "B")) -> Table:
    table = Table(players=players)
    for n, card in enumerate(bases or (PLAIN_BASE, OTHER_BASE), start=1):
        table = rules.enter_base(table, f"base-{n}", card)
    return table


def put(table: Table, tag: str, card: str, player: str | None, zone: str = "base-1") -> Table:
    """A minion (``player`` None: an uncontrolled monster)."""
    return rules.play_minion(table, CATALOGUE, zone, tag, card, player, player)


def attach(table: Table, target: str, tag: str, card: str, player: str) -> Table:
    return rules.attach_to_minion(table, target, tag, card, player, None)


def one_turn(
    table: Table,
    card: str,
    player: str,
    *,
    effect: int = 0,
    bearer: str | None = None,
    zone: str | None = None,
) -> Table:
    """A card's one-turn effect, as the tracker keeps it (a target, or the tapped base)."""
    assert getattr(CATALOGUE[card].effects[effect], "duration", None) == "turn"
    temporary = Temporary(card, effect, player, table.turn, zone=zone, bearer=bearer)
    return rules.add_temporary(table, temporary)


def powers(table: Table, *tags: str) -> tuple[int | None, ...]:
    view = evaluate(table, CATALOGUE)
    return tuple(view.power_of(tag) for tag in tags)


def base(table: Table, zone: str = "base-1") -> BaseView:
    return evaluate(table, CATALOGUE).base(zone)


def bury(table: Table, tag: str, card: str, player: str, zone: str = "base-1") -> Table:
    at = table.base_at(zone)
    assert at is not None
    return table.with_base(replace(at, buried=(*at.buried, Buried(tag, card, player, player))))


BYSTANDERS = ("by-a", "by-b", "by-far")


def crowd(table: Table) -> Table:
    """Plain 2-power bystanders: A's and B's at base-1, A's at base-2."""
    table = put(table, "by-a", TWO, "A")
    table = put(table, "by-b", TWO, "B")
    return put(table, "by-far", TWO, "A", zone="base-2")


def untouched(table: Table) -> None:
    assert powers(table, *BYSTANDERS) == (2, 2, 2)


# --- Oops, You Did It Again ---------------------------------------------------------------


@case("oops/priest-of-anubis")
def _priest_of_anubis() -> None:
    table = put(new_table(), "p", "oops/priest-of-anubis", "A")
    assert powers(table, "p") == (4,)
    table = bury(table, "x1", TWO, "B")  # someone else's buried card
    table = bury(table, "x2", TWO, "A", zone="base-2")  # A's, but at another base
    assert powers(table, "p") == (4,)
    table = bury(table, "x3", TWO, "A")
    assert powers(table, "p") == (6,)
    assert base(table).power == {"A": 6}


@case("oops/ancient-curse")
def _ancient_curse() -> None:
    table = put(new_table(), "m", THREE, "A")
    table = put(table, "s", TWO, "A")
    table = rules.add_counters(table, "m", 1)
    table = attach(table, "m", "c1", "oops/ancient-curse", "B")
    table = attach(table, "s", "c2", "oops/ancient-curse", "B")
    assert powers(table, "m", "s") == (2, 0)  # 3 + 1 counter - 2; 2 - 2


@case("oops/blessing-of-anubis")
def _blessing_of_anubis() -> None:
    table = put(new_table(), "mine", THREE, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "far", THREE, "A", zone="base-2")
    table = one_turn(table, "oops/blessing-of-anubis", "A", zone="base-1")
    assert powers(table, "mine", "theirs", "far") == (5, 3, 3)
    assert powers(rules.end_turn(table), "mine") == (3,)


@case("oops/mummy-strength")
def _mummy_strength() -> None:
    table = put(crowd(new_table()), "m", THREE, "A")
    plain = one_turn(table, "oops/mummy-strength", "A", bearer="m")
    assert powers(plain, "m") == (5,)  # no card buried there: +2
    buried = one_turn(plain, "oops/mummy-strength", "A", effect=1, bearer="m")
    assert powers(buried, "m") == (7,)  # a card buried there: +4 in all
    untouched(buried)
    assert powers(rules.end_turn(buried), "m") == (3,)


@case("oops/plague-of-locusts")
def _plague_of_locusts() -> None:
    table = put(new_table(), "mine", THREE, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = put(table, "far", THREE, "B", zone="base-2")
    table = one_turn(table, "oops/plague-of-locusts", "A", zone="base-1")
    assert powers(table, "mine", "theirs", "monster", "far") == (3, 2, 3, 3)
    assert base(table).breakpoint == 15 + 3  # a monster is nobody's opponent


@case("oops/deputy")
def _deputy() -> None:
    table = put(crowd(new_table()), "d", "oops/deputy", "A")
    table = put(table, "m", THREE, "B")
    assert powers(table, "d", "m") == (2, 3)  # in play, Deputy boosts nobody
    table = one_turn(table, "oops/deputy", "A", bearer="m")
    assert powers(table, "d", "m") == (2, 5)
    untouched(table)


@case("oops/form-a-posse")
def _form_a_posse() -> None:
    table = put(new_table(), "a1", THREE, "A")
    table = put(table, "a2", TWO, "A", zone="base-2")
    table = put(table, "b1", THREE, "B")
    table = one_turn(table, "oops/form-a-posse", "A", zone="base-1")
    assert powers(table, "a1", "a2", "b1") == (4, 3, 3)


@case("oops/quick-draw")
def _quick_draw() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    plain = one_turn(table, "oops/quick-draw", "A", bearer="m")
    assert powers(plain, "m") == (4,)  # not in a duel: +2
    dueling = one_turn(plain, "oops/quick-draw", "A", effect=1, bearer="m")
    assert powers(dueling, "m") == (6,)  # in a duel: +4
    untouched(dueling)


@case("oops/run-em-off")
def _run_em_off() -> None:
    table = put(crowd(new_table()), "mine", THREE, "A")
    table = put(table, "winner", TWO, "B")
    table = one_turn(table, "oops/run-em-off", "A", bearer="winner")
    assert powers(table, "mine", "winner") == (3, 5)
    untouched(table)


@case("oops/way-of-the-warrior")
def _way_of_the_warrior() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    table = one_turn(table, "oops/way-of-the-warrior", "A", bearer="m")
    assert powers(table, "m") == (5,)
    untouched(table)


@case("oops/huscarl")
def _huscarl() -> None:
    table = put(crowd(new_table()), "h", "oops/huscarl", "A")
    assert powers(table, "h") == (2,)
    table = one_turn(table, "oops/huscarl", "A", bearer="h")
    assert powers(table, "h") == (4,)
    assert powers(rules.end_turn(table), "h") == (2,)
    untouched(table)


@case("oops/berserk")
def _berserk() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    table = one_turn(table, "oops/berserk", "A", bearer="m")
    assert powers(table, "m") == (6,)
    untouched(table)


@case("oops/combat-training")
def _combat_training() -> None:
    table = put(new_table(), "a1", THREE, "A")
    table = put(table, "a2", TWO, "A", zone="base-2")
    table = put(table, "b1", THREE, "B")
    table = one_turn(table, "oops/combat-training", "A", zone="base-2")
    assert powers(table, "a1", "a2", "b1") == (4, 3, 3)


@case("oops/longhouse")
def _longhouse() -> None:
    table = put(crowd(new_table("oops/longhouse", OTHER_BASE)), "m", THREE, "A")
    assert base(table).breakpoint == 25
    table = one_turn(table, "oops/longhouse", "A", bearer="m")
    assert powers(table, "m") == (5,)
    assert base(table).power == {"A": 5 + 2, "B": 2}
    untouched(table)


# --- Smash Up: Munchkin -------------------------------------------------------------------


@case("munchkin/curse-of-imprisonment")
def _curse_of_imprisonment() -> None:
    curse = "munchkin/curse-of-imprisonment"
    table = put(new_table(), "lord", "munchkin/sword-lord", "A")
    table = put(table, "pal", TWO, "A", zone="base-2")
    table = put(table, "foot", "munchkin/bigfoot", None, zone="base-2")
    table = put(table, "priest", "oops/priest-of-anubis", "B")
    table = bury(table, "x", TWO, "B")
    assert powers(table, "lord", "pal", "foot", "priest") == (5, 3, 7, 6)
    table = attach(table, "lord", "c1", curse, "B")
    table = attach(table, "foot", "c2", curse, "B")
    table = attach(table, "priest", "c3", curse, "A")
    assert powers(table, "lord", "pal", "foot", "priest") == (5, 2, 4, 4)
    assert base(table, "base-2").breakpoint == 21 + 4
    table = attach(table, "lord", "c4", curse, "B")  # a second curse cancels nothing more
    assert powers(table, "lord", "pal") == (5, 2)
    table, _ = rules.leave_play(table, CATALOGUE, "c1")
    assert powers(table, "pal") == (2,)  # c4 still holds
    table, _ = rules.leave_play(table, CATALOGUE, "c4")
    assert powers(table, "pal") == (3,)


@case("munchkin/curse-of-uselessness")
def _curse_of_uselessness() -> None:
    table = put(new_table(), "m", FIVE, "A")
    table = put(table, "b", TWO, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = attach(table, "m", "c1", "munchkin/curse-of-uselessness", "B")
    table = attach(table, "monster", "c2", "munchkin/curse-of-uselessness", "B")
    view = base(table)
    assert view.minion_power["m"] == 5
    assert (view.power, view.total, view.breakpoint) == ({"A": 0, "B": 2}, 2, 15)
    with_pal = base(put(table, "pal", TWO, "A"))  # A's other minion there still counts
    assert (with_pal.power, with_pal.breakpoint) == ({"A": 2, "B": 2}, 15)
    ranking = {p.player: (p.place, p.vp) for p in score_base(table, CATALOGUE, "base-1").ranking}
    assert ranking == {"B": (1, 4), "A": (2, 2)}  # A still places with 0 power


@case("munchkin/good-habits")
def _good_habits() -> None:
    table = put(new_table(), "a", THREE, "A")
    table = put(table, "b", TWO, "B", zone="base-2")
    table = put(table, "monster", HIPPOGRIFF, None, zone="base-2")
    table = one_turn(table, "munchkin/good-habits", "A", zone="base-1")
    assert powers(table, "a", "b", "monster") == (4, 3, 4)
    assert base(table, "base-2").breakpoint == 21 + 4


@case("munchkin/join-the-club")
def _join_the_club() -> None:
    table = put(new_table(), "a", THREE, "A")
    table = put(table, "b", TWO, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = put(table, "far", TWO, "A", zone="base-2")
    table = one_turn(table, "munchkin/join-the-club", "A", zone="base-1")
    assert powers(table, "a", "b", "monster", "far") == (4, 3, 4, 2)
    assert base(table).breakpoint == 15 + 4


@case("munchkin/loot-lover")
def _loot_lover() -> None:
    table = put(new_table(), "l", "munchkin/loot-lover", "A")
    assert powers(table, "l") == (4,)
    table = attach(table, "l", "t1", BUCKLER, "A")
    assert powers(table, "l") == (6,)
    table = attach(table, "l", "t2", "munchkin/chainsaw-of-bloody-dismemberment", "A")
    assert powers(table, "l") == (4 + 2 * 2 + 2,)
    table = attach(table, "l", "a", "munchkin/dumbbells", "A")  # not a treasure
    assert powers(table, "l") == (4 + 2 * 2 + 2 + 3,)


@case("munchkin/gem-grabber")
def _gem_grabber() -> None:
    table = put(new_table(), "g", "munchkin/gem-grabber", "A")
    table = put(table, "h", "munchkin/gem-grabber", "A")
    table = attach(table, "h", "a", "munchkin/dumbbells", "A")  # not a treasure
    assert powers(table, "g", "h") == (2, 5)
    table = attach(table, "g", "t1", BUCKLER, "A")
    assert powers(table, "g") == (4,)
    table = attach(table, "g", "t2", MISSILE, "A")
    assert powers(table, "g") == (4,)  # +2 while it has any treasure, not per treasure


@case("munchkin/elf-help-guru")
def _elf_help_guru() -> None:
    table = put(new_table(), "guru", "munchkin/elf-help-guru", "A")
    table = put(table, "mine", THREE, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = put(table, "far", THREE, "B", zone="base-2")
    assert powers(table, "theirs") == (3,)
    table = one_turn(table, "munchkin/elf-help-guru", "A", bearer="guru")
    assert powers(table, "guru", "mine", "theirs", "monster", "far") == (2, 3, 4, 3, 3)


@case("munchkin/helping-hands")
def _helping_hands() -> None:
    table = put(crowd(new_table()), "big", FIVE, "A")
    table = put(table, "small", TWO, "A")
    table = one_turn(table, "munchkin/helping-hands", "A", bearer="big")
    table = one_turn(table, "munchkin/helping-hands", "A", bearer="small")
    assert powers(table, "big", "small") == (3, 0)
    untouched(table)


@case("munchkin/pumping-iron")
def _pumping_iron() -> None:
    table = put(crowd(new_table()), "mine", TWO, "A")
    table = put(table, "theirs", TWO, "B")
    table = one_turn(table, "munchkin/pumping-iron", "A", effect=0, bearer="mine")
    table = one_turn(table, "munchkin/pumping-iron", "A", effect=1, bearer="theirs")
    assert powers(table, "mine", "theirs") == (5, 4)
    untouched(table)


@case("munchkin/happy-zapper")
def _happy_zapper() -> None:
    table = put(crowd(new_table()), "z", "munchkin/happy-zapper", "A")
    assert powers(table, "z") == (3,)
    table = one_turn(table, "munchkin/happy-zapper", "A", bearer="z")
    assert powers(table, "z") == (5,)
    untouched(table)


@case("munchkin/sword-lord")
def _sword_lord() -> None:
    table = put(new_table(), "lord", "munchkin/sword-lord", "A")
    table = put(table, "here", TWO, "A")
    table = put(table, "far", TWO, "A", zone="base-2")
    table = put(table, "theirs", TWO, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    assert powers(table, "lord", "here", "far", "theirs", "monster") == (5, 3, 3, 2, 3)


@case("munchkin/potion-bandolier")
def _potion_bandolier() -> None:
    table = put(crowd(new_table()), "m", TWO, "B")
    table = one_turn(table, "munchkin/potion-bandolier", "A", bearer="m")
    assert powers(table, "m") == (5,)
    untouched(table)


@case("munchkin/secret-stash")
def _secret_stash() -> None:
    table = put(new_table(), "monster", HIPPOGRIFF, None)
    table = put(table, "a", FIVE, "A")
    assert score_base(table, CATALOGUE, "base-1").treasure_count == 1
    table = rules.attach_to_base(table, "base-1", "s", "munchkin/secret-stash", "A", "A")
    table = rules.attach_to_base(table, "base-2", "s2", "munchkin/secret-stash", "A", "A")
    result = score_base(table, CATALOGUE, "base-1")
    assert (result.treasure_count, result.treasure_order) == (3, ("A", "A", "A"))


@case("munchkin/campaign")
def _campaign() -> None:
    table = put(new_table(), "monster", WEB_TROLL, None)
    table = put(table, "mine", THREE, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "far", THREE, "A", zone="base-2")
    table = one_turn(table, "munchkin/campaign", "A", zone="base-1")
    assert powers(table, "mine", "theirs", "far", "monster") == (5, 3, 3, 1)


@case("munchkin/dumbbells")
def _dumbbells() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    table = attach(table, "m", "d", "munchkin/dumbbells", "A")
    assert powers(table, "m") == (5,)
    untouched(table)


@case("munchkin/shield-of-ubiquity")
def _shield_of_ubiquity() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    table = attach(table, "m", "s", "munchkin/shield-of-ubiquity", "A")
    table = put(table, "far", HIPPOGRIFF, None, zone="base-2")
    assert powers(table, "m") == (2,)
    table = put(table, "m1", WEB_TROLL, None)
    table = put(table, "m2", GHOUL, None)
    assert powers(table, "m") == (2 + 2 * 2,)
    untouched(table)


@case("munchkin/bigfoot")
def _bigfoot() -> None:
    table = put(new_table(), "foot", "munchkin/bigfoot", None)
    table = put(table, "a", THREE, "A")  # not a monster: Bigfoot is still the only one
    assert powers(table, "foot", "a") == (7, 3)
    assert base(table).breakpoint == 15 + 7
    table = put(table, "troll", WEB_TROLL, None)
    assert powers(table, "foot") == (4,)
    assert base(table).breakpoint == 15 + 4 + 1


@case("munchkin/knight-of-the-living-dead")
def _knight_of_the_living_dead() -> None:
    table = put(new_table(), "k", "munchkin/knight-of-the-living-dead", None)
    table = put(table, "a", THREE, "A")
    assert powers(table, "k") == (5,)
    table = put(table, "troll", WEB_TROLL, None)
    table = put(table, "ghoul", GHOUL, None)
    table = put(table, "far", HIPPOGRIFF, None, zone="base-2")
    assert powers(table, "k") == (7,)
    assert base(table).breakpoint == 15 + 7 + 1 + 3


@case("munchkin/poultrygeist")
def _poultrygeist() -> None:
    table = put(new_table(), "p", "munchkin/poultrygeist", None)
    table = put(table, "griff", HIPPOGRIFF, None)  # not undead
    assert powers(table, "p") == (2,)
    table = put(table, "ghoul", GHOUL, None)
    assert powers(table, "p") == (3,)
    table = put(table, "p2", "munchkin/poultrygeist", None)
    assert powers(table, "p", "p2") == (4, 4)
    assert base(table).breakpoint == 15 + 3 + 3 + 4 + 4


@case("munchkin/boots-of-butt-kicking")
def _boots_of_butt_kicking() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    table = attach(table, "m", "t", "munchkin/boots-of-butt-kicking", "A")
    assert powers(table, "m") == (3,)
    untouched(table)


@case("munchkin/chainsaw-of-bloody-dismemberment")
def _chainsaw() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    table = attach(table, "m", "t", "munchkin/chainsaw-of-bloody-dismemberment", "A")
    assert powers(table, "m") == (4,)
    untouched(table)


@case("munchkin/chest-of-holding")
def _chest_of_holding() -> None:
    table = put(crowd(new_table()), "m", TWO, "A")
    table = attach(table, "m", "chest", "munchkin/chest-of-holding", "A")
    assert powers(table, "m") == (3,)  # the Chest is a treasure on it
    table = attach(table, "m", "t", BUCKLER, "A")
    table = attach(table, "m", "a", "munchkin/dumbbells", "A")  # not a treasure
    assert powers(table, "m") == (2 + 2 + 3,)
    untouched(table)


@case("munchkin/kneepads-of-allure")
def _kneepads_of_allure() -> None:
    table = put(new_table(), "m", TWO, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = put(table, "far", TWO, "A", zone="base-2")
    table = attach(table, "m", "k", "munchkin/kneepads-of-allure", "A")
    assert powers(table, "m", "theirs", "monster", "far") == (3, 4, 4, 2)
    assert base(table).breakpoint == 15 + 4


@case("munchkin/helpers-hollow")
def _helpers_hollow() -> None:
    table = put(new_table("munchkin/helpers-hollow", OTHER_BASE), "a", THREE, "A")
    table = put(table, "b", THREE, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = put(table, "far", THREE, "B", zone="base-2")
    assert powers(table, "a", "b", "monster", "far") == (3, 4, 4, 3)  # A's turn
    assert base(table).breakpoint == 17 + 4
    table = rules.end_turn(table)
    assert powers(table, "a", "b", "monster") == (4, 3, 4)  # B's turn


@case("munchkin/garrison")
def _garrison() -> None:
    def vp(total_c: int) -> dict[str, int]:
        table = new_table("munchkin/garrison", players=("A", "B", "C"))
        for n, card in enumerate((FIVE, FIVE, TWO)):
            table = put(table, f"a{n}", card, "A")  # 12
        for n in range(2):
            table = put(table, f"b{n}", THREE, "B")  # 6
        for n in range(total_c // 2):
            table = put(table, f"c{n}", TWO, "C")
        return {p.player: p.vp for p in score_base(table, CATALOGUE, "base-1").ranking}

    assert vp(4) == {"A": 3 + 1, "B": 2 + 1, "C": 1 + 1}  # 12 + 6 + 4 = 22
    assert vp(2) == {"A": 3, "B": 2, "C": 1}  # 20: no bonus


# --- the tests ----------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", sorted(CASES))
def test_encoded_card(card_id: str) -> None:
    assert CATALOGUE[card_id].effects, f"{card_id} has no effects to test"
    CASES[card_id]()


def test_every_encoded_card_of_the_two_sets_has_a_scenario() -> None:
    encoded = {card.id for card in CATALOGUE if card.set in SETS and card.effects}
    assert encoded == set(CASES)
