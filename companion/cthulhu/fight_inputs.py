"""The tablet's inputs for what people play around a fight and what cards do to players
(README, Tapes): ``one-shot``, ``enhance``, ``fight-card``, ``modifier``, ``declare``, ``die``,
``lose``, ``attach``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.cthulhu import badstuff, curses, rules
from companion.cthulhu import classes as cls
from companion.cthulhu.fight import fight_card
from companion.cthulhu.rules import Held
from companion.cthulhu.seat import holder, played
from companion.cthulhu.state import MCOutcome, MCState, changed, checked, event, need_player
from companion.cthulhu.table import Adjustment
from companion.errors import Rejected
from companion.tape.documents import Line


def _held(state: MCState, line: Line, key: str = "tag") -> Held:
    tag = line.get(key)
    bound = state.header.tags.get(str(tag).upper()) if isinstance(tag, str) else None
    if bound is None:
        raise Rejected(f'"{line.get("input")}" needs "{key}": the uid of an enrolled card')
    return Held(str(tag).upper(), bound.card)


def _target(line: Line) -> str | None:
    target = line.get("target")
    return str(target).upper() if isinstance(target, str) else None


def one_shot_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """``tag``, ``side``: "players" or "monsters" (then ``target``: the monster it helps)."""
    held = _held(state, line)
    side = line.get("side", "players")
    if side not in ("players", "monsters"):
        raise Rejected('"one-shot" needs "side": "players" or "monsters"')
    table = checked(lambda: rules.one_shot(state.table, held, str(side), _target(line)))
    name = catalogue.cthulhu[held.card].name
    text = f"{name} for the {side}"
    return changed(state, table, event("one-shot", text, tag=held.tag, card=held.card, side=side))


def enhance_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """``tag`` (a monster enhancer), ``target``: the monster it goes on."""
    held = _held(state, line)
    table = checked(lambda: rules.enhance(state.table, held, _target(line)))
    text = f"{catalogue.cthulhu[held.card].name} on {_target(line) or 'the last monster'}"
    return changed(state, table, event("enhanced", text, tag=held.tag, card=held.card))


def fight_card_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """``tag`` (a fight-wide card), optionally ``target`` (a monster it removes) or ``delta``
    (Quicker Ichor's +2 or -2)."""
    held = _held(state, line)
    delta = line.get("delta", 0)
    if not isinstance(delta, int):
        raise Rejected('"delta" is +2 or -2 (Quicker Ichor)')
    return fight_card(state, held, catalogue.cthulhu, _target(line), delta)


def modifier_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """A labelled +/- on one side for what the table cannot see: ``side``, ``delta``,
    ``label``."""
    side, delta, label = line.get("side"), line.get("delta"), line.get("label")
    if side not in ("players", "monsters") or not isinstance(delta, int) or not delta:
        raise Rejected('"modifier" needs "side" ("players" or "monsters") and "delta" (not 0)')
    if not isinstance(label, str) or not label.strip():
        raise Rejected('"modifier" needs "label": what the +/- is for, in words')
    combat = state.table.combat
    if combat is None:
        raise Rejected("a modifier counts in a fight: none is on")
    added = Adjustment("players" if side == "players" else "monsters", delta, label.strip())
    table = replace(state.table, combat=replace(combat, adjustments=(*combat.adjustments, added)))
    text = f"{label.strip()}: {delta:+} to the {side}"
    return changed(state, table, event("modifier", text, side=side, delta=delta))


def declare_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """A condition the table cannot see holds (``on``: true) or not: ``tag`` (Coggoth: the
    fighter holds an even number of cards)."""
    held = _held(state, line)
    combat = state.table.combat
    if combat is None:
        raise Rejected("a declared condition counts in a fight: none is on")
    on = line.get("on", True)
    kept = tuple(t for t in combat.declared if t != held.tag)
    declared = (*kept, held.tag) if on in (True, "true", "on") else kept
    table = replace(state.table, combat=replace(combat, declared=declared))
    text = (
        f"{catalogue.cthulhu[held.card].name}: declared {'on' if held.tag in declared else 'off'}"
    )
    return changed(state, table, event("declared", text, tag=held.tag))


def die_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """``player`` dies (a card said so): stuff lost, the others loot."""
    name = need_player(state, line)
    done = badstuff.die(state.table, name, None, catalogue.cthulhu)
    table, escape = done.table, done.table.escape
    if escape is not None and name in escape.players:  # the dead run no more
        left = tuple(p for p in escape.players if p != name)
        table = replace(table, escape=replace(escape, players=left) if left else None)
    return changed(state, table, event("died", done.text, player=name))


def lose_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """A card forced ``player`` to lose ``tag`` (a class, an item, a kept enhancer)."""
    name = need_player(state, line)
    held = _held(state, line)
    found = holder(state.table, held.tag)
    if found is None or found[0].name != name:
        raise Rejected(f"{name} does not have {held.tag} in play")
    if found[1] == "classes":
        table, text = cls.lose_class(state.table, name, held.tag, catalogue.cthulhu)
    else:
        table = curses.drop(state.table, name, {held.tag})
        boons = tuple(b for b in table.player(name).boons if b.tag != held.tag)
        table = table.with_player(replace(table.player(name), boons=boons))
        text = f"{name} lost {catalogue.cthulhu[held.card].name}"
    return changed(state, table, event("lost", text, player=name, tag=held.tag))


def attach_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """``tag`` (Cheat!, an item enhancer) goes on ``target``, an item of ``player``'s."""
    name = need_player(state, line)
    held = _held(state, line)
    target = _target(line)
    if target is None:
        raise Rejected('"attach" needs "target": the item it goes on')
    cards = catalogue.cthulhu
    done = curses.attach(state.table, name, held, target, cards)
    return played(state, done, cards[held.card], name, cards, held.tag)


FIGHT_INPUTS: dict[str, Any] = {
    "one-shot": one_shot_input,
    "enhance": enhance_input,
    "fight-card": fight_card_input,
    "modifier": modifier_input,
    "declare": declare_input,
    "die": die_input,
    "lose": lose_input,
    "attach": attach_input,
}
