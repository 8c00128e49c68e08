"""Every encoded ability of Smash Up: Munchkin, one scenario per card."""

from __future__ import annotations

import pytest

from companion.rules.scoring import score_base
from tests.effects_oops_munchkin import (
    BUCKLER,
    CASES,
    CATALOGUE,
    FIVE,
    GHOUL,
    HIPPOGRIFF,
    MISSILE,
    OTHER_BASE,
    PLAIN_BASE,
    THREE,
    TWO,
    WEB_TROLL,
    attach,
    base,
    bury,
    case,
    computed,
    crowd,
    new_table,
    one_turn,
    powers,
    put,
    rules,
    untouched,
)


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
    """Card: "Talent: opponents' minions on this base each get +1 power this turn". Rulebook
    (Munchkin, Void Where Prohibited): monsters are not opponents, but a controlled monster
    "acts as a normal minion of that player" (Monsters and Treasures)."""
    table = put(new_table(), "guru", "munchkin/elf-help-guru", "A")
    table = put(table, "mine", THREE, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = put(table, "charmed", WEB_TROLL, None)
    table = rules.set_control(table, "charmed", "B")
    table = put(table, "far", THREE, "B", zone="base-2")
    assert powers(table, "theirs") == (3,)
    table = one_turn(table, "munchkin/elf-help-guru", "A", tag="guru")
    assert powers(table, "guru", "mine", "theirs", "monster", "charmed", "far") == (
        2,
        3,
        4,
        3,
        1 + 1,
        3,
    )
    later = put(table, "late", THREE, "B")  # played after the Talent: nothing
    assert powers(later, "late") == (3,)


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
    table = one_turn(table, "munchkin/happy-zapper", "A", tag="z")
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
    """Card: "This turn: +2 power to each of your minions that shares a base with at least
    one monster": every base, read when it resolves."""
    table = put(new_table(), "monster", WEB_TROLL, None)
    table = put(table, "mine", THREE, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "far", THREE, "A", zone="base-2")
    table = put(table, "troll2", WEB_TROLL, None, zone="base-2")
    lone = put(new_table(), "x", THREE, "A")  # no monster anywhere: nothing
    assert powers(one_turn(lone, "munchkin/campaign", "A", zone="base-1"), "x") == (3,)
    table = one_turn(table, "munchkin/campaign", "A", zone="base-1")
    assert powers(table, "mine", "theirs", "far", "monster") == (5, 3, 5, 1)
    table = rules.move_minion(table, "far", "base-1")  # the boost goes with it
    later = put(table, "late", THREE, "A")
    assert powers(later, "far", "late") == (5, 3)


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


@case("munchkin/bastion")
def _bastion() -> None:
    """Card: every time you destroy a monster here you also draw 1 treasure."""
    table = put(new_table("munchkin/bastion", PLAIN_BASE), "m", HIPPOGRIFF, None)
    table = put(table, "far", HIPPOGRIFF, None, zone="base-2")
    table = put(table, "a", THREE, "A")
    _, here = rules.leave_play(table, CATALOGUE, "m")
    _, there = rules.leave_play(table, CATALOGUE, "far")
    _, minion = rules.leave_play(table, CATALOGUE, "a")
    assert (here.treasure_draws, there.treasure_draws, minion.treasure_draws) == (1 + 1, 1, 0)


@case("munchkin/potion-of-paralysis")
def _potion_of_paralysis() -> None:
    """Rulebook clarification: "This does not cancel the ability of the base, or of cards at
    other bases or in hands. It does cancel those of cards played to its base after it is
    played." Cancelled abilities are treated as if they do not exist (Terms: Cancel)."""
    table = put(new_table("core/the-central-brain", PLAIN_BASE), "lord", "munchkin/sword-lord", "A")
    table = put(table, "pal", TWO, "A")
    table = put(table, "far", "munchkin/sword-lord", "B", zone="base-2")
    table = put(table, "far-pal", TWO, "B", zone="base-2")
    table = rules.attach_to_base(table, "base-1", "fm", "monster-smash/full-moon", "A", "A")
    assert powers(table, "lord", "pal", "far-pal") == (5 + 1 + 1, 2 + 1 + 1 + 1, 3)
    table = one_turn(table, "munchkin/potion-of-paralysis", "B", zone="base-1")
    assert powers(table, "lord", "pal", "far-pal") == (5 + 1, 2 + 1, 3)  # the base's +1 stays
    table = put(table, "raptor", "core/war-raptor", "A")  # played there afterwards
    assert powers(table, "raptor") == (2 + 1,)
    assert powers(rules.end_turn(table), "lord", "pal", "raptor") == (7, 5, 2 + 1 + 1 + 1 + 1)


@case("munchkin/last-call")
def _last_call() -> None:
    """Card: "play a minion onto it; that minion's ability is cancelled for the rest of the
    turn": the next minion its controller plays there."""
    table = put(new_table(), "pal", TWO, "A")
    table = one_turn(table, "munchkin/last-call", "A", zone="base-1")
    table = put(table, "theirs", "munchkin/sword-lord", "B")  # another player's: not it
    table = put(table, "lord", "munchkin/sword-lord", "A")
    table = put(table, "pal2", TWO, "A")
    assert powers(table, "pal", "pal2", "theirs") == (2, 2, 5)
    assert powers(rules.end_turn(table), "pal", "pal2") == (3, 3)


@case("munchkin/rude-awakening")
def _rude_awakening() -> None:
    """Card: every minion dumped from the hand there has its abilities switched off for the
    turn: each minion its controller plays there this turn."""
    table = one_turn(
        put(new_table(), "pal", TWO, "A"), "munchkin/rude-awakening", "A", zone="base-1"
    )
    table = put(table, "lord", "munchkin/sword-lord", "A")
    table = put(table, "lord2", "munchkin/sword-lord", "A")
    table = put(table, "away", "munchkin/sword-lord", "A", zone="base-2")
    assert powers(table, "pal", "lord", "lord2") == (2 + 1, 5 + 1, 5 + 1)
    assert powers(rules.end_turn(table), "pal") == (2 + 3,)


# --- the tests ----------------------------------------------------------------------------

MINE = sorted(card_id for card_id in CASES if card_id.startswith("munchkin/"))


@pytest.mark.parametrize("card_id", MINE)
def test_encoded_card(card_id: str) -> None:
    assert CATALOGUE[card_id].effects, f"{card_id} has no effects to test"
    CASES[card_id]()


def test_every_encoded_card_of_the_set_has_a_scenario() -> None:
    encoded = {card.id for card in CATALOGUE if card.set == "munchkin" and computed(card)}
    assert encoded == set(MINE)
