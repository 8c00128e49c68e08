"""How much of Munchkin Cthulhu the engine computes, card by card, in the categories the Smash
Up sets use (:mod:`companion.rules.coverage`): ``computed``, ``after input`` (a tablet choice
or a declared condition), ``partly`` and ``by hand`` (each with the fact the table cannot see),
``unknown`` (no source confirmed the text).

A card counts as computed because the rules modules name it (their tables are read here), or
because its numbers are plain facts the rules use (a Level, a bonus, a modifier). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from companion.catalogue.cthulhu import CthulhuCatalogue, MCCard
from companion.cthulhu import badstuff, curses, fight, gear, rules, sides

#: the Smash Up sets' categories (:mod:`companion.rules.coverage`), so both print in one table
Category = Literal["computed", "after input", "partly", "by hand", "unknown"]

SET: Final = gear.SET
#: cards the rules name by id (their words are quoted where they are)
NAMED: Final = frozenset(
    {
        *gear.WORN_ALONGSIDE,
        *gear.EXTRA_HAND_ITEMS,
        *gear.EXTRA_HAND_BOONS,
        *gear.ITEM_ENHANCERS,
        gear.CHEAT,
        *curses.RULES,
        *badstuff.BAD_STUFF,
        *fight.FIGHT_WIDE,
        fight.BICKER,
        fight.MUNCHCRAFT,
        fight.WANDERING,
        sides.AXE,
        sides.SHOGULATOR,
        sides.UNNAMEABLE,
        sides.GREAT_CTHULHU,
        sides.NYUKHEES,
        sides.GNARLY,
        *sides.NO_ITEMS,
        *sides.NO_FOOTGEAR,
        *sides.NO_CLASS_POWERS,
        *sides.ICHOR_PROOF,
        *rules.NO_HELP_BY,
        rules.MAP,
        rules.SHOES,
        SET + "cultist",
        SET + "monster-whacker",
    }
)
#: computed once someone answers the tablet: which side or monster, a condition declared
AFTER_INPUT: Final = {
    SET + "canned-meat": "which side it helps (players by default, a monster in one tap)",
    SET + "ichor-liquor": "which side it helps",
    SET + "kitchen-sink": "which side it helps",
    SET + "sicker-ichor": "which side it helps",
    SET + "sticker-ichor": "which side it helps",
    SET + "maniacal-laugh": "which side it helps (who keeps it afterwards is by hand)",
    SET + "piercing-shriek": "which side it helps (who keeps it afterwards is by hand)",
    fight.QUICKER: "+2 or -2 (one tap)",
    SET + "curse-hastur-hastur-hastur": "which Item the player on the right picks",
    SET + "curse-madness-takes-its-toll": "which Items make up 1,000 Gold",
    SET + "curse-amnesia": "which Class, when the victim has two",
    SET + "chibithulhu": "which Item a non-Cultist surrenders",
    SET + "song-of-madness": "which side; +5 when the verse is sung is a labelled modifier",
    SET + "backpack-full-of-dynamite": "the declared bonus and the roll: a labelled modifier",
}
#: partly computed: the part people do by hand, and why
PARTLY: Final = {
    SET + "professor": "the end-of-turn Levels for discarded hand cards: the table cannot see "
    "hands (the Level for escaping death is computed)",
    SET + "campus-crusade-for-cthulhu": "a Cultist's Items worth 1,000+ Gold: who gets them",
    SET + "coggoth": "the +3 for an even hand is declared at the tablet (it asks); the hand "
    "card thrown away",
    SET + "the-king-in-pink": "one Level per card in hand: the table cannot see hands",
    SET + "sluggoth": "among tied lowest players, the victim picks (the first in seat order)",
    SET + "elder-globs": "handing Cultists cards from hand or play",
    SET + "tht-whch-hs-n-vwls": "the hand cards whose names start with a vowel",
    SET + "nightie-gaunts": "which three Items: tap them at the discard pad",
    SET + "nyukhees": "each other player takes one of your Items: tap each at their seat",
    SET + "eldridge-hawrer": "which Items make 500 Gold: tap them at the discard pad",
    SET + "foggoth": "the card passed to a neighbour: tap an Item at their seat",
    SET + "tommy-gun": "+1 for a player called Tom: a labelled modifier",
    SET + "cthulhu-bumper-sticker": "+3 on a Steed or Vehicle, from other sets: a modifier",
    SET + "bagpipes": "the roll of 6 that makes them give no help: a labelled modifier",
    SET + "necronookiecon": "skipping the fight by discarding it ends the turn: by hand",
    SET + "slime-proof-poncho": "which Ichor came from whom: the table does not see throwers",
    SET + "the-bodiless": "the extra Door drawn and the Door cards discarded from the hand",
    SET + "gnarlythotep": "having to help anyone who asks",
    SET + "loggoth": "no reward offered for help",
    SET + "curse-dragged-off-to-snarkham-asylum": "a cured Cultist taking any Class from the "
    "discards: tap it at their seat",
    SET + "sudden-head-blow": "which Class a new Cultist gives up (the first in play is taken)",
    SET + "corrupted-by-power": "it ends when they kill a monster alone: discard it then",
    SET + "unwelcome-enlightenment": "the turn skipped",
    SET + "super-munchkin": "one Class with its pros but none of its cons",
}
#: by hand: the fact the table cannot see
BY_HAND: Final = {
    SET + "investigator": "peeking at Doors and +1 Treasure after Looking For Trouble: the "
    "table cannot tell a kicked door from a monster played from the hand",
    SET + "cult-membership-card": "counting as a Cultist 'whenever they choose': a modifier",
    SET + "solar-eclipse": "dealing the Treasure among the fight's players face down",
    SET + "unspeakable-riches": "three more Treasures drawn: the table sees them when played",
    SET + "thicker-ichor": "doubling another Ichor: a labelled modifier",
    SET + "loaded-die": "the face chosen is the roll entered for Run Away",
    SET + "mutation": "swapping a monster: tap it out at the discard pad, the new one in",
    SET + "ichor-picker": "taking an Ichor back: tap it at the discard pad",
    SET + "cowl-of-cthulhu": "no printed text is known (no scan; its source lists it as DNE)",
}
#: cards that change no number the table keeps (what cards are in hand, who draws what): they
#: are not counted, as the Smash Up cards that touch no number are not
NO_NUMBER: Final = {
    SET + "cult-meeting": "Cultists swap hand cards",
    SET + "i-am-not-worthy-of-this-honor": "a Curse drawn goes to another player",
    SET + "ia-rlyeh": "a discarded card taken into the hand",
    SET + "o-rlyeh": "a card cancelled: undo it, or tap it at the discard pad",
    SET + "portal-of-mystery": "two Doors instead of one",
    SET + "innsmouth-yellow-pages": "a monster from the discards into the hand",
}
#: monsters whose Bad Stuff touches only the hand: their numbers are all printed facts
HAND_ONLY: Final = {
    SET + "fun-guy-from-yuggoth": "a random hand card discarded; Bad Stuff: hand Ichors",
    SET + "grape-old-ones": "Bad Stuff: the entire hand thrown away",
    SET + "h-p-munchcraft": "Bad Stuff: none",
}
#: items whose words the gear rules state as data: Brass Knucks "Take up no Hands" (slot
#: "none"), Flamethrower "Counts as fire/flame" (Foggoth's double)
AS_DATA: Final = frozenset({SET + "brass-knucks", *sides.FIRE})


@dataclass(frozen=True, slots=True)
class MCCovered:
    card: MCCard
    category: Category
    reason: str | None = None


def classify(card: MCCard) -> MCCovered | None:
    """The card's category, or None when it changes no number the table keeps."""
    if card.id in NO_NUMBER:
        return None
    if card.text is None and card.id not in BY_HAND:
        return MCCovered(card, "unknown", "no source confirmed its text")
    for table, category in ((AFTER_INPUT, "after input"), (PARTLY, "partly"), (BY_HAND, "by hand")):
        if card.id in table:
            return MCCovered(card, category, table[card.id])  # type: ignore[arg-type]
    if card.id in NAMED or plain(card):
        return MCCovered(card, "computed")
    return MCCovered(card, "by hand", "its words are not computed")


def plain(card: MCCard) -> bool:
    """Numbers the rules use as printed: a monster's Level, modifiers and Treasures (its Bad
    Stuff touching only the hand), an item's bonus and slot with "No special text", an
    enhancer's modifier, a Level card's +1."""
    if card.kind == "monster":
        return card.id in HAND_ONLY
    if card.kind == "item":
        printed = card.bonus is not None and (card.text or "").startswith("No special text")
        return printed or card.id in AS_DATA
    return card.kind in ("monster enhancer", "go-up-a-level")


def coverage(catalogue: CthulhuCatalogue) -> list[MCCovered]:
    """Every Munchkin Cthulhu card that changes a number, with its category."""
    found = (classify(card) for card in catalogue)
    return [covered for covered in found if covered is not None]
