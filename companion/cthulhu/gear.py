"""Which carried items are in use, and what each gives (rulebook v1.7, Items).

"You may also use only one headgear, one suit of armor, one pair of footgear, and two "1 Hand"
items (or one "2 Hands" item) . . . unless you have a card that lets you ignore these limits."
The cards that do, in their own words, are listed here by card id. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue, MCCard
from companion.cthulhu.table import Held, Player

SET: Final = "munchkin-cthulhu/"
SLOT_LIMITS: Final = {"headgear": 1, "armor": 1, "footgear": 1}
HANDS: Final = 2
HAND_SLOTS: Final = {"1 hand": 1, "2 hands": 2}
#: items worn beside another of their slot, which they do not take up
WORN_ALONGSIDE: Final = {
    SET + "fake-tentacle": "can be worn on top of other Headgear",
    SET + "galoshes": "Worn over other Footgear",
    SET + "miskatonic-university-t-shirt": "Worn alongside other Armor",
    SET + "tweed-jacket": "Worn alongside other Armor",
}
#: an item in use that gives a Hand: Tentacle, "Its owner gets one extra Hand"
EXTRA_HAND_ITEMS: Final = frozenset({SET + "tentacle"})
#: a card kept in front: Created Using Cinematic Rules, "you may use one extra Hand's worth of
#: Items"
EXTRA_HAND_BOONS: Final = frozenset({SET + "created-using-cinematic-rules"})
#: item enhancers: (bonus, Hands fewer). Of the Middle-Aged Gods: "it gets +2 and needs one
#: Hand fewer"; Official Mythos: "Attach to an Item that uses Hands: it gets +2"
ITEM_ENHANCERS: Final = {
    SET + "of-the-middle-aged-gods": (2, 1),
    SET + "official-mythos": (2, 0),
}
#: Cheat!: "you may use it despite any restriction"
CHEAT: Final = SET + "cheat"
#: "The victim's best-bonus Item turns into an equal penalty"
EVIL: Final = SET + "curse-weapon-becomes-evil"


@dataclass(frozen=True, slots=True)
class ItemUse:
    held: Held
    bonus: int
    in_use: bool
    reason: str | None  #: why it is carried but not in use (or why it counts as it does)


def _on(player: Player, tag: str) -> list[str]:
    return [a.held.card for a in player.attached if a.item == tag]


def allowed(player: Player, card: MCCard, classes: set[str], tag: str) -> str | None:
    """Why ``player`` may not use the item (class restrictions), or None; Cheat! lifts them."""
    if CHEAT in _on(player, tag):
        return None
    if card.only_for and not classes & set(card.only_for):
        return f"{' or '.join(card.only_for)} only"
    if classes & set(card.not_for):
        return f"not usable by {card.not_for[0]}"
    return None


def item_bonus(player: Player, held: Held, catalogue: CthulhuCatalogue) -> int:
    card = catalogue[held.card]
    extra = sum(ITEM_ENHANCERS[c][0] for c in _on(player, held.tag) if c in ITEM_ENHANCERS)
    return (card.bonus or 0) + extra


def hands_needed(player: Player, held: Held, catalogue: CthulhuCatalogue) -> int:
    fewer = sum(ITEM_ENHANCERS[c][1] for c in _on(player, held.tag) if c in ITEM_ENHANCERS)
    return max(0, HAND_SLOTS.get(catalogue[held.card].slot or "", 0) - fewer)


def gear(
    player: Player,
    classes: set[str],
    catalogue: CthulhuCatalogue,
    arrived: tuple[str, ...] = (),
) -> list[ItemUse]:
    """Each carried item and whether it is in use: restrictions first, then the slots, filled
    with the biggest bonuses (what a player would put on). ``arrived``: items put into play
    during the fight in progress, which do not count in it. Unknown bonuses count 0."""
    uses: dict[str, ItemUse] = {}
    ready: list[Held] = []
    for held in player.items:
        card = catalogue[held.card]
        bonus = item_bonus(player, held, catalogue)
        why = allowed(player, card, classes, held.tag)
        if EVIL in _on(player, held.tag):
            uses[held.tag] = ItemUse(held, -bonus, True, "Curse! Weapon Becomes Evil: a penalty")
        elif held.tag in arrived:
            text = "put into play during the fight: no equipping in combat"
            uses[held.tag] = ItemUse(held, bonus, False, text)
        elif why is not None:
            uses[held.tag] = ItemUse(held, bonus, False, why)
        else:
            ready.append(held)
    ranked = sorted(ready, key=lambda h: -item_bonus(player, h, catalogue))  # stable
    hands = HANDS + sum(1 for b in player.boons if b.card in EXTRA_HAND_BOONS)
    hands += sum(1 for h in ranked if h.card in EXTRA_HAND_ITEMS)
    in_hands = _best_hands(player, ranked, hands, catalogue)
    worn: dict[str, int] = {}
    for held in ranked:
        card, bonus = catalogue[held.card], item_bonus(player, held, catalogue)
        if hands_needed(player, held, catalogue) or card.slot in HAND_SLOTS:
            fits = held.tag in in_hands
            uses[held.tag] = ItemUse(held, bonus, fits, None if fits else "no free hand")
        elif card.slot in SLOT_LIMITS and held.card not in WORN_ALONGSIDE:
            fits = worn.get(card.slot, 0) < SLOT_LIMITS[card.slot]
            worn[card.slot] = worn.get(card.slot, 0) + int(fits)
            uses[held.tag] = ItemUse(
                held, bonus, fits, None if fits else f"already wearing {card.slot}"
            )
        else:  # worn alongside, "none", or a slot nobody has confirmed: nothing limits it
            uses[held.tag] = ItemUse(held, bonus, True, WORN_ALONGSIDE.get(held.card))
    return [uses[held.tag] for held in player.items]


def _best_hands(
    player: Player, ranked: list[Held], hands: int, catalogue: CthulhuCatalogue
) -> set[str]:
    """The hand items giving the most bonus within ``hands`` Hands (few items: try them all)."""
    candidates = [h for h in ranked if catalogue[h.card].slot in HAND_SLOTS][:8]
    best: tuple[int, int, tuple[Held, ...]] = (0, 0, ())
    for size in range(len(candidates) + 1):
        for chosen in combinations(candidates, size):
            need = sum(hands_needed(player, h, catalogue) for h in chosen)
            if need > hands:
                continue
            total = sum(item_bonus(player, h, catalogue) for h in chosen)
            if (total, -need) > best[:2]:
                best = (total, -need, chosen)
    return {h.tag for h in best[2]}
