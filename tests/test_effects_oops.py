"""Every encoded ability of Oops, You Did It Again, one scenario per card."""

from __future__ import annotations

import pytest

from companion.rules.scoring import score_base
from companion.rules.table import Table
from tests.effects_oops_munchkin import (
    CASES,
    CATALOGUE,
    HIPPOGRIFF,
    OTHER_BASE,
    THREE,
    TWO,
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
    plain = one_turn(plain, "oops/mummy-strength", "A", effect=1, bearer="m")
    assert powers(plain, "m") == (5,)  # no card buried at its base: +2
    assert powers(bury(plain, "x", TWO, "B", zone="base-2"), "m") == (5,)  # not its base
    buried = bury(plain, "x", TWO, "B")  # anyone's buried card at its base
    assert powers(buried, "m") == (7,)  # +4 in all
    untouched(buried)
    assert powers(rules.end_turn(buried), "m") == (3,)


@case("oops/plague-of-locusts")
def _plague_of_locusts() -> None:
    """Card: "Pick a base; opponents' minions there get -1 power this turn". A monster is
    nobody's opponent, unless a player controls it: then it "acts as a normal minion of that
    player" (Smash Up: Munchkin rulebook, Monsters and Treasures)."""
    table = put(new_table(), "mine", THREE, "A")
    table = put(table, "theirs", THREE, "B")
    table = put(table, "monster", HIPPOGRIFF, None)
    table = put(table, "charmed", HIPPOGRIFF, None)
    table = rules.set_control(table, "charmed", "B")
    table = put(table, "far", THREE, "B", zone="base-2")
    table = one_turn(table, "oops/plague-of-locusts", "A", zone="base-1")
    assert powers(table, "mine", "theirs", "monster", "charmed", "far") == (3, 2, 3, 2, 3)
    assert base(table).breakpoint == 15 + 3  # the uncontrolled one is nobody's opponent
    assert powers(rules.move_minion(table, "theirs", "base-2"), "theirs") == (2,)  # it stays on
    assert powers(put(table, "late", THREE, "B"), "late") == (3,)  # arrived later: spared


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
    table = one_turn(table, "oops/huscarl", "A", tag="h")
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


@case("oops/bushi")
def _bushi() -> None:
    """Card: "If it leaves play to the discard pile while at power 5+, you score 1 VP":
    destroyed, or discarded with its scored base (Munchkin rulebook, Back to Your Corners)."""
    table = put(crowd(new_table()), "b", "oops/bushi", "A")
    weak, _ = rules.leave_play(table, CATALOGUE, "b")
    assert weak.vp == (0, 0)  # power 4
    strong = rules.add_counters(table, "b", 1)
    destroyed, _ = rules.leave_play(strong, CATALOGUE, "b")
    assert destroyed.vp == (1, 0)
    scored, _ = rules.award(rules.choose_to_score(_ready(strong), CATALOGUE, "base-1"), CATALOGUE)
    assert scored.vp[0] - _placing_vp(strong) == 1


def _ready(table: Table) -> Table:
    for n in range(4):
        table = put(table, f"filler{n}", THREE, "B")
    return table


def _placing_vp(table: Table) -> int:
    ranking = score_base(_ready(table), CATALOGUE, "base-1").ranking
    return sum(p.vp for p in ranking if p.player == "A")


@case("oops/viking-funeral")
def _viking_funeral() -> None:
    """Card: "when it goes to the discard pile gain 1 VP" (its minion)."""
    table = put(crowd(new_table()), "m", "munchkin/topper-chopper", "A")
    table = attach(table, "m", "vf", "oops/viking-funeral", "A")
    gone, _ = rules.leave_play(table, CATALOGUE, "m")
    assert gone.vp == (1, 0)
    other, _ = rules.leave_play(table, CATALOGUE, "by-a")  # another minion: nothing
    assert other.vp == (0, 0)
    scored, _ = rules.award(rules.choose_to_score(_ready(table), CATALOGUE, "base-1"), CATALOGUE)
    assert scored.vp[0] - _placing_vp(table) == 1


@case("oops/final-haiku")
def _final_haiku() -> None:
    """Card: "when it goes from play to the discard pile, all your minions get +2 power this
    turn" (resolved by the tracker when its minion leaves; bound to the minions then)."""
    table = put(crowd(new_table()), "m", THREE, "A")
    table = attach(table, "m", "fh", "oops/final-haiku", "A")
    table, _ = rules.leave_play(table, CATALOGUE, "m")
    table = one_turn(table, "oops/final-haiku", "A", zone="base-1")
    assert powers(table, "by-a", "by-b", "by-far") == (4, 2, 4)
    assert powers(rules.end_turn(table), "by-a") == (2,)


# --- Smash Up: Munchkin -------------------------------------------------------------------


# --- the tests ----------------------------------------------------------------------------

MINE = sorted(card_id for card_id in CASES if card_id.startswith("oops/"))


@pytest.mark.parametrize("card_id", MINE)
def test_encoded_card(card_id: str) -> None:
    assert CATALOGUE[card_id].effects, f"{card_id} has no effects to test"
    CASES[card_id]()


def test_every_encoded_card_of_the_set_has_a_scenario() -> None:
    """Power, breakpoint and VP effects here; counters, burying and duels (table effects)
    have their tracker scenarios in ``test_tracker_table_effects.py``."""
    encoded = {card.id for card in CATALOGUE if card.set == "oops" and computed(card)}
    assert encoded == set(MINE)
