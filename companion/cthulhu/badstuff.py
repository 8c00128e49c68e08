"""Bad Stuff when a monster catches a runner, and death with its looting (rulebook v1.7,
Running Away and Death), computed where the card's words touch a number. Pure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue
from companion.cthulhu import classes as cls
from companion.cthulhu.curses import Played, drop, worn
from companion.cthulhu.gear import SET
from companion.cthulhu.rules import change_level
from companion.cthulhu.sides import is_cultist, uses
from companion.cthulhu.table import Foe, Looting, MCTable

Bad = Callable[[MCTable, str, Foe, CthulhuCatalogue], Played]


def _levels(delta: int) -> Bad:
    def bad(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
        return Played(change_level(table, name, delta), f"{name} {delta:+} Level(s)")

    return bad


def _slots(*slots: str) -> Bad:
    def bad(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
        lost = [h for slot in slots for h in worn(table, name, slot, cards)]
        names = ", ".join(cards[h.card].name for h in lost) or "nothing worn there"
        return Played(drop(table, name, {h.tag for h in lost}), f"{name} lost {names}")

    return bad


def _cultist(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    return Played(*cls.become_cultist(table, name, cards))


def die(table: MCTable, name: str, foe: Foe | None, cards: CthulhuCatalogue) -> Played:
    """ "If you die, you lose all your stuff. You keep your Class(es) and Level (and any Curses
    ...)"; enhancers on a Cultist are discarded. The others loot the items in play, "Starting
    with the one with the highest Level" (ties in seat order: roll a die if you disagree)."""
    player = table.player(name)
    loot = player.items
    keep = ("corrupted-by-power", "super-munchkin")
    boons = tuple(b for b in player.boons if b.card.removeprefix(SET) in keep)
    table = table.with_player(replace(player, items=(), kept=(), attached=(), boons=boons))
    others = sorted((p for p in table.players if p.name != name), key=lambda p: -p.level)
    order = tuple(p.name for p in others)
    table = replace(table, looting=Looting(name, order, loot) if loot else None)
    text = f"{name} died: they keep Class and Level; " + (
        f"{order[0]} loots first (tap the card taken at your seat)" if loot else "nothing to loot"
    )
    return Played(table, text)


def _class_cards(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    """Aughost Derwraith: "your Class cards go, except Cultist"."""
    texts = []
    for c in table.player(name).classes:
        if cards[c.card].class_name != "Cultist":
            table, text = cls.lose_class(table, name, c.tag, cards)
            texts.append(text)
    return Played(table, "; ".join(texts) or f"{name} keeps their Cultist card")


def _valued(pick: str) -> Bad:
    """Tchoo-Tchoo People: "discard your most valuable Item"; The Dunwich Snorer: "discard your
    cheapest Item that has a Gold value"."""

    def bad(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
        priced = [h for h in table.player(name).items if cards[h.card].gold is not None]
        if not priced:
            return Played(table, f"{name} has no Item with a Gold value")
        ranked = sorted(priced, key=lambda h: cards[h.card].gold or 0)
        lost = ranked[-1] if pick == "most" else ranked[0]
        return Played(drop(table, name, {lost.tag}), f"{name} lost {cards[lost.card].name}")

    return bad


def _borrower(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    """The Borrower From Beneath: "lose all Items whose bonus depends on your Class(es)"."""
    lost = [h for h in table.player(name).items if cards[h.card].only_for]
    names = ", ".join(cards[h.card].name for h in lost) or "none"
    return Played(drop(table, name, {h.tag for h in lost}), f"{name} lost {names}")


def _chibi(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    """Chibithulhu: "Cultists surrender their highest-bonus Item to it; everyone else surrenders
    one Item they pick"."""
    player = table.player(name)
    if not player.items:
        return Played(table, f"{name} has no Item")
    if not is_cultist(player, cards):
        return Played(table, f"Chibithulhu: which Item does {name} surrender?", player.items)
    best = max(uses(table, player, cards), key=lambda u: u.bonus).held
    return Played(drop(table, name, {best.tag}), f"{name} surrendered {cards[best.card].name}")


def _loggoth(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    """Loggoth: "the active player is spared; each helper drops a level"."""
    if name == table.current_player:
        return Played(table, f"{name} is the active player: spared")
    return Played(change_level(table, name, -1), f"{name} helped: -1 Level")


def _sluggoth(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    """Sluggoth: "hand one level to the lowest-Level player (you pick among ties); if you are
    lowest, just drop a level"."""
    lowest = min(p.level for p in table.players)
    others = [p.name for p in table.players if p.level == lowest and p.name != name]
    table = change_level(table, name, -1)
    if table.player(name).level + 1 == lowest or not others:
        return Played(table, f"{name} is lowest: -1 Level")
    return Played(change_level(table, others[0], 1), f"{name} -1 Level, {others[0]} +1 Level")


def _great_cthulhu(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    """Great Cthulhu: "you die, every player he did not catch goes up a level, and your new
    character starts as a Cultist"."""
    escape = table.escape
    caught = set(escape.caught if escape is not None else ()) | {name}
    for other in table.players:
        if other.name not in caught:
            table = change_level(table, other.name, 1)
    died = die(table, name, foe, cards)
    table, text = cls.become_cultist(died.table, name, cards)
    return Played(table, f"{died.text}; those not caught +1 Level; {text}")


def _ban(ban: str, words: str) -> Bad:
    """Geek Ones: "you may not help in any fight until you next gain a level"; The
    Unpronounceable Evil: "you may not ask for help until you have gained a level"."""

    def bad(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
        player = table.player(name)
        table = table.with_player(replace(player, bans=(*player.bans, ban)))
        return Played(table, f"{name} {words} until they next gain a Level")

    return bad


BAD_STUFF: Final[dict[str, Bad]] = {
    SET + "geek-ones": _ban("no-helping", "may not help in any fight"),
    SET + "the-unpronounceable-evil": _ban("no-asking", "may not ask for help"),
    SET + "aughost-derwraith": _class_cards,
    SET + "buggoth": _slots("armor"),
    SET + "campus-crusade-for-cthulhu": _cultist,
    SET + "chibithulhu": _chibi,
    SET + "coggoth": _levels(-2),
    SET + "froggoth": die,
    SET + "gram-smoker": _levels(-1),
    SET + "great-cthulhu": _great_cthulhu,
    SET + "lloyd-lloigor": _levels(-2),
    SET + "loggoth": _loggoth,
    SET + "ozathoth": die,
    SET + "polly-polyp": _levels(-1),
    SET + "ruggoth": _cultist,
    SET + "shallow-ones": die,
    SET + "shog-goth": _levels(-1),
    SET + "shoggoth": _cultist,
    SET + "sluggoth": _sluggoth,
    SET + "tchoo-tchoo-people": _valued("most"),
    SET + "the-borrower-from-beneath": _borrower,
    SET + "the-cruller-out-of-space": _slots("headgear", "footgear"),
    SET + "the-dunwich-snorer": _valued("cheapest"),
}


#: Shrub-Niggurath: "drop 3 levels and lose your Footgear"
def _shrub(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played:
    lost = _slots("footgear")(change_level(table, name, -3), name, foe, cards)
    return replace(lost, text=f"{name} -3 Levels; {lost.text}")


BAD_STUFF[SET + "shrub-niggurath"] = _shrub
#: monsters whose Bad Stuff includes death (the Professor's "gain a level on escaping a monster
#: whose Bad Stuff includes death")
DEADLY: Final = frozenset(
    {SET + "froggoth", SET + "ozathoth", SET + "shallow-ones", SET + "great-cthulhu"}
)


def caught(table: MCTable, name: str, foe: Foe, cards: CthulhuCatalogue) -> Played | None:
    """The monster's Bad Stuff done to ``name``, or None when people resolve it by hand."""
    bad = BAD_STUFF.get(foe.card)
    return None if bad is None else bad(table, name, foe, cards)


def loot(table: MCTable, name: str, tag: str) -> MCTable | None:
    """``name`` took ``tag`` from the corpse (their turn in the looting order); None when it is
    not the corpse's or not their turn."""
    looting = table.looting
    if looting is None or looting.next != name or all(h.tag != tag for h in looting.cards):
        return None
    left = tuple(h for h in looting.cards if h.tag != tag)
    following = replace(looting, cards=left, taken=looting.taken + 1)
    return replace(table, looting=following if following.next is not None else None)
