"""Munchkin Cthulhu's rules as pure functions over an immutable table (rulebook v1.7,
``shared/seeds/004_4333ef4b9454fdb3.txt``): the fight, running away, Levels, selling and the
Cultists. The table is :mod:`.table`, items in use :mod:`.gear`, each side's total
:mod:`.sides`."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue
from companion.cthulhu.gear import SET
from companion.cthulhu.sides import (
    foe_parts,
    is_cultist,
    monsters_side,
    players_side,
    total,
    uses,
)
from companion.cthulhu.table import (
    ESCAPE_ROLL,
    GOLD_PER_LEVEL,
    MAX_LEVEL,
    Combat,
    Escape,
    Foe,
    Held,
    MCTable,
    Outcome,
    Player,
    RulesError,
    new_table,
)

__all__ = ["ESCAPE_ROLL", "Held", "MCTable", "Player", "RulesError", "new_table"]

#: Gram Smoker: "Male munchkins cannot help against her"
NO_HELP_BY: Final = {SET + "gram-smoker": "male"}
#: Corrupted By Power on a player: "they get no combat help"
NO_HELP_BOONS: Final = frozenset({SET + "corrupted-by-power"})
#: Non-Euclidean Map: "Draw one extra Treasure whenever you kill a monster on your own turn"
MAP: Final = SET + "non-euclidean-map"
#: Shoes of Only Having to Run Faster Than You: "If you and another player are both trying to
#: Run Away, you escape automatically and they take -2 on their roll"
SHOES: Final = SET + "shoes-of-only-having-to-run-faster-than-you"


def foe_strength(table: MCTable, combat: Combat, foe: Foe, catalogue: CthulhuCatalogue) -> int:
    return total(foe_parts(table, combat, foe, catalogue))


def players_strength(table: MCTable, combat: Combat, catalogue: CthulhuCatalogue) -> int:
    return total(players_side(table, combat, catalogue))


def monsters_strength(table: MCTable, combat: Combat, catalogue: CthulhuCatalogue) -> int:
    return total(monsters_side(table, combat, catalogue))


def fight(table: MCTable, card_tag: Held) -> MCTable:
    """A monster at the combat pad: the current player fights it, or it joins the fight. The
    fighter's curses for their next fight count in this one."""
    if table.winners:
        raise RulesError("the game is over; undo to go on")
    combat = table.combat
    if combat is None:
        fighter = table.player(table.current_player)
        penalties = tuple((fighter.name, p) for p in fighter.penalties)
        combat = Combat(fighter=fighter.name, penalties=penalties)
        table = table.with_player(replace(fighter, penalties=()))
    wandering = combat.wandering > 0
    foe = Foe(card_tag.tag, card_tag.card, wandering=wandering)
    combat = replace(
        combat, monsters=(*combat.monsters, foe), wandering=max(0, combat.wandering - 1)
    )
    return replace(table, combat=combat, escape=None)


def enhance(table: MCTable, held: Held, target: str | None = None) -> MCTable:
    """A monster enhancer goes on the chosen monster (``target``), by default the one added
    last: "the person who plays each enhancer must choose which monster it applies to"."""
    combat = _combat(table)
    foe = _foe(combat, target)
    bare = _without_card(combat, held.tag)
    boosted = tuple(
        replace(f, enhancers=(*f.enhancers, held)) if f.tag == foe.tag else f for f in bare.monsters
    )
    return replace(table, combat=replace(bare, monsters=boosted))


def one_shot(
    table: MCTable, held: Held, side: str = "players", target: str | None = None
) -> MCTable:
    """A one-shot for the players, or for one monster ("you can "accidentally" hit your friend
    with the Ichor, and it will count against *him*")."""
    combat = _without_card(_combat(table), held.tag)
    if side == "players":
        return replace(table, combat=replace(combat, one_shots=(*combat.one_shots, held)))
    foe = _foe(combat, target)
    monsters = tuple(
        replace(f, one_shots=(*f.one_shots, held)) if f.tag == foe.tag else f
        for f in combat.monsters
    )
    return replace(table, combat=replace(combat, monsters=monsters))


def _combat(table: MCTable) -> Combat:
    if table.combat is None or not table.combat.monsters:
        raise RulesError("no monster is being fought: tap the monster at the combat pad first")
    return table.combat


def _foe(combat: Combat, target: str | None) -> Foe:
    if target is None:
        return combat.monsters[-1]
    for foe in combat.monsters:
        if foe.tag == target:
            return foe
    raise RulesError(f"{target} is not a monster in this fight")


def _without_card(combat: Combat, tag: str) -> Combat:
    """The fight without ``tag`` as an enhancer or one-shot (it is being moved)."""
    monsters = tuple(
        replace(
            f,
            enhancers=tuple(e for e in f.enhancers if e.tag != tag),
            one_shots=tuple(o for o in f.one_shots if o.tag != tag),
        )
        for f in combat.monsters
    )
    one_shots = tuple(o for o in combat.one_shots if o.tag != tag)
    return replace(combat, monsters=monsters, one_shots=one_shots)


def help_fight(table: MCTable, name: str, catalogue: CthulhuCatalogue) -> MCTable:
    """Only one player can help; a monster or a card may forbid it."""
    combat = table.combat
    if combat is None:
        raise RulesError("there is no combat to help in")
    helper = table.player(name)
    if name == combat.fighter:
        raise RulesError(f"{name} is the one fighting; choose another player to help")
    if combat.helper is not None:
        raise RulesError(f"only one player can help: {combat.helper} already does (undo first)")
    for foe in combat.monsters:
        if NO_HELP_BY.get(foe.card) == helper.sex:
            card = catalogue[foe.card]
            raise RulesError(f"{card.name}: {helper.sex} munchkins cannot help against her")
    fighter = table.player(combat.fighter)
    if any(b.card in NO_HELP_BOONS for b in fighter.boons):
        raise RulesError(f"{fighter.name} is Corrupted By Power: no combat help")
    if "no-helping" in helper.bans:
        raise RulesError(f"{name} may not help in any fight until they next gain a Level")
    if "no-asking" in fighter.bans:
        raise RulesError(f"{fighter.name} may not ask for help until they gain a Level")
    penalties = tuple((name, p) for p in helper.penalties)
    table = table.with_player(replace(helper, penalties=()))
    combat = replace(combat, helper=name, penalties=(*combat.penalties, *penalties))
    return replace(table, combat=combat)


def resolve(table: MCTable, catalogue: CthulhuCatalogue) -> MCTable:
    """Strictly stronger players kill the monsters: the fighter gains their levels (the only
    way to Level 10) and their treasures; otherwise everyone in the fight must run away."""
    combat = table.combat
    if combat is None or not combat.monsters:
        raise RulesError("there is no combat to resolve: tap a monster at the combat pad")
    won = players_strength(table, combat, catalogue) > monsters_strength(table, combat, catalogue)
    if not won:
        fled = table.fighting()
        outcome = Outcome(False, combat.fighter, combat.helper, 0, 0)
        escape = Escape(fled, combat.monsters, combat.fighter, combat.run_bonus)
        return replace(table, combat=None, last_combat=outcome, escape=escape)
    levels = sum(catalogue[f.card].levels_gained or 1 for f in combat.monsters)
    treasures = sum(_treasures(foe, catalogue) for foe in combat.monsters)
    fighter = table.player(combat.fighter)
    if combat.fighter == table.current_player and any(
        u.in_use and u.held.card == MAP for u in uses(table, fighter, catalogue)
    ):
        treasures += len(combat.monsters)
    table = change_level(table, combat.fighter, levels, by_kill=True)
    outcome = Outcome(True, combat.fighter, combat.helper, levels, treasures)
    return replace(table, combat=None, last_combat=outcome, escape=None)


def _treasures(foe: Foe, catalogue: CthulhuCatalogue) -> int:
    base = catalogue[foe.card].treasures or 0
    changed = base + sum(catalogue[e.card].treasure_change or 0 for e in foe.enhancers)
    return max(1, changed) if base else changed  # a beaten monster never yields fewer than 1


def run_away_bonus(
    table: MCTable,
    escape: Escape,
    name: str,
    catalogue: CthulhuCatalogue,
    foe: Foe | None = None,
) -> int:
    """The player's items that help (or hinder) running away, Quicker Ichor's, another
    runner's Shoes (-2), and the Run Away modifier printed on the monster rolled against
    (``foe``, by default the next one still to roll against; it applies to the fighter)."""
    items = sum(catalogue[h.card].run_away for h in table.player(name).items)
    items += escape.run_bonus
    others = [p for p in escape.players if p != name]
    if any(_has_shoes(table, p, catalogue) for p in others):
        items -= 2
    pending = escape.pending(name)
    foe = foe or (pending[0] if pending else None)
    if name != escape.fighter or foe is None:
        return items
    return items + sum(m.run_away for m in catalogue[foe.card].modifiers)


def _has_shoes(table: MCTable, name: str, catalogue: CthulhuCatalogue) -> bool:
    return any(
        u.in_use and u.held.card == SHOES for u in uses(table, table.player(name), catalogue)
    )


def run_away(
    table: MCTable, name: str, roll: int, catalogue: CthulhuCatalogue, target: str | None = None
) -> tuple[bool, Foe]:
    """Whether ``name`` escapes the monster ``target`` (by default the next one they still
    roll against) with ``roll`` (5 or more, with modifiers), and that monster."""
    escape = table.escape
    if escape is None or name not in escape.players:
        raise RulesError(f"{name} is not running away from a fight")
    if not 1 <= roll <= 6:
        raise RulesError("a die roll is 1 to 6")
    pending = escape.pending(name)
    foe = next((f for f in pending if f.tag == target), None) if target else pending[0]
    if foe is None:
        raise RulesError(f"{name} has no roll left against {target}")
    if _has_shoes(table, name, catalogue) and len(escape.players) > 1:
        return True, foe
    return roll + run_away_bonus(table, escape, name, catalogue, foe) >= ESCAPE_ROLL, foe


def rolled(table: MCTable, name: str, foe: Foe, escaped: bool = True) -> MCTable:
    """The roll of ``name`` against ``foe`` is made; a runner with no roll left is done."""
    assert table.escape is not None
    escape = table.escape
    done = replace(
        escape,
        rolled=(*escape.rolled, (name, foe.tag)),
        caught=escape.caught + (() if escaped or name in escape.caught else (name,)),
    )
    left = tuple(p for p in done.players if done.pending(p))
    return replace(table, escape=replace(done, players=left) if left else None)


# Levels


def change_level(table: MCTable, name: str, delta: int, *, by_kill: bool = False) -> MCTable:
    """Levels stay 1 to 10; the 10th only by killing a monster (which wins the game)."""
    player = table.player(name)
    ceiling = MAX_LEVEL if by_kill else max(player.level, MAX_LEVEL - 1)
    level = max(1, min(ceiling, player.level + delta))
    bans = () if level > player.level else player.bans  # "until you next gain a level"
    table = table.with_player(replace(player, level=level, bans=bans))
    if level == MAX_LEVEL and not table.winners:
        table = replace(table, winners=(name,))
    return table


def sell(table: MCTable, name: str, tags: list[Held], catalogue: CthulhuCatalogue) -> MCTable:
    """One Level per full 1,000 gold (no change given), never to Level 10; only during the
    seller's own turn and never in combat. "You may sell items from your hand as well as those
    you are carrying": ``tags`` are carried items, or item cards no one has in play."""
    player = table.player(name)
    if name != table.current_player:
        raise RulesError(
            f"{name} can sell only during their own turn; it is {table.current_player}'s turn"
        )
    if name in table.fighting() or (table.escape is not None and name in table.escape.players):
        raise RulesError(f"{name} is in combat: nobody sells during a fight")
    if player.level >= MAX_LEVEL - 1:
        raise RulesError(f"{name} is at Level {player.level}: items never buy Level 10")
    carried = {h.tag for h in player.items}
    for held in tags:
        card = catalogue[held.card]
        if card.kind not in ("item", "one-shot item"):
            raise RulesError(f"{card.name} is not an item: only items sell")
        holder = next((p.name for p in table.players if held in p.items), None)
        if held.tag not in carried and holder is not None:
            raise RulesError(f"{card.name} is {holder}'s: sell your own items")
    unknown = [catalogue[h.card].name for h in tags if catalogue[h.card].gold is None]
    if unknown:
        raise RulesError(f"the gold value of {', '.join(unknown)} is unknown: sell it by hand")
    gold = sum(catalogue[h.card].gold or 0 for h in tags)
    sold = {h.tag for h in tags}
    kept = tuple(h for h in player.items if h.tag not in sold)
    attached = tuple(a for a in player.attached if a.item not in sold)
    table = table.with_player(replace(player, items=kept, attached=attached))
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
    return replace(table, current=following, turn=table.turn + 1, escape=None, looting=None)


def lowest_levels(table: MCTable) -> tuple[str, ...]:
    """The players with the lowest Level (Charity: "give the excess to the player with the
    lowest Level")."""
    lowest = min(p.level for p in table.players)
    return tuple(p.name for p in table.players if p.level == lowest)
