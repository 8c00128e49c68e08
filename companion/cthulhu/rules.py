"""Munchkin Cthulhu's rules as pure functions over an immutable table (rulebook v1.7,
``shared/seeds/004_4333ef4b9454fdb3.txt``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue, MCCard, Modifier
from companion.errors import CompanionError

MAX_LEVEL: Final = 10
ESCAPE_ROLL: Final = 5  #: "You only escape on a 5 or better."
GOLD_PER_LEVEL: Final = 1000
#: how many of each slot a player can have in use (hands: 1-hand items count 1, 2-hands 2)
SLOT_LIMITS: Final = {"headgear": 1, "armor": 1, "footgear": 1}
HANDS: Final = 2


class RulesError(CompanionError):
    """What the table makes impossible; the message says what to do instead."""


@dataclass(frozen=True, slots=True)
class Held:
    """A tagged card in front of a player or in the fight."""

    tag: str
    card: str


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    sex: str | None = None
    level: int = 1
    classes: tuple[Held, ...] = ()
    items: tuple[Held, ...] = ()  #: carried, in the order they came into play
    kept: tuple[Held, ...] = ()  #: monster enhancers a Cultist keeps as a lasting bonus


@dataclass(frozen=True, slots=True)
class Foe:
    tag: str
    card: str
    enhancers: tuple[Held, ...] = ()


@dataclass(frozen=True, slots=True)
class Combat:
    fighter: str
    helper: str | None = None
    monsters: tuple[Foe, ...] = ()
    one_shots: tuple[Held, ...] = ()  #: bonuses played for the players' side


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the last combat ended (``levels`` and ``treasures`` are the fighter's)."""

    won: bool
    fighter: str
    helper: str | None
    levels: int
    treasures: int


@dataclass(frozen=True, slots=True)
class Escape:
    """Players who lost a fight and still have to roll to run away."""

    players: tuple[str, ...]
    monsters: tuple[Foe, ...]
    fighter: str = ""


@dataclass(frozen=True, slots=True)
class ItemUse:
    held: Held
    bonus: int
    in_use: bool
    reason: str | None  #: why it is carried but not in use


@dataclass(frozen=True)
class MCTable:
    players: tuple[Player, ...]
    current: int = 0
    turn: int = 1
    combat: Combat | None = None
    last_combat: Outcome | None = None
    escape: Escape | None = None
    winners: tuple[str, ...] = ()

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        raise RulesError(f"{name!r} is not playing; players: {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def current_player(self) -> str:
        return self.players[self.current].name

    def with_player(self, player: Player) -> MCTable:
        return replace(
            self, players=tuple(player if p.name == player.name else p for p in self.players)
        )


def new_table(names: tuple[str, ...], sex: dict[str, str]) -> MCTable:
    return MCTable(players=tuple(Player(name, sex.get(name)) for name in names))


# What a player is


def class_names(player: Player, catalogue: CthulhuCatalogue) -> set[str]:
    return {str(catalogue[c.card].class_name) for c in player.classes}


def is_cultist(player: Player, catalogue: CthulhuCatalogue) -> bool:
    return "Cultist" in class_names(player, catalogue)


def gear(player: Player, catalogue: CthulhuCatalogue) -> list[ItemUse]:
    """Each carried item and whether it is in use: class restrictions first, then the slots,
    filled with the biggest bonuses (what a player would put on). Unknown bonuses count 0."""
    classes = class_names(player, catalogue)
    uses: dict[str, ItemUse] = {}
    allowed: list[tuple[Held, MCCard]] = []
    for held in player.items:
        card = catalogue[held.card]
        bonus = card.bonus or 0
        if card.only_for and not classes & set(card.only_for):
            uses[held.tag] = ItemUse(held, bonus, False, f"{' or '.join(card.only_for)} only")
        elif classes & set(card.not_for):
            uses[held.tag] = ItemUse(held, bonus, False, f"not usable by {card.not_for[0]}")
        else:
            allowed.append((held, card))
    ranked = sorted(allowed, key=lambda pair: -(pair[1].bonus or 0))  # stable: first carried
    slots_used: dict[str, int] = {}
    hands = _best_hands([(h, c) for h, c in ranked if c.slot in ("1 hand", "2 hands")])
    for held, card in ranked:
        bonus = card.bonus or 0
        slot = card.slot
        if slot in ("1 hand", "2 hands"):
            fits = held.tag in hands
            reason = None if fits else "no free hand"
        elif slot in SLOT_LIMITS:
            fits = slots_used.get(slot, 0) < SLOT_LIMITS[slot]
            slots_used[slot] = slots_used.get(slot, 0) + (1 if fits else 0)
            reason = None if fits else f"already wearing {slot}"
        else:  # "none", or a slot nobody has confirmed: nothing limits it
            fits, reason = True, None
        uses[held.tag] = ItemUse(held, bonus, fits, reason)
    return [uses[held.tag] for held in player.items]


def _best_hands(candidates: list[tuple[Held, MCCard]]) -> set[str]:
    """The hand items giving the most bonus within two hands."""
    ones = [(h, c) for h, c in candidates if c.slot == "1 hand"][:2]
    twos = [(h, c) for h, c in candidates if c.slot == "2 hands"][:1]
    one_total = sum(c.bonus or 0 for _, c in ones)
    two_total = sum(c.bonus or 0 for _, c in twos)
    chosen = twos if twos and two_total > one_total else ones
    return {h.tag for h, _ in chosen}


def gear_bonus(player: Player, catalogue: CthulhuCatalogue) -> int:
    return sum(use.bonus for use in gear(player, catalogue) if use.in_use)


def class_bonus(table: MCTable, player: Player, catalogue: CthulhuCatalogue) -> int:
    """A Cultist gets +2 for each other Cultist in play."""
    if not is_cultist(player, catalogue):
        return 0
    others = sum(1 for p in table.players if p.name != player.name and is_cultist(p, catalogue))
    return 2 * others


def kept_bonus(player: Player, catalogue: CthulhuCatalogue) -> int:
    return sum(catalogue[k.card].modifier or 0 for k in player.kept)


def strength(table: MCTable, name: str, catalogue: CthulhuCatalogue) -> int:
    """Combat strength: Level plus items in use, class powers and lasting enhancers."""
    player = table.player(name)
    return (
        player.level
        + gear_bonus(player, catalogue)
        + class_bonus(table, player, catalogue)
        + kept_bonus(player, catalogue)
    )


# Combat


def foe_strength(table: MCTable, combat: Combat, foe: Foe, catalogue: CthulhuCatalogue) -> int:
    """Level, enhancers, and each printed modifier that applies to the fighter or the helper
    (once, even if it applies to both)."""
    card = catalogue[foe.card]
    total = (card.level or 0) + sum(catalogue[e.card].modifier or 0 for e in foe.enhancers)
    fighting = [table.player(combat.fighter)]
    if combat.helper is not None:
        fighting.append(table.player(combat.helper))
    for modifier in card.modifiers:
        if any(_applies(modifier, p, catalogue) for p in fighting):
            total += modifier.amount
    return total


def _applies(modifier: Modifier, player: Player, catalogue: CthulhuCatalogue) -> bool:
    if modifier.vs_sex is not None:
        return player.sex == modifier.vs_sex
    return bool(modifier.vs_class) and bool(set(modifier.vs_class) & class_names(player, catalogue))


def players_strength(table: MCTable, combat: Combat, catalogue: CthulhuCatalogue) -> int:
    total = strength(table, combat.fighter, catalogue)
    if combat.helper is not None:
        total += strength(table, combat.helper, catalogue)
    return total + sum(catalogue[o.card].bonus or 0 for o in combat.one_shots)


def monsters_strength(table: MCTable, combat: Combat, catalogue: CthulhuCatalogue) -> int:
    return sum(foe_strength(table, combat, foe, catalogue) for foe in combat.monsters)


def fight(table: MCTable, card_tag: Held) -> MCTable:
    """A monster at the combat pad: the current player fights it, or it joins the fight."""
    if table.winners:
        raise RulesError("the game is over; undo to go on")
    combat = table.combat or Combat(fighter=table.current_player)
    foe = Foe(card_tag.tag, card_tag.card)
    return replace(table, combat=replace(combat, monsters=(*combat.monsters, foe)), escape=None)


def enhance(table: MCTable, held: Held) -> MCTable:
    """A monster enhancer at the combat pad goes on the monster added last."""
    if table.combat is None or not table.combat.monsters:
        raise RulesError("no monster is being fought: tap the monster at the combat pad first")
    *earlier, last = table.combat.monsters
    boosted = replace(last, enhancers=(*last.enhancers, held))
    return replace(table, combat=replace(table.combat, monsters=(*earlier, boosted)))


def one_shot(table: MCTable, held: Held) -> MCTable:
    if table.combat is None:
        raise RulesError("one-shot items are played in a combat: start one first")
    combat = table.combat
    return replace(table, combat=replace(combat, one_shots=(*combat.one_shots, held)))


def help_fight(table: MCTable, name: str) -> MCTable:
    if table.combat is None:
        raise RulesError("there is no combat to help in")
    table.player(name)
    if name == table.combat.fighter:
        raise RulesError(f"{name} is the one fighting; choose another player to help")
    return replace(table, combat=replace(table.combat, helper=name))


def resolve(table: MCTable, catalogue: CthulhuCatalogue) -> MCTable:
    """Strictly stronger players kill the monsters: the fighter gains their levels (the only
    way to Level 10) and their treasures; otherwise everyone in the fight must run away."""
    combat = table.combat
    if combat is None or not combat.monsters:
        raise RulesError("there is no combat to resolve: tap a monster at the combat pad")
    won = players_strength(table, combat, catalogue) > monsters_strength(table, combat, catalogue)
    if not won:
        fled = (combat.fighter,) + ((combat.helper,) if combat.helper else ())
        outcome = Outcome(False, combat.fighter, combat.helper, 0, 0)
        return replace(
            table,
            combat=None,
            last_combat=outcome,
            escape=Escape(fled, combat.monsters, combat.fighter),
        )
    levels = sum(catalogue[f.card].levels_gained or 1 for f in combat.monsters)
    treasures = sum(_treasures(foe, catalogue) for foe in combat.monsters)
    table = change_level(table, combat.fighter, levels, by_kill=True)
    outcome = Outcome(True, combat.fighter, combat.helper, levels, treasures)
    return replace(table, combat=None, last_combat=outcome, escape=None)


def _treasures(foe: Foe, catalogue: CthulhuCatalogue) -> int:
    base = catalogue[foe.card].treasures or 0
    changed = base + sum(catalogue[e.card].treasure_change or 0 for e in foe.enhancers)
    return max(1, changed) if base else changed  # a beaten monster never yields fewer than 1


def run_away_bonus(table: MCTable, escape: Escape, name: str, catalogue: CthulhuCatalogue) -> int:
    """The player's items that help (or hinder) running away, and the monsters' printed Run
    Away modifiers (those apply to the fighter)."""
    items = sum(catalogue[h.card].run_away for h in table.player(name).items)
    if name != escape.fighter:
        return items
    return items + sum(m.run_away for f in escape.monsters for m in catalogue[f.card].modifiers)


def run_away(table: MCTable, name: str, roll: int, catalogue: CthulhuCatalogue) -> bool:
    """Whether ``name`` escapes with ``roll`` (5 or more, with modifiers)."""
    escape = table.escape
    if escape is None or name not in escape.players:
        raise RulesError(f"{name} is not running away from a fight")
    if not 1 <= roll <= 6:
        raise RulesError("a die roll is 1 to 6")
    return roll + run_away_bonus(table, escape, name, catalogue) >= ESCAPE_ROLL


def rolled(table: MCTable, name: str) -> MCTable:
    assert table.escape is not None
    left = tuple(p for p in table.escape.players if p != name)
    return replace(table, escape=replace(table.escape, players=left) if left else None)


# Levels


def change_level(table: MCTable, name: str, delta: int, *, by_kill: bool = False) -> MCTable:
    """Levels stay 1 to 10; the 10th only by killing a monster (which wins the game)."""
    player = table.player(name)
    ceiling = MAX_LEVEL if by_kill else max(player.level, MAX_LEVEL - 1)
    level = max(1, min(ceiling, player.level + delta))
    table = table.with_player(replace(player, level=level))
    if level == MAX_LEVEL and not table.winners:
        table = replace(table, winners=(name,))
    return table


def sell(table: MCTable, name: str, tags: list[str], catalogue: CthulhuCatalogue) -> MCTable:
    """One Level per full 1,000 gold (no change given), never to Level 10."""
    player = table.player(name)
    carried = {h.tag: h for h in player.items}
    missing = [t for t in tags if t not in carried]
    if missing:
        raise RulesError(f"{name} does not carry {', '.join(missing)}: only carried items sell")
    unknown = [
        catalogue[carried[t].card].name for t in tags if catalogue[carried[t].card].gold is None
    ]
    if unknown:
        raise RulesError(f"the gold value of {', '.join(unknown)} is unknown: sell it by hand")
    gold = sum(catalogue[carried[t].card].gold or 0 for t in tags)
    kept = tuple(h for h in player.items if h.tag not in tags)
    table = table.with_player(replace(player, items=kept))
    return change_level(table, name, gold // GOLD_PER_LEVEL)


# Cultists


def cultist_check(before: MCTable, after: MCTable, catalogue: CthulhuCatalogue) -> MCTable:
    """ "If all the players become Cultists but one, the non-Cultist player gets a level, and
    this *can* be the winning level. If ALL the players become Cultists, the game ends, and
    victory goes to the player(s) with the highest Level." (Both on becoming so.)"""
    if after.winners:
        return after
    was = sum(1 for p in before.players if is_cultist(p, catalogue))
    now = [p for p in after.players if is_cultist(p, catalogue)]
    count = len(after.players)
    if len(now) == count and was < count:
        top = max(p.level for p in after.players)
        return replace(after, winners=tuple(p.name for p in after.players if p.level == top))
    if len(now) == count - 1 and was != count - 1 and count > 1:
        odd_one = next(p for p in after.players if not is_cultist(p, catalogue))
        return change_level(after, odd_one.name, 1, by_kill=True)
    return after


def end_turn(table: MCTable) -> MCTable:
    if table.combat is not None:
        raise RulesError("a combat is on: resolve it first")
    if table.winners:
        raise RulesError("the game is over; undo to go on")
    following = (table.current + 1) % len(table.players)
    return replace(table, current=following, turn=table.turn + 1, escape=None)
