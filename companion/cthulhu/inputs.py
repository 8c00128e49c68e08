"""Munchkin Cthulhu's tablet inputs (tape contract, plus ``run-away`` with the die roll)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

from companion.catalogue.cards import Catalogue
from companion.cthulhu import badstuff, rules
from companion.cthulhu.fight_inputs import FIGHT_INPUTS
from companion.cthulhu.rules import Held, RulesError
from companion.cthulhu.sides import classes_of
from companion.cthulhu.state import MCOutcome, MCState, changed, checked, event, need_player
from companion.errors import Rejected
from companion.tape.documents import Event, Line
from companion.tape.english import signed_count
from companion.tape.lines import TagBinding
from companion.tape.prompts import DISMISS


def _int(line: Line, key: str, what: str) -> int:
    value = line.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Rejected(f'"{line.get("input")}" needs "{key}": {what}')
    return value


def help_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    name = need_player(state, line)
    table = checked(lambda: rules.help_fight(state.table, name, catalogue.cthulhu))
    return changed(state, table, event("help", f"{name} helps", player=name))


def resolve_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    cards = catalogue.cthulhu
    table = checked(lambda: rules.resolve(state.table, cards))
    result = table.last_combat
    assert result is not None
    if result.won:
        text = (
            f"{result.fighter} killed it: +{result.levels} Level(s), {result.treasures} treasure(s)"
        )
    else:
        fled = (result.fighter,) + ((result.helper,) if result.helper else ())
        text = f"{' and '.join(fled)} must run away"
    return changed(
        state,
        table,
        event("resolved", text, won=result.won, levels=result.levels, treasures=result.treasures),
    )


def run_away_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """A runner's roll against one monster (``target``, by default the next one): "If you are
    fleeing from multiple monsters, you roll separately to escape each one, in any order you
    choose, and suffer Bad Stuff from each one that catches you as soon as it catches you".
    Bad Stuff is computed where its words touch a number (:mod:`.badstuff`), otherwise shown to
    resolve by hand. A Professor who escapes a monster whose Bad Stuff includes death gains a
    Level."""
    cards = catalogue.cthulhu
    name = need_player(state, line)
    roll = _int(line, "roll", "the die roll, 1 to 6")
    target = line.get("target")
    try:
        escaped, foe = rules.run_away(
            state.table, name, roll, cards, str(target).upper() if target else None
        )
    except RulesError as exc:
        raise Rejected(str(exc)) from None
    several = len(state.table.escape.monsters) > 1 if state.table.escape else False
    table = rules.rolled(state.table, name, foe, escaped)
    monster = cards[foe.card].name
    which = f" {monster}" if several else ""
    if escaped:
        text = f"{name} rolled {roll}: escaped{which}"
        professor = "Professor" in classes_of(table.player(name), cards)
        if professor and foe.card in badstuff.DEADLY:
            table = rules.change_level(table, name, 1)
            text += " (a Professor escaping death: +1 Level)"
        return changed(state, table, event("ran", text, player=name, roll=roll, escaped=True))
    done = badstuff.caught(table, name, foe, cards)
    text = f"{name} rolled {roll}: caught" + (f" by{which}" if several else "")
    if done is None:
        text += f". Bad Stuff, resolve it by hand: {monster}: {cards[foe.card].bad_stuff}"
        return changed(state, table, event("ran", text, player=name, roll=roll, escaped=False))
    return changed(
        state,
        done.table,
        event("ran", text, player=name, roll=roll, escaped=False),
        event("bad-stuff", done.text, player=name, card=foe.card),
    )


def level_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    name = need_player(state, line)
    delta = _int(line, "delta", "a whole number of Levels (may be negative)")
    table = rules.change_level(state.table, name, delta)
    level = state.table.player(name).level
    if delta > 0 and table.player(name).level == level:  # "-" at Level 1 is Bad Stuff, kept
        raise Rejected(
            f"{name} is at Level {level}: the 10th Level comes only from killing a monster"
        )
    text = f"{name} {signed_count(delta, 'Level')}"
    return changed(state, table, event("level", text, player=name, delta=delta))


def sell_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """``tags``: items carried, or item cards from the hand ("You may sell items from your
    hand as well as those you are carrying")."""
    cards = catalogue.cthulhu
    name = need_player(state, line)
    tags = line.get("tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) for t in tags):
        raise Rejected('"sell" needs "tags": the uids of the items sold')
    held = []
    for tag in cast("list[str]", tags):  # a viewer's null never comes back as a line
        bound = state.header.tags.get(tag.upper())
        if bound is None or bound.card not in cards:
            raise Rejected(f"tag {tag.upper()} is not enrolled to a Munchkin Cthulhu card")
        held.append(Held(tag.upper(), bound.card))
    before = state.table.player(name).level
    table = checked(lambda: rules.sell(state.table, name, held, cards))
    gained = table.player(name).level - before
    text = f"{name} sold {len(tags)} item(s): +{gained} Level(s)"
    return changed(state, table, event("sold", text, player=name, levels=gained))


def end_turn_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    player = state.table.current_player
    table = checked(lambda: rules.end_turn(state.table))
    lowest = rules.lowest_levels(state.table)
    charity = (
        "discard the excess"
        if player in lowest
        else f"give the excess to {' and '.join(lowest)} (lowest Level)"
    )
    text = (
        f"{player}'s turn ended; {table.current_player} to play. Charity: with more than "
        f"five cards in hand, {player} must {charity}"
    )
    return changed(
        state,
        table,
        event("turn-ended", text, player=player, next=table.current_player),
        event("charity", f"Charity: {player} must {charity}", player=player, to=list(lowest)),
    )


def choose(state: MCState, line: Line) -> tuple[MCState, Line | None, MCOutcome]:
    """The prompt answered: the state without it, the chosen option's line to apply next
    (``None`` when it was dismissed), and the outcome of answering alone."""
    wanted, choice = line.get("prompt"), line.get("option")
    prompt = next((p for p in state.prompts if p.id == wanted), None)
    if prompt is None:
        raise Rejected(f"prompt {wanted} is not open (it was answered, undone or lapsed)")
    if not isinstance(choice, int) or not 0 <= choice < len(prompt.options):
        raise Rejected(f"prompt {wanted} has options 0 to {len(prompt.options) - 1}")
    cleared = replace(state, prompts=tuple(p for p in state.prompts if p.id != wanted))
    chosen = prompt.options[choice].line
    if chosen != DISMISS and (prompt.left is None or prompt.left > 1):  # more to choose
        again = replace(prompt, left=None if prompt.left is None else prompt.left - 1)
        cleared = replace(
            state, prompts=tuple(again if p.id == wanted else p for p in state.prompts)
        )
    if chosen == DISMISS:
        said: Event = {"event": "answered", "prompt": prompt.id, "option": choice}
        answered = (said,)
        return cleared, None, MCOutcome(cleared, answered)
    return cleared, chosen.copy(), MCOutcome(cleared)


def bind_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    cards = catalogue.cthulhu
    tag, card = line.get("tag"), line.get("card")
    if not isinstance(tag, str) or card not in cards:
        raise Rejected('"bind" needs "tag" and "card" (a Munchkin Cthulhu card id)')
    header = state.header.with_binding(tag.upper(), TagBinding(str(card)))
    return MCOutcome(
        replace(state, header=header), ({"event": "bound", "tag": tag.upper(), "card": str(card)},)
    )


def dismiss_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    return MCOutcome(state)


INPUTS: dict[str, Callable[[MCState, Line, Catalogue], MCOutcome]] = {
    "help": help_input,
    "resolve": resolve_input,
    "run-away": run_away_input,
    "level": level_input,
    "sell": sell_input,
    "end-turn": end_turn_input,
    "dismiss": dismiss_input,
    "bind": bind_input,
    **FIGHT_INPUTS,
}
