"""Curses and other cards played on a player at their seat, computed where they touch a
number: Level, sex, an item or class lost, a penalty for the next fight (rulebook v1.7, Curses:
"If a Curse applies to something you don't have, ignore it"; "If a Curse can apply to more than
one item, the victim decides which item is lost"). Pure.

Each card's words are quoted beside its entry; what the victim chooses comes back as
candidates for the tablet to ask about.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue
from companion.cthulhu import classes as cls
from companion.cthulhu.gear import CHEAT, EVIL, ITEM_ENHANCERS, SET, allowed
from companion.cthulhu.rules import change_level
from companion.cthulhu.sides import classes_of, is_cultist, uses
from companion.cthulhu.table import Attached, Held, MCTable


@dataclass(frozen=True, slots=True)
class Played:
    """What a card played on ``victim`` did, and what is still chosen at the tablet:
    ``choose`` are the candidates, ``verb`` the input that takes one (``lose`` or ``attach``),
    ``left`` how many (None: any number)."""

    table: MCTable
    text: str
    choose: tuple[Held, ...] = ()
    verb: str = "lose"
    left: int | None = 1


Rule = Callable[[MCTable, str, Held, CthulhuCatalogue], Played]


def drop(table: MCTable, name: str, tags: set[str]) -> MCTable:
    """Items (with what is attached to them) and kept enhancers leave ``name``'s play."""
    player = table.player(name)
    return table.with_player(
        replace(
            player,
            items=tuple(h for h in player.items if h.tag not in tags),
            kept=tuple(h for h in player.kept if h.tag not in tags),
            attached=tuple(a for a in player.attached if a.item not in tags),
        )
    )


def _lost(table: MCTable, name: str, held: list[Held], cards: CthulhuCatalogue, why: str) -> Played:
    if not held:
        return Played(table, f"{why}: {name} has nothing it applies to (ignored)")
    names = ", ".join(cards[h.card].name for h in held)
    return Played(drop(table, name, {h.tag for h in held}), f"{why}: {name} lost {names}")


def worn(table: MCTable, name: str, slot: str, cards: CthulhuCatalogue) -> list[Held]:
    """The items worn in ``slot``, with those worn alongside or over them ("anything that
    removes your Armor removes it too"); Galoshes alone when the Footgear is hit."""
    player = table.player(name)
    found = [
        u.held for u in uses(table, player, cards) if u.in_use and cards[u.held.card].slot == slot
    ]
    galoshes = [h for h in found if h.card == SET + "galoshes"]
    return galoshes or found


def _slot_curse(slot: str, why: str) -> Rule:
    def rule(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
        return _lost(table, name, worn(table, name, slot, cards), cards, why)

    return rule


def _level(delta: int, why: str) -> Rule:
    def rule(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
        return Played(change_level(table, name, delta), f"{why}: {name} {delta:+} Level")

    return rule


def _penalty(table: MCTable, name: str, held: Held) -> MCTable:
    """ "If someone plays a "your next combat" Curse on you while you are in combat, it counts in
    *that* combat!"."""
    if name in table.fighting() and table.combat is not None:
        penalties = (*table.combat.penalties, (name, held))
        return replace(table, combat=replace(table.combat, penalties=penalties))
    player = table.player(name)
    return table.with_player(replace(player, penalties=(*player.penalties, held)))


def change_sex(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Change Sex: "Victim suffers -5 in their next fight; the sex swap stays"."""
    player = table.player(name)
    sex = {"male": "female", "female": "male"}.get(player.sex or "")
    table = _penalty(table.with_player(replace(player, sex=sex)), name, held)
    return Played(table, f"{name} is now {sex or 'of the other sex'}, -5 in the next fight")


def flashlight(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Flashlight Goes Out: "-3 in the current fight (or the next one), and throws away the
    Miner's Helmet and Two-Handed Flashlight if carried"."""
    gone = {SET + "miners-helmet", SET + "two-handed-flashlight"}
    lost = [h for h in table.player(name).items if h.card in gone]
    done = _lost(_penalty(table, name, held), name, lost, cards, "Flashlight Goes Out")
    return replace(done, text=f"{name} -3 in this or the next fight; {done.text}")


def amnesia(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Amnesia: "Victim discards their Class (one of their choice if several); with no Class,
    they drop a level instead"."""
    classes = table.player(name).classes
    if not classes:
        return Played(change_level(table, name, -1), f"{name} has no Class: -1 Level")
    if len(classes) > 1:
        return Played(table, f"Amnesia: which Class does {name} discard?", classes)
    return Played(*cls.lose_class(table, name, classes[0].tag, cards))


def white_hair(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Hair Turns White With Horror: "Victim discards every Class except Cultist"."""
    texts = []
    for c in table.player(name).classes:
        if cards[c.card].class_name != "Cultist":
            table, text = cls.lose_class(table, name, c.tag, cards)
            texts.append(text)
    return Played(table, "; ".join(texts) or f"{name} has no Class but Cultist (ignored)")


def snarkham(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Dragged Off To Snarkham Asylum: "A Cultist victim gives up the Cultist card ...; a
    non-Cultist victim turns Cultist"."""
    player = table.player(name)
    if is_cultist(player, cards):
        cultist = next(c for c in player.classes if cards[c.card].class_name == "Cultist")
        return Played(*cls.lose_class(table, name, cultist.tag, cards))
    return Played(*cls.become_cultist(table, name, cards))


def head_blow(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Sudden Head Blow: "Play on a Cultist to cure them ..., or on a non-Cultist to make them
    Cultist at the cost of one Class of their choice"."""
    return snarkham(table, name, held, cards)


def backpack(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Backpack Eaten: "Victim discards every carried Item they are not allowed to use (Items
    covered by Cheat! survive)"."""
    player = table.player(name)
    classes = classes_of(player, cards)
    lost = [h for h in player.items if allowed(player, cards[h.card], classes, h.tag)]
    return _lost(table, name, lost, cards, "Backpack Eaten")


def one_item(why: str) -> Rule:
    def rule(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
        items = table.player(name).items
        if len(items) <= 1:
            return _lost(table, name, list(items), cards, why)
        return Played(table, f"{why}: which Item does {name} lose?", items)

    return rule


def toll(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Madness Takes Its Toll: "Victim discards Item(s) whose printed values add up to at least
    1,000 Gold" (all of them if they hold less)."""
    items = table.player(name).items
    if sum(cards[h.card].gold or 0 for h in items) <= 1000:
        return _lost(table, name, list(items), cards, "Madness Takes Its Toll")
    text = f"Madness Takes Its Toll: {name} discards Items worth 1,000 Gold or more"
    return Played(table, text, items, left=None)


def evil(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Weapon Becomes Evil: "The victim's best-bonus Item turns into an equal penalty"."""
    player = table.player(name)
    ranked = sorted((u for u in uses(table, player, cards) if u.bonus > 0), key=lambda u: -u.bonus)
    if not ranked:
        return Played(table, f"{name} has no Item with a bonus (ignored)")
    item = ranked[0].held
    attached = (*player.attached, Attached(held, item.tag))
    table = table.with_player(replace(player, attached=attached))
    return Played(table, f"{cards[item.card].name} is now a -{ranked[0].bonus} penalty")


def boon(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """A card kept in front of the player (Super Munchkin: "you must have a Class to play
    it"; Created Using Cinematic Rules; Corrupted By Power)."""
    player = table.player(name)
    card = cards[held.card]
    if held.card == cls.SUPER_MUNCHKIN and not player.classes:
        return Played(table, f"{name} has no Class: Super Munchkin needs one (ignored)")
    table = table.with_player(replace(player, boons=(*player.boons, held)))
    return Played(table, f"{name} keeps {card.name} in front of them")


def on_item(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Cheat! ("Attach to an Item you have"), Of the Middle-Aged Gods ("a bonus-giving Item"),
    Official Mythos ("an Item that uses Hands")."""
    items = table.player(name).items
    if held.card == SET + "of-the-middle-aged-gods":
        items = tuple(h for h in items if cards[h.card].bonus)
    elif held.card == SET + "official-mythos":
        items = tuple(h for h in items if (cards[h.card].slot or "").endswith(("hand", "hands")))
    if len(items) == 1:
        return attach(table, name, held, items[0].tag, cards)
    if not items:
        return Played(table, f"{cards[held.card].name}: {name} has no Item it can go on")
    return Played(table, f"Which Item does {cards[held.card].name} go on?", items, "attach")


def attach(table: MCTable, name: str, held: Held, item: str, cards: CthulhuCatalogue) -> Played:
    player = table.player(name)
    target = next((h for h in player.items if h.tag == item), None)
    if target is None:
        return Played(table, f"{name} does not carry {item}")
    table = table.with_player(replace(player, attached=(*player.attached, Attached(held, item))))
    return Played(table, f"{cards[held.card].name} goes on {cards[target.card].name}")


def ring(table: MCTable, name: str, held: Held, cards: CthulhuCatalogue) -> Played:
    """Wishing Ring: "Negate a Curse at any moment (also ends Corrupted By Power)": the curses
    still counting on the player (penalties, an evil weapon, Corrupted By Power) end."""
    player = table.player(name)
    player = replace(
        player,
        penalties=(),
        attached=tuple(a for a in player.attached if a.held.card != EVIL),
        boons=tuple(b for b in player.boons if b.card != SET + "corrupted-by-power"),
    )
    table = table.with_player(player)
    if table.combat is not None:
        kept = tuple(p for p in table.combat.penalties if p[0] != name)
        table = replace(table, combat=replace(table.combat, penalties=kept))
    return Played(table, f"{name}'s curses are negated")


RULES: Final[dict[str, Rule]] = {
    SET + "curse-amnesia": amnesia,
    SET + "curse-backpack-eaten": backpack,
    SET + "curse-change-sex": change_sex,
    SET + "curse-dragged-off-to-snarkham-asylum": snarkham,
    SET + "curse-flashlight-goes-out": flashlight,
    SET + "curse-get-all-blobby": _slot_curse("armor", "Get All Blobby"),
    SET + "curse-hair-stands-on-end": _slot_curse("headgear", "Hair Stands On End"),
    SET + "curse-hair-turns-white-with-horror": white_hair,
    SET + "curse-hastur-hastur-hastur": one_item("Hastur Hastur Hastur"),
    SET + "curse-learn-yet-another-awful-truth": _level(-1, "Learn Yet Another Awful Truth"),
    SET + "curse-madness-takes-its-toll": toll,
    SET + "curse-solestealer": _slot_curse("footgear", "Solestealer"),
    SET + "curse-weapon-becomes-evil": evil,
    SET + "sudden-head-blow": head_blow,
    SET + "super-munchkin": boon,
    SET + "created-using-cinematic-rules": boon,
    SET + "corrupted-by-power": boon,
    CHEAT: on_item,
    **dict.fromkeys(ITEM_ENHANCERS, on_item),
    SET + "unwelcome-enlightenment": _level(1, "Unwelcome Enlightenment"),
    SET + "sole-survivor": _level(2, "Sole Survivor"),
    SET + "wishing-ring": ring,
}
