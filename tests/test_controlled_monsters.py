"""A controlled monster is a normal minion of its controller (issue 14, part 1) for every card
that talks about minions, its opponents' included.

Smash Up: Munchkin rulebook, Monsters and Treasures: "If someone takes control of a monster,
however, it stops adding to the base's breakpoint and acts as a normal minion of that player";
Void Where Prohibited: "Monsters are not opponents or 'other players' to anyone" (while
nobody controls them). One case per card whose power effect names the controller's minions
or other players' minions.
"""

from __future__ import annotations

import pytest

from companion.catalogue.cards import Card, load_catalogue
from companion.catalogue.effect_terms import Filter, Scope
from companion.catalogue.effects import PowerEffect
from companion.rules import game as rules
from companion.rules.sources import Source, in_scope
from companion.rules.table import Table

CAT = load_catalogue()
MONSTER = "munchkin/hippogriff"
YOURS = {Scope.MINE, Scope.OTHER_MINE, Scope.MINE_HERE, Scope.OTHER_MINE_HERE}
THEIRS = {Scope.OTHERS_HERE}


def _cases() -> list[tuple[Card, int]]:
    """Power effects over the controller's (or other players') minions whose filter does not
    ask for a faction, a card, a trait or a printed power a monster lacks."""
    found = []
    for card in CAT:
        for index, effect in enumerate(card.effects):
            if not isinstance(effect, PowerEffect) or effect.scope not in YOURS | THEIRS:
                continue
            flt = effect.filter
            if flt.cards or flt.factions or flt.trait or flt.monster is False:
                continue
            found.append((card, index))
    return found


@pytest.mark.parametrize(("card", "index"), _cases(), ids=lambda v: getattr(v, "id", str(v)))
def test_a_controlled_monster_is_reached_like_a_minion(card: Card, index: int) -> None:
    effect = card.effects[index]
    assert isinstance(effect, PowerEffect)
    owner = "B" if effect.scope in THEIRS else "A"
    table = rules.enter_base(Table(players=("A", "B")), "base-1", "core/jungle-oasis")
    table = rules.play_minion(table, CAT, "base-1", "m", MONSTER, None, None)
    table = rules.play_minion(table, CAT, "base-1", "m2", MONSTER, None, None)  # Campaign's
    table = rules.play_minion(table, CAT, "base-1", "src", "core/king-rex", "A", "A")
    source = Source(card, index, effect, "A", "base-1", "src")
    flt = Filter(with_monster=effect.filter.with_monster)
    assert not [m.tag for m in in_scope(table, CAT, source, effect.scope, flt) if m.tag == "m"]
    controlled = rules.set_control(table, "m", owner)
    reached = [m.tag for m in in_scope(controlled, CAT, source, effect.scope, flt)]
    assert "m" in reached


def test_the_cards_named_in_the_issue_are_reached() -> None:
    ids = {card.id for card, _ in _cases()}
    assert {"oops/plague-of-locusts", "munchkin/elf-help-guru", "core/howl"} <= ids
