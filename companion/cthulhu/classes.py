"""Classes: one at a time (two with Super Munchkin), the Cultist's card kept, the separate
Cultist discard pile and "Become a Cultist" (rulebook v1.7, Classes and Cultists). Pure."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue
from companion.cthulhu.gear import SET
from companion.cthulhu.sides import classes_of, is_cultist
from companion.cthulhu.table import Held, MCTable, Player, RulesError

#: Super Munchkin: "Hold two Classes"
SUPER_MUNCHKIN: Final = SET + "super-munchkin"


def class_limit(player: Player) -> int:
    """ "You may not belong to more than one class at once unless you play the Super Munchkin
    card"."""
    return 2 if any(b.card == SUPER_MUNCHKIN for b in player.boons) else 1


def take_class(
    table: MCTable, name: str, held: Held, catalogue: CthulhuCatalogue
) -> tuple[MCTable, str]:
    """``name`` plays a Class card: added within the limit, otherwise it replaces a class the
    player may give up (never the Cultist: "you *cannot* discard the Cultist card
    voluntarily").

    :raises RulesError: a Cultist at the limit plays another class."""
    player = table.player(name)
    card = catalogue[held.card]
    if card.class_name in classes_of(player, catalogue):
        return table, f"{name} is already a {card.class_name}: no further effect"
    classes = player.classes
    replaced: list[Held] = []
    if len(classes) >= class_limit(player):
        free = [c for c in classes if catalogue[c.card].class_name != "Cultist"]
        if not free:
            raise RulesError(
                f"{name} is a Cultist and cannot discard the Cultist card voluntarily: keep "
                f"{card.name} in hand (Super Munchkin allows two classes)"
            )
        replaced = [free[0]]
        classes = tuple(c for c in classes if c not in replaced)
    table = table.with_player(replace(player, classes=(*classes, held)))
    was = ", ".join(str(catalogue[c.card].class_name) for c in replaced)
    return table, f"{name} is a {card.class_name}" + (f" (was {was})" if was else "")


def lose_class(
    table: MCTable, name: str, tag: str, catalogue: CthulhuCatalogue
) -> tuple[MCTable, str]:
    """A card takes a class away. A Cultist card goes to the Cultist pile; "If there is only ONE
    Cultist, then nothing can make him lose his Class except Divine Intervention"."""
    player = table.player(name)
    held = next((c for c in player.classes if c.tag == tag), None)
    if held is None:
        return table, f"{name} has no such class"
    cultist = catalogue[held.card].class_name == "Cultist"
    if cultist and sum(1 for p in table.players if is_cultist(p, catalogue)) == 1:
        return table, f"{name} is the only Cultist: nothing but Divine Intervention cures that"
    left = tuple(c for c in player.classes if c.tag != tag)
    updated = replace(player, classes=left)
    if not is_cultist(updated, catalogue):
        updated = replace(updated, kept=())  # enhancers kept by a Cultist go with the class
    if not left:  # Super Munchkin is "lost when you lose all Classes"
        updated = replace(
            updated, boons=tuple(b for b in updated.boons if b.card != SUPER_MUNCHKIN)
        )
    table = table.with_player(updated)
    if cultist:
        table = replace(table, cultist_pile=(*table.cultist_pile, held))
    return table, f"{name} lost {catalogue[held.card].name}"


def become_cultist(table: MCTable, name: str, catalogue: CthulhuCatalogue) -> tuple[MCTable, str]:
    """ "If any card tells you "Become a Cultist," and there is a discarded Cultist card waiting
    for you, then you *must* take it. If there is no Cultist card, you escaped . . . this time.
    If you were already a Cultist, there is no further effect"."""
    player = table.player(name)
    if is_cultist(player, catalogue):
        return table, f"{name} is already a Cultist: no further effect"
    if not table.cultist_pile:
        return table, f"no Cultist card is waiting: {name} escaped . . . this time"
    *rest, card = table.cultist_pile
    classes = player.classes
    if len(classes) >= class_limit(player):
        classes = classes[1:]
    table = table.with_player(replace(player, classes=(*classes, card)))
    return replace(table, cultist_pile=tuple(rest)), f"{name} became a Cultist"
