"""Each side of a fight, contribution by contribution (card and why), and a player's
strength outside one. Combat strength "is the total of Level plus all modifiers – positive or
negative – given by items and other cards" (rulebook v1.7, Combat). Pure.

The cards whose words change a number here are listed by id with those words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue, Modifier
from companion.cthulhu.gear import SET, ItemUse, gear
from companion.cthulhu.table import Combat, Foe, MCTable, Player


@dataclass(frozen=True, slots=True)
class Part:
    """One contribution to a side: ``amount``, the card it comes from (None: the Level, a
    person's modifier) and why, in words."""

    amount: int
    card: str | None
    why: str


#: Buggoth: "Once revealed, nobody may use Class powers for the rest of the fight"
NO_CLASS_POWERS: Final = frozenset({SET + "buggoth"})
#: Joggoth: "Footgear gives no bonus in this fight"
NO_FOOTGEAR: Final = frozenset({SET + "joggoth"})
#: Foggoth: "Items give no bonus against it, except Ichor cards (normal) and fire/flame Items
#: (double)"
NO_ITEMS: Final = frozenset({SET + "foggoth"})
FIRE: Final = frozenset({SET + "flamethrower"})  #: "Counts as fire/flame"
#: Elder Globs: "Ichor cards cannot harm them, but Ichor used to strengthen them counts twice"
ICHOR_PROOF: Final = frozenset({SET + "elder-globs"})
#: Kicker Ichor: "Triples the bonus of every piece of Footgear in the combat"
KICKER: Final = SET + "kicker-ichor"
STARS_RIGHT: Final = SET + "the-stars-are-right"  #: "all monsters ... boosted by 3"
STARS_WRONG: Final = SET + "the-stars-are-wrong"  #: "lower every monster's strength by 2"
#: "ignore the bonuses/penalties printed on the monster cards"
STARS_CONFUSED: Final = SET + "the-stars-are-confused"
DUNWICH: Final = SET + "the-dunwich-snorer"  #: "+10 (instead of +3) from The Stars Are Right"
AXE: Final = SET + "prehistoric-axe"  #: "+5 instead of +2 against monsters of Level 15 or more"
SHOGULATOR: Final = SET + "shogulator"
SHOGGOTHS: Final = frozenset({SET + "shoggoth", SET + "shog-goth"})
UNNAMEABLE: Final = SET + "unnameable"  #: "+10 instead of +5 when a Professor is in the fight"
GREAT_CTHULHU: Final = SET + "great-cthulhu"  #: "+4 if any non-Cultist is fighting him"
NYUKHEES: Final = SET + "nyukhees"  #: "+4 vs the lowest-Level player (ties included)"
GNARLY: Final = SET + "gnarlythotep"  #: "-4 if facing both a Professor and an Investigator"
COGGOTH: Final = SET + "coggoth"  #: "+3 if the fighter holds an even number of hand cards"


def classes_of(player: Player, catalogue: CthulhuCatalogue) -> set[str]:
    return {str(catalogue[c.card].class_name) for c in player.classes}


def is_cultist(player: Player, catalogue: CthulhuCatalogue) -> bool:
    return "Cultist" in classes_of(player, catalogue)


def uses(table: MCTable, player: Player, catalogue: CthulhuCatalogue) -> list[ItemUse]:
    arrived = table.combat.arrived if table.combat is not None else ()
    return gear(player, classes_of(player, catalogue), catalogue, arrived)


def _in_fight(combat: Combat | None, cards: frozenset[str] | str) -> bool:
    wanted = {cards} if isinstance(cards, str) else cards
    if combat is None:
        return False
    return any(f.card in wanted for f in combat.monsters) or any(
        e.card in wanted for e in combat.effects
    )


def _top_level(combat: Combat | None, catalogue: CthulhuCatalogue) -> int | None:
    if combat is None or not combat.monsters:
        return None
    return max(catalogue[f.card].level or 0 for f in combat.monsters)


def item_parts(
    table: MCTable, player: Player, catalogue: CthulhuCatalogue, combat: Combat | None
) -> list[Part]:
    """The items in use, with what the fight makes of them."""
    parts = []
    top = _top_level(combat, catalogue)
    for use in uses(table, player, catalogue):
        if not use.in_use:
            continue
        card = catalogue[use.held.card]
        amount, why = use.bonus, use.reason or f"{card.slot or 'item'} in use"
        extra = use.bonus - (card.bonus or 0)  # an item enhancer's +2 still counts
        if use.bonus < 0:
            pass  # Curse! Weapon Becomes Evil: the penalty is the printed bonus, as is
        elif card.id == AXE and top is not None and top >= 15:
            amount, why = 5 + extra, "+5 against a monster of Level 15 or more"
        elif card.id == SHOGULATOR and combat is not None:
            value, why = _shogulator(combat, catalogue)
            amount = value + extra
        if card.slot == "footgear" and _in_fight(combat, NO_FOOTGEAR):
            amount, why = 0, "Joggoth: Footgear gives no bonus in this fight"
        elif card.slot == "footgear" and _in_fight(combat, KICKER):
            amount, why = 3 * amount, "Kicker Ichor triples Footgear"
        if _in_fight(combat, NO_ITEMS):
            fire = card.id in FIRE
            amount = 2 * amount if fire else 0
            why = "Foggoth: fire counts double" if fire else "Foggoth: items give no bonus"
        if amount or card.bonus:
            parts.append(Part(amount, card.id, why))
    return parts


def _shogulator(combat: Combat, catalogue: CthulhuCatalogue) -> tuple[int, str]:
    names = [catalogue[f.card] for f in combat.monsters]
    if any(c.id in SHOGGOTHS for c in names):
        return 10, "+10 against Shoggoth or Shog Goth"
    if any(c.name.lower().endswith("goth") for c in names):
        return 5, "+5 with another -goth in the combat"
    return 2, "+2 (no -goth here)"


def class_parts(
    table: MCTable, player: Player, catalogue: CthulhuCatalogue, combat: Combat | None
) -> list[Part]:
    """Class powers: the Cultist's "+2 in combat for each other Cultist in play" and the
    Monster Whacker's "+2 against monsters of Level 10 or lower; -2 against monsters of Level
    16 or higher" (judged against the fight's strongest monster's Level)."""
    classes = classes_of(player, catalogue)
    if _in_fight(combat, NO_CLASS_POWERS):
        return (
            [Part(0, SET + "buggoth", "Buggoth: no Class powers in this fight")] if classes else []
        )
    parts = []
    if "Cultist" in classes:
        others = sum(1 for p in table.players if p.name != player.name and is_cultist(p, catalogue))
        if others:
            parts.append(Part(2 * others, SET + "cultist", f"+2 for each other Cultist ({others})"))
    top = _top_level(combat, catalogue)
    if "Monster Whacker" in classes and top is not None:
        whack = SET + "monster-whacker"
        if top <= 10:
            parts.append(Part(2, whack, "+2 against a monster of Level 10 or lower"))
        elif top >= 16:
            parts.append(Part(-2, whack, "-2 against a monster of Level 16 or higher"))
    return parts


def player_parts(
    table: MCTable, name: str, catalogue: CthulhuCatalogue, combat: Combat | None = None
) -> list[Part]:
    """Level, items in use, class powers, kept enhancers and curses counting now."""
    player = table.player(name)
    parts = [Part(player.level, None, f"{name}'s Level")]
    parts += item_parts(table, player, catalogue, combat)
    parts += class_parts(table, player, catalogue, combat)
    parts += [
        Part(catalogue[k.card].modifier or 0, k.card, "kept by a Cultist") for k in player.kept
    ]
    if combat is not None:
        parts += [
            Part(_penalty(curse.card), curse.card, f"curse on {name} for this fight")
            for who, curse in combat.penalties
            if who == name
        ]
    return parts


#: curses that count in the victim's next fight (or this one): Change Sex "-5 in their next
#: fight", Flashlight Goes Out "-3 in the current fight (or the next one)"
PENALTIES: Final = {SET + "curse-change-sex": -5, SET + "curse-flashlight-goes-out": -3}


def _penalty(card: str) -> int:
    return PENALTIES.get(card, 0)


def strength(table: MCTable, name: str, catalogue: CthulhuCatalogue) -> int:
    """Combat strength outside a fight (or in the one in progress, if ``name`` is in it)."""
    combat = table.combat if name in table.fighting() else None
    return sum(p.amount for p in player_parts(table, name, catalogue, combat))


def players_side(table: MCTable, combat: Combat, catalogue: CthulhuCatalogue) -> list[Part]:
    parts = player_parts(table, combat.fighter, catalogue, combat)
    if combat.helper is not None:
        parts += player_parts(table, combat.helper, catalogue, combat)
    globs = _in_fight(combat, ICHOR_PROOF)
    for shot in combat.one_shots:
        card = catalogue[shot.card]
        if globs and "Ichor" in card.name:
            parts.append(Part(0, card.id, "Elder Globs: Ichor cannot harm them"))
        elif card.bonus:
            parts.append(Part(card.bonus, card.id, "one-shot for the players"))
    parts += [Part(a.amount, None, a.label) for a in combat.adjustments if a.side == "players"]
    return parts


def foe_parts(table: MCTable, combat: Combat, foe: Foe, catalogue: CthulhuCatalogue) -> list[Part]:
    """Level, enhancers, one-shots for it, printed modifiers and fight-wide cards."""
    card = catalogue[foe.card]
    fighting = [table.player(combat.fighter)]
    if combat.helper is not None:
        fighting.append(table.player(combat.helper))
    parts = [Part(card.level or 0, card.id, f"{card.name}'s Level")]
    professor = any("Professor" in classes_of(p, catalogue) for p in fighting)
    for held in foe.enhancers:
        amount = catalogue[held.card].modifier or 0
        if held.card == UNNAMEABLE and professor:
            amount = 10
        parts.append(Part(amount, held.card, f"enhancer on {card.name}"))
    for held in foe.one_shots:
        shot = catalogue[held.card]
        twice = foe.card in ICHOR_PROOF and "Ichor" in shot.name
        amount = (shot.bonus or 0) * (2 if twice else 1)
        parts.append(Part(amount, held.card, f"one-shot for {card.name}" + (" (twice)" * twice)))
    if not any(e.card == STARS_CONFUSED for e in combat.effects):
        parts += _printed(table, card.id, card.modifiers, fighting, catalogue, combat)
    for effect in combat.effects:
        if effect.card == STARS_RIGHT:
            parts.append(Part(10 if card.id == DUNWICH else 3, effect.card, "fight-wide"))
        elif effect.card == STARS_WRONG:
            parts.append(Part(-2, effect.card, "fight-wide"))
    return parts


def _printed(
    table: MCTable,
    card_id: str,
    modifiers: tuple[Modifier, ...],
    fighting: list[Player],
    catalogue: CthulhuCatalogue,
    combat: Combat,
) -> list[Part]:
    """Printed modifiers against the fighter or the helper, once even if both ("don't increase
    it twice"), and the ones whose condition the card states in words."""
    parts = []
    classes = set().union(*(classes_of(p, catalogue) for p in fighting))
    for modifier in modifiers:
        if modifier.vs_sex is not None and any(p.sex == modifier.vs_sex for p in fighting):
            parts.append(
                Part(modifier.amount, card_id, f"{modifier.amount:+} vs {modifier.vs_sex}")
            )
        elif modifier.vs_class and classes & set(modifier.vs_class):
            if card_id == GNARLY and {"Professor", "Investigator"} <= classes:
                parts.append(Part(-4, card_id, "-4 facing both a Professor and an Investigator"))
            else:
                named = " or ".join(modifier.vs_class)
                parts.append(Part(modifier.amount, card_id, f"{modifier.amount:+} vs {named}"))
    lowest = min(p.level for p in table.players)
    if card_id == GREAT_CTHULHU and any(not is_cultist(p, catalogue) for p in fighting):
        parts.append(Part(4, card_id, "+4: a non-Cultist is fighting him"))
    if card_id == NYUKHEES and any(p.level == lowest for p in fighting):
        parts.append(Part(4, card_id, "+4 vs the lowest-Level player"))
    if card_id == COGGOTH and any(
        f.card == COGGOTH and f.tag in combat.declared for f in combat.monsters
    ):
        parts.append(Part(3, card_id, "+3: the fighter holds an even number of cards"))
    return parts


def monsters_side(table: MCTable, combat: Combat, catalogue: CthulhuCatalogue) -> list[Part]:
    parts = [p for foe in combat.monsters for p in foe_parts(table, combat, foe, catalogue)]
    return parts + [
        Part(a.amount, None, a.label) for a in combat.adjustments if a.side == "monsters"
    ]


def total(parts: list[Part]) -> int:
    return sum(p.amount for p in parts)
