"""Every encoded ability of Oops, You Did It Again, one scenario per card."""

from __future__ import annotations

import pytest

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
