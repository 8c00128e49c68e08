"""The Munchkin Cthulhu state document (tape contract), plus what the dashboard shows: items
carried but not in use and why, both sides of a combat and the margin, who still has to run."""

from __future__ import annotations

from companion.catalogue.cthulhu import CthulhuCatalogue
from companion.cthulhu import rules, sides
from companion.cthulhu.sides import Part
from companion.cthulhu.state import MCState
from companion.cthulhu.table import Combat, Held, MCTable
from companion.tape.cthulhu_documents import LootingDocument, PartDocument
from companion.tape.documents import (
    CombatDocument,
    CthulhuDocument,
    CthulhuPlayerDocument,
    HeldDocument,
    LastCombatDocument,
    RunningDocument,
)


def state_document(state: MCState, cards: CthulhuCatalogue) -> CthulhuDocument:
    table = state.table
    return {
        "game": "munchkin-cthulhu",
        "version": state.version,
        "turn": table.turn,
        "current_player": table.current_player,
        "players": [_player(table, p.name, cards) for p in table.players],
        "combat": _combat(table, table.combat, cards) if table.combat else None,
        "last_combat": _last(table),
        "running": _running(table, cards),
        "winner": table.winners[0] if table.winners else None,
        "winners": list(table.winners),
        "prompts": [prompt.to_json() for prompt in state.prompts],
        "pending": None,
        "cultist_pile": _held(table.cultist_pile),
        "looting": _looting(table),
    }


def _held(cards: tuple[Held, ...]) -> list[HeldDocument]:
    return [{"tag": h.tag, "card": h.card} for h in cards]


def _parts(parts: list[Part]) -> list[PartDocument]:
    return [{"amount": p.amount, "card": p.card, "why": p.why} for p in parts]


def _looting(table: MCTable) -> LootingDocument | None:
    looting = table.looting
    if looting is None:
        return None
    return {
        "dead": looting.dead,
        "order": list(looting.order),
        "next": looting.next,
        "cards": _held(looting.cards),
    }


def _player(table: MCTable, name: str, cards: CthulhuCatalogue) -> CthulhuPlayerDocument:
    player = table.player(name)
    uses = sides.uses(table, player, cards)
    combat = table.combat if name in table.fighting() else None
    parts = sides.player_parts(table, name, cards, combat)
    return {
        "name": name,
        "level": player.level,
        "sex": player.sex,
        "classes": [c.card for c in player.classes],
        "items": [
            {
                "tag": use.held.tag,
                "card": use.held.card,
                "bonus": cards[use.held.card].bonus,
                "in_use": use.in_use,
                "why_not": use.reason,
            }
            for use in uses
        ],
        "gear": sum(use.bonus for use in uses if use.in_use),
        "class_bonus": sum(p.amount for p in sides.class_parts(table, player, cards, combat)),
        "kept": _held(player.kept),
        "strength": sum(p.amount for p in parts),
        "parts": _parts(parts),
        "boons": _held(player.boons),
        "attached": [
            {"tag": a.held.tag, "card": a.held.card, "item": a.item} for a in player.attached
        ],
        "penalties": _held(player.penalties),
        "bans": list(player.bans),
    }


def _combat(table: MCTable, combat: Combat, cards: CthulhuCatalogue) -> CombatDocument:
    ours = rules.players_strength(table, combat, cards)
    theirs = rules.monsters_strength(table, combat, cards)
    return {
        "fighter": combat.fighter,
        "helper": combat.helper,
        "monsters": [
            {
                "tag": foe.tag,
                "card": foe.card,
                "level": cards[foe.card].level,
                "strength": rules.foe_strength(table, combat, foe, cards),
                "enhancers": _held(foe.enhancers),
                "treasures": cards[foe.card].treasures,
                "levels_gained": cards[foe.card].levels_gained,
                "not_computed": [m.text for m in cards[foe.card].modifiers if m.text],
                "one_shots": _held(foe.one_shots),
                "wandering": foe.wandering,
                "parts": _parts(sides.foe_parts(table, combat, foe, cards)),
            }
            for foe in combat.monsters
        ],
        "one_shots": [
            {"tag": o.tag, "card": o.card, "bonus": cards[o.card].bonus} for o in combat.one_shots
        ],
        "players_strength": ours,
        "monsters_strength": theirs,
        "winning": ours > theirs,
        "margin": ours - theirs,
        "players_side": _parts(sides.players_side(table, combat, cards)),
        "monsters_side": _parts(sides.monsters_side(table, combat, cards)),
        "effects": _held(combat.effects),
        "adjustments": [
            {"side": a.side, "amount": a.amount, "label": a.label} for a in combat.adjustments
        ],
        "arrived": list(combat.arrived),
        "run_bonus": combat.run_bonus,
    }


def _last(table: MCTable) -> LastCombatDocument | None:
    last = table.last_combat
    if last is None:
        return None
    return {
        "won": last.won,
        "levels": last.levels,
        "treasures": last.treasures,
        "fighter": last.fighter,
        "helper": last.helper,
    }


def _running(table: MCTable, cards: CthulhuCatalogue) -> RunningDocument | None:
    escape = table.escape
    if escape is None:
        return None
    return {
        "players": list(escape.players),
        "needs": {
            name: rules.ESCAPE_ROLL - rules.run_away_bonus(table, escape, name, cards)
            for name in escape.players
        },
        "rolls": [
            {
                "player": name,
                "monster": foe.tag,
                "card": foe.card,
                "needs": rules.ESCAPE_ROLL - rules.run_away_bonus(table, escape, name, cards, foe),
            }
            for name in escape.players
            for foe in escape.pending(name)
        ],
        "bad_stuff": [
            {"card": foe.card, "text": cards[foe.card].bad_stuff} for foe in escape.monsters
        ],
    }


def render_text(document: CthulhuDocument, cards: CthulhuCatalogue) -> str:
    """The Munchkin Cthulhu table for a terminal."""

    def name(card_id: str) -> str:
        card = cards.get(card_id)
        return card.name if card is not None else card_id

    winners = document["winners"]
    status = (
        f"winner: {', '.join(winners)}"
        if winners
        else f"turn {document['turn']}, {document['current_player']} to play"
    )
    lines = [f"Munchkin Cthulhu - {status}", "", "Player      Level  Strength  Class"]
    for player in document["players"]:
        classes = ", ".join(name(c) for c in player["classes"]) or "-"
        lines.append(
            f"{player['name']:<10} {player['level']:>6} {player['strength']:>9}  {classes}"
        )
        for item in player["items"]:
            use = "in use" if item["in_use"] else f"carried ({item['why_not']})"
            lines.append(f"    {name(item['card'])}: {item['bonus']} - {use}")
    combat = document["combat"]
    if combat:
        monsters = ", ".join(f"{name(m['card'])} {m['strength']}" for m in combat["monsters"])
        lines += [
            "",
            f"Combat: {combat['fighter']}"
            + (f" helped by {combat['helper']}" if combat["helper"] else "")
            + f" {combat['players_strength']} against {monsters} = {combat['monsters_strength']}",
        ]
    return "\n".join(lines)
