"""The effect vocabulary, one behaviour per test, on a small synthetic set."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue, build_catalogue
from companion.errors import CatalogueError
from companion.rules import game as rules
from companion.rules.power import evaluate
from companion.rules.scoring import score_base
from companion.rules.table import Table, Temporary
from tests.conftest import mini_catalogue


def minion(name: str, power: int, *effects: dict[str, Any], faction: str = "a") -> dict[str, Any]:
    return {
        "id": f"t/{name}",
        "name": name,
        "type": "minion",
        "faction": f"t/{faction}",
        "copies": 1,
        "power": power,
        "text": None,
        "effects": list(effects),
    }


def action(name: str, play: str, *effects: dict[str, Any], faction: str = "a") -> dict[str, Any]:
    return {
        "id": f"t/{name}",
        "name": name,
        "type": "action",
        "faction": f"t/{faction}",
        "copies": 1,
        "play": play,
        "text": None,
        "effects": list(effects),
    }


def base(
    name: str, breakpoint: int, *effects: dict[str, Any], vp: list[int] | None = None
) -> dict[str, Any]:
    return {
        "id": f"t/{name}",
        "name": name,
        "type": "base",
        "faction": None,
        "copies": 1,
        "breakpoint": breakpoint,
        "vp": vp or [4, 2, 1],
        "text": None,
        "effects": list(effects),
    }


MONSTER = {
    "id": "t/ogre",
    "name": "ogre",
    "type": "monster",
    "faction": None,
    "copies": 1,
    "power": 4,
    "treasures": 2,
    "undead": False,
    "text": None,
}


def setup(cards: list[dict[str, Any]]) -> tuple[Catalogue, Table]:
    catalogue = mini_catalogue([*cards, base("plain", 10), MONSTER], ["a", "b"])
    table = Table(players=("A", "B"))
    table = rules.enter_base(table, "base-1", "t/plain")
    table = rules.enter_base(table, "base-2", "t/plain")
    return catalogue, table


def put(
    table: Table,
    catalogue: Catalogue,
    tag: str,
    card: str,
    player: str | None,
    zone: str = "base-1",
) -> Table:
    return rules.play_minion(table, catalogue, zone, tag, card, player, player)


def power(table: Table, catalogue: Catalogue, tag: str) -> int | None:
    return evaluate(table, catalogue).power_of(tag)


def test_self_power_per_matching_minion_here() -> None:
    raptor = minion(
        "raptor",
        2,
        {
            "kind": "power",
            "scope": "self",
            "amount": 1,
            "per": {"scope": "here", "filter": {"cards": ["t/raptor"]}},
        },
    )
    catalogue, table = setup([raptor])
    table = put(table, catalogue, "r1", "t/raptor", "A")
    assert power(table, catalogue, "r1") == 3
    table = put(table, catalogue, "r2", "t/raptor", "B")
    assert power(table, catalogue, "r1") == power(table, catalogue, "r2") == 4


def test_bearer_power_and_moving_with_attachment() -> None:
    catalogue, table = setup(
        [
            minion("grunt", 3),
            action("upgrade", "minion", {"kind": "power", "scope": "bearer", "amount": 2}),
        ]
    )
    table = put(table, catalogue, "g", "t/grunt", "A")
    table = rules.attach_to_minion(table, "g", "u", "t/upgrade", "A", "A")
    assert power(table, catalogue, "g") == 5
    table = rules.move_minion(table, "g", "base-2")
    assert evaluate(table, catalogue).base("base-2").power == {"A": 5}


@pytest.mark.parametrize(
    ("scope", "expected"),
    [
        ("here", {"s": 2, "m": 2, "o": 2, "far": 1}),
        ("other-here", {"s": 1, "m": 2, "o": 2, "far": 1}),
        ("mine-here", {"s": 2, "m": 2, "o": 1, "far": 1}),
        ("other-mine-here", {"s": 1, "m": 2, "o": 1, "far": 1}),
        ("others-here", {"s": 1, "m": 1, "o": 2, "far": 1}),
        ("mine", {"s": 2, "m": 2, "o": 1, "far": 2}),
        ("other-mine", {"s": 1, "m": 2, "o": 1, "far": 2}),
        ("all", {"s": 2, "m": 2, "o": 2, "far": 2}),
    ],
)
def test_scopes(scope: str, expected: dict[str, int]) -> None:
    source = minion("leader", 1, {"kind": "power", "scope": scope, "amount": 1})
    catalogue, table = setup([source, minion("pawn", 1)])
    table = put(table, catalogue, "s", "t/leader", "A")
    table = put(table, catalogue, "m", "t/pawn", "A")
    table = put(table, catalogue, "o", "t/pawn", "B")
    table = put(table, catalogue, "far", "t/pawn", "A", "base-2")
    assert {tag: power(table, catalogue, tag) for tag in expected} == expected


def test_filters_on_printed_power_and_counters() -> None:
    source = minion(
        "coach",
        5,
        {
            "kind": "power",
            "scope": "other-here",
            "amount": 2,
            "filter": {"max-printed-power": 2, "has-counters": True},
        },
    )
    catalogue, table = setup([source, minion("small", 2), minion("big", 4)])
    table = put(table, catalogue, "c", "t/coach", "A")
    table = put(table, catalogue, "s", "t/small", "A")
    table = put(table, catalogue, "b", "t/big", "A")
    table = rules.add_counters(table, "b", 1)
    assert power(table, catalogue, "s") == 2  # no counters yet
    table = rules.add_counters(table, "s", 1)
    assert (power(table, catalogue, "s"), power(table, catalogue, "b")) == (5, 5)


def test_condition_on_whose_turn() -> None:
    stego = minion(
        "stego", 3, {"kind": "power", "scope": "self", "amount": 2, "when": {"turn": "other"}}
    )
    catalogue, table = setup([stego])
    table = put(table, catalogue, "s", "t/stego", "A")
    assert power(table, catalogue, "s") == 3
    table = rules.end_turn(table)
    assert power(table, catalogue, "s") == 5


def test_condition_on_a_count() -> None:
    loner = minion(
        "loner",
        4,
        {
            "kind": "power",
            "scope": "self",
            "amount": 3,
            "when": {"count": {"scope": "here"}, "at-most": 1},
        },
    )
    catalogue, table = setup([loner, minion("pawn", 1)])
    table = put(table, catalogue, "l", "t/loner", "A")
    assert power(table, catalogue, "l") == 7
    table = put(table, catalogue, "p", "t/pawn", "B")
    assert power(table, catalogue, "l") == 4


def test_declared_condition_needs_a_person() -> None:
    ghost = minion(
        "ghost", 2, {"kind": "power", "scope": "self", "amount": 3, "when": {"declared": True}}
    )
    catalogue, table = setup([ghost])
    table = put(table, catalogue, "g", "t/ghost", "A")
    assert power(table, catalogue, "g") == 2
    table = replace(table, declared=frozenset({("g", 0)}))
    assert power(table, catalogue, "g") == 5


def test_power_never_below_zero_and_totals_follow() -> None:
    curse = action("curse", "minion", {"kind": "power", "scope": "bearer", "amount": -5})
    catalogue, table = setup([minion("pawn", 2), curse])
    table = put(table, catalogue, "p", "t/pawn", "A")
    table = rules.attach_to_minion(table, "p", "c", "t/curse", "B", "B")
    view = evaluate(table, catalogue).base("base-1")
    assert view.minion_power["p"] == 0 and view.power == {"A": 0} and view.total == 0


def test_breakpoint_modifier_and_floor() -> None:
    shrink = action("shrink", "base", {"kind": "breakpoint", "amount": -4})
    catalogue, table = setup([shrink])
    table = rules.attach_to_base(table, "base-1", "s1", "t/shrink", "A", "A")
    assert evaluate(table, catalogue).base("base-1").breakpoint == 6
    for n in range(2, 5):
        table = rules.attach_to_base(table, "base-1", f"s{n}", "t/shrink", "A", "A")
    assert evaluate(table, catalogue).base("base-1").breakpoint == 0


def test_monsters_add_to_breakpoint_until_controlled() -> None:
    catalogue, table = setup([])
    table = put(table, catalogue, "m", "t/ogre", None)
    view = evaluate(table, catalogue).base("base-1")
    assert (view.breakpoint, view.total) == (14, 0)
    table = rules.set_control(table, "m", "B")
    view = evaluate(table, catalogue).base("base-1")
    assert (view.breakpoint, view.power) == (10, {"B": 4})


def test_player_power() -> None:
    banner = action("banner", "base", {"kind": "player-power", "amount": 2})
    catalogue, table = setup([banner])
    table = rules.attach_to_base(table, "base-1", "b", "t/banner", "A", "A")
    assert evaluate(table, catalogue).base("base-1").power == {"A": 2}


def test_no_count_keeps_power_but_counts_nothing() -> None:
    useless = action("useless", "minion", {"kind": "no-count", "scope": "bearer"})
    catalogue, table = setup([minion("pawn", 3), useless])
    table = put(table, catalogue, "p", "t/pawn", "A")
    table = put(table, catalogue, "m", "t/ogre", None)
    table = rules.attach_to_minion(table, "p", "u1", "t/useless", "B", "B")
    table = rules.attach_to_minion(table, "m", "u2", "t/useless", "B", "B")
    view = evaluate(table, catalogue).base("base-1")
    assert view.minion_power["p"] == 3
    assert (view.power, view.total, view.breakpoint) == ({"A": 0}, 0, 10)
    # with only a useless minion there, A still places (the Munchkin Curse of Uselessness ruling)
    assert [p.player for p in score_base(table, catalogue, "base-1").ranking] == ["A"]


def test_one_turn_temporary_effect_expires() -> None:
    boost = action(
        "boost", "standard", {"kind": "power", "scope": "bearer", "amount": 4, "duration": "turn"}
    )
    catalogue, table = setup([minion("pawn", 1), boost])
    table = put(table, catalogue, "p", "t/pawn", "A")
    table = rules.add_temporary(table, Temporary("t/boost", 0, "A", table.turn, bearer="p"))
    assert power(table, catalogue, "p") == 5
    table = rules.end_turn(table)
    assert power(table, catalogue, "p") == 1


def test_score_rules() -> None:
    factory = base(
        "factory",
        10,
        {"kind": "score", "rule": "winner-vp-per-power", "step": 5, "amount": 1},
        vp=[2, 2, 1],
    )
    mall = base(
        "mall",
        10,
        {"kind": "score", "rule": "vp-per-minion", "amount": 1, "replaces": True},
        vp=[0, 0, 0],
    )
    garrison = base(
        "garrison",
        5,
        {"kind": "score", "rule": "bonus-over-total", "total": 12, "amount": 1, "places": 3},
    )
    catalogue, table = setup([factory, mall, garrison, minion("big", 6), minion("pawn", 1)])
    for zone, card in (("base-3", "t/factory"), ("base-4", "t/mall"), ("base-5", "t/garrison")):
        table = rules.enter_base(table, zone, card)
        table = put(table, catalogue, f"{zone}-a1", "t/big", "A", zone)
        table = put(table, catalogue, f"{zone}-a2", "t/big", "A", zone)
        table = put(table, catalogue, f"{zone}-b1", "t/pawn", "B", zone)
    vp = {
        z: {p.player: p.vp for p in score_base(table, catalogue, z).ranking}
        for z in ("base-3", "base-4", "base-5")
    }
    assert vp["base-3"] == {"A": 2 + 2, "B": 2}  # A has 12 power: 2 full fives
    assert vp["base-4"] == {"A": 2, "B": 1}  # one VP per minion, placings replaced
    assert vp["base-5"] == {"A": 5, "B": 3}  # 13 >= 12: the top three each gain 1


def test_treasure_effect_adds_to_the_draft() -> None:
    hoard = action("hoard", "base", {"kind": "treasures", "amount": 1})
    catalogue, table = setup([hoard, minion("pawn", 1)])
    table = put(table, catalogue, "m", "t/ogre", None)
    table = put(table, catalogue, "p", "t/pawn", "A")
    table = rules.attach_to_base(table, "base-1", "h", "t/hoard", "A", "A")
    result = score_base(table, catalogue, "base-1")
    assert (result.treasure_count, result.treasure_order) == (3, ("A", "A", "A"))


def test_vp_triggers_on_play_and_on_leaving() -> None:
    invader = minion("invader", 3, {"kind": "vp", "on": "play", "amount": 1})
    shiny = base(
        "shiny", 20, {"kind": "vp", "on": "minion-leaves-here", "who": "owner", "amount": 1}
    )
    catalogue, table = setup([invader, shiny])
    table = rules.enter_base(table, "base-3", "t/shiny")
    table = rules.play_minion(table, catalogue, "base-3", "i", "t/invader", "A", "A")
    assert table.vp == (1, 0)
    table, _ = rules.leave_play(table, catalogue, "i")
    assert table.vp == (2, 0)


def test_destroyed_monster_owes_its_treasures() -> None:
    catalogue, table = setup([])
    table = put(table, catalogue, "m", "t/ogre", None)
    table, left = rules.leave_play(table, catalogue, "m")
    assert left.treasure_draws == 2


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        ({"kind": "glow"}, "field 'kind' must be one of"),
        ({"kind": "power", "scope": "nowhere", "amount": 1}, "field 'scope': must be one of"),
        ({"kind": "power", "scope": "self", "amount": "two"}, "field 'amount'"),
        ({"kind": "power", "scope": "self", "amount": 1, "colour": 2}, "unknown field"),
        ({"kind": "power", "scope": "self", "amount": 1, "filter": {"size": 1}}, "unknown filter"),
        ({"kind": "score", "rule": "winner-vp-per-power", "amount": 1}, "'step'"),
        ({"kind": "vp", "on": "sunrise", "amount": 1}, "field 'on'"),
        ({"kind": "power", "scope": "bearer-actions", "amount": 1}, "only be used in 'per'"),
    ],
)
def test_bad_effects_name_the_card_and_field(effect: dict[str, Any], message: str) -> None:
    with pytest.raises(CatalogueError, match=message) as raised:
        mini_catalogue([minion("oops", 1, effect)], ["a"])
    assert "card t/oops" in str(raised.value) and "effects[0]" in str(raised.value)


def test_loader_names_file_card_and_field() -> None:
    bad = {
        "set": "t",
        "name": "T",
        "factions": [],
        "cards": [
            {
                "id": "t/x",
                "name": "x",
                "type": "base",
                "faction": None,
                "copies": 1,
                "breakpoint": "big",
                "vp": [1, 1, 1],
                "text": None,
            }
        ],
    }
    with pytest.raises(CatalogueError, match=r"t\.json: card t/x: field 'breakpoint'"):
        build_catalogue([(Path("t.json"), bad)])
