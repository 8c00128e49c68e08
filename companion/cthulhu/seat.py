"""What a card tapped at a player's seat does: a Class, an item (given, looted, or put into
play during a fight), a Level, a kept enhancer, a curse or another card played on the player
(:mod:`.curses`). Anything else is a note to resolve by hand, with the card's words."""

from __future__ import annotations

from dataclasses import replace

from companion.catalogue.cthulhu import CthulhuCatalogue, MCCard
from companion.cthulhu import badstuff, rules
from companion.cthulhu import classes as cls
from companion.cthulhu.curses import RULES, Played
from companion.cthulhu.rules import Held, MCTable, Player, RulesError
from companion.cthulhu.sides import is_cultist
from companion.cthulhu.state import MCOutcome, MCState, ask, changed, event
from companion.tape.documents import Line
from companion.tape.prompts import Option


def holder(table: MCTable, uid: str) -> tuple[Player, str] | None:
    """Who has the card in front of them, and as what."""
    for player in table.players:
        for group in ("classes", "items", "kept", "boons"):
            if any(h.tag == uid for h in getattr(player, group)):
                return player, group
    return None


def played(
    state: MCState, done: Played, card: MCCard, player: str, cards: CthulhuCatalogue, tag: str
) -> MCOutcome:
    """A card's computed effect, and a prompt for what is still chosen (each option a ``lose``
    or ``attach`` line)."""
    outcome = changed(
        state, done.table, event("card-played", done.text, card=card.id, player=player)
    )
    if not done.choose:
        return outcome
    options = []
    for held in done.choose:
        line: Line = {"input": done.verb, "player": player, "tag": held.tag}
        if done.verb == "attach":
            line = {"input": "attach", "player": player, "tag": tag, "target": held.tag}
        options.append(Option(cards[held.card].name, line))
    asked = ask(outcome.state, "choose-item", done.text, options, left=done.left, tag=tag)
    return MCOutcome(asked.state, outcome.events + asked.events, True)


def at_seat(
    state: MCState, held: Held, card: MCCard, name: str, cards: CthulhuCatalogue
) -> MCOutcome:
    table = state.table
    player = table.player(name)
    if table.winners:
        text = f"The game is over ({' and '.join(table.winners)} won). Undo to go on."
        return ask(state, "game-over", text)
    if card.kind == "class":
        return _take_class(state, held, card, player, cards)
    if card.kind == "item":
        return _item(state, held, card, name, cards)
    rule = RULES.get(card.id)
    if rule is not None:
        return played(state, rule(table, name, held, cards), card, name, cards, held.tag)
    if card.kind == "go-up-a-level":
        table = rules.change_level(table, name, 1)
        text = f"{name} played {card.name}: +1 Level"
        return changed(state, table, event("level", text, player=name, delta=1, card=card.id))
    if card.kind == "monster enhancer" and card.cultist_bonus and is_cultist(player, cards):
        table = table.with_player(replace(player, kept=(*player.kept, held)))
        text = f"{name} keeps {card.name}: +{card.modifier}"
        return changed(state, table, event("kept", text, player=name, tag=held.tag, card=card.id))
    if card.kind in ("monster", "monster enhancer", "one-shot item"):
        text = f"{card.name} is played at the combat pad, not at {name}'s seat."
        return ask(state, "wrong-zone", text, tag=held.tag)
    note = f"{card.name} on {name}: resolve it by hand ({card.text or 'no text known'})"
    return MCOutcome(state, (event("note", note, card=card.id),))


def _item(
    state: MCState, held: Held, card: MCCard, name: str, cards: CthulhuCatalogue
) -> MCOutcome:
    """An item into play at ``name``'s seat: from the hand, another player (a trade or a
    gift), or a corpse (looting). Put into play in a fight, it counts from the next one."""
    table = state.table
    found = holder(table, held.tag)
    if found is not None and found[0].name == name:
        return ask(state, "already-here", f"{name} already carries {card.name}.", tag=held.tag)
    looted = badstuff.loot(table, name, held.tag)
    if looted is not None:
        table = looted
    if found is not None:
        giver = found[0]
        table = table.with_player(
            replace(giver, items=tuple(h for h in giver.items if h.tag != held.tag))
        )
    player = table.player(name)
    table = table.with_player(replace(player, items=(*player.items, held)))
    text = f"{name} carries {card.name}" + (f" (from {found[0].name})" if found else "")
    if looted is not None:
        text = f"{name} looted {card.name}"
    if name in table.fighting() and table.combat is not None:
        combat = replace(table.combat, arrived=(*table.combat.arrived, held.tag))
        table = replace(table, combat=combat)
        text += ": no equipping in combat, it counts from the next fight"
    return changed(state, table, event("item", text, player=name, tag=held.tag, card=card.id))


def _take_class(
    state: MCState, held: Held, card: MCCard, player: Player, cards: CthulhuCatalogue
) -> MCOutcome:
    if any(c.tag == held.tag for c in player.classes):
        text = f"{player.name} is already a {card.class_name}."
        return ask(state, "already-here", text, tag=held.tag)
    try:
        table, text = cls.take_class(state.table, player.name, held, cards)
    except RulesError as exc:
        return ask(state, "not-allowed", str(exc), tag=held.tag)
    if table == state.table:
        return MCOutcome(state, (event("note", text),))
    return changed(state, table, event("class", text, player=player.name, card=card.id))
