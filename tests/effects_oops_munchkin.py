"""Shared pieces of the Oops and Munchkin card scenarios (``test_effects_oops.py`` and
``test_effects_munchkin.py``): the table builders, and ``case`` to register a scenario.

Each scenario builds a small table with the real catalogue and checks the numbers the card's
text implies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.catalogue.cards import Card, load_catalogue
from companion.catalogue.table_effects import KINDS as TABLE_KINDS
from companion.rules import game as rules
from companion.rules.power import BaseView, evaluate
from companion.rules.table import Buried, Table, Temporary

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


def computed(card: Card) -> bool:
    """Whether the card has an effect on power, breakpoints, VP or treasures (not only table
    effects: counters, burying, duels)."""
    return any(effect.kind not in TABLE_KINDS for effect in card.effects)


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
