"""Munchkin Cthulhu's tablet inputs (tape contract, plus ``run-away`` with the die roll)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.catalogue.cards import Catalogue
from companion.cthulhu import rules
from companion.cthulhu.rules import RulesError
from companion.cthulhu.state import MCOutcome, MCState, changed, checked, event, signed
from companion.errors import Rejected
from companion.tape.documents import Line, as_event
from companion.tape.lines import TagBinding
from companion.tape.prompts import DISMISS


def _player(state: MCState, line: Line) -> str:
    name = line.get("player")
    if name not in state.header.players:
        raise Rejected(
            f'"{line.get("input")}" needs "player": one of {", ".join(state.header.players)}'
        )
    return str(name)


def _int(line: Line, key: str, what: str) -> int:
    value = line.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Rejected(f'"{line.get("input")}" needs "{key}": {what}')
    return value


def help_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    name = _player(state, line)
    table = checked(lambda: rules.help_fight(state.table, name))
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
    cards = catalogue.cthulhu
    name = _player(state, line)
    roll = _int(line, "roll", "the die roll, 1 to 6")
    try:
        escaped = rules.run_away(state.table, name, roll, cards)
    except RulesError as exc:
        raise Rejected(str(exc)) from None
    assert state.table.escape is not None
    caught = "; ".join(
        f"{cards[foe.card].name}: {cards[foe.card].bad_stuff}"
        for foe in state.table.escape.monsters
    )
    text = f"{name} rolled {roll}: " + (
        "escaped" if escaped else f"caught. Bad Stuff, resolve it by hand: {caught}"
    )
    return changed(
        state,
        rules.rolled(state.table, name),
        event("ran", text, player=name, roll=roll, escaped=escaped),
    )


def level_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    name = _player(state, line)
    delta = _int(line, "delta", "a whole number of Levels (may be negative)")
    table = rules.change_level(state.table, name, delta)
    level = state.table.player(name).level
    if delta > 0 and table.player(name).level == level:  # "-" at Level 1 is Bad Stuff, kept
        raise Rejected(
            f"{name} is at Level {level}: the 10th Level comes only from killing a monster"
        )
    return changed(
        state, table, event("level", f"{name} {signed(delta)} Level", player=name, delta=delta)
    )


def sell_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    cards = catalogue.cthulhu
    name = _player(state, line)
    tags = line.get("tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) for t in tags):
        raise Rejected('"sell" needs "tags": the uids of the items sold')
    before = state.table.player(name).level
    table = checked(lambda: rules.sell(state.table, name, [t.upper() for t in tags], cards))
    gained = table.player(name).level - before
    return changed(
        state,
        table,
        event(
            "sold",
            f"{name} sold {len(tags)} item(s): +{gained} Level(s)",
            player=name,
            levels=gained,
        ),
    )


def end_turn_input(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    player = state.table.current_player
    table = checked(lambda: rules.end_turn(state.table))
    return changed(
        state,
        table,
        event(
            "turn-ended",
            f"{player}'s turn ended; {table.current_player} to play",
            player=player,
            next=table.current_player,
        ),
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
    if chosen == DISMISS:
        answered = (as_event({"event": "answered", "prompt": wanted, "option": choice}),)
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
}
