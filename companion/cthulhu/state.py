"""Munchkin Cthulhu's tracker state, its outcomes, and the small helpers every handler uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Unpack

from companion.catalogue.cthulhu import CthulhuCatalogue
from companion.cthulhu import rules
from companion.cthulhu.rules import MCTable, RulesError
from companion.errors import Rejected
from companion.tape.documents import Event, Line
from companion.tape.events import EventFields
from companion.tape.lines import Header
from companion.tape.prompts import DISMISS, WAITING_KINDS, Moment, Option, Prompt, PromptKind


@dataclass(frozen=True)
class MCState:
    header: Header
    table: MCTable
    prompts: tuple[Prompt, ...] = ()
    next_prompt: int = 1
    version: int = 0

    @property
    def winners(self) -> tuple[str, ...]:
        return self.table.winners


@dataclass(frozen=True, slots=True)
class MCOutcome:
    state: MCState
    events: tuple[Event, ...] = ()
    changed: bool = False


def new_state(header: Header) -> MCState:
    return MCState(header=header, table=rules.new_table(header.players, dict(header.sex)))


def event(name: str, words: str, /, **fields: Unpack[EventFields]) -> Event:
    """An event of kind ``name`` said in ``words``; mypy holds ``fields`` to the declared
    keys and types."""
    return {"event": name, **fields, "text": words}


def ask(
    state: MCState,
    kind: PromptKind,
    message: str,
    options: list[Option] | None = None,
    left: int | None = 1,
    **where: Any,
) -> MCOutcome:
    if state.table.winners:  # a finished game asks nothing
        return MCOutcome(state, (event("note", message),))
    chosen = [*(options or []), Option("Ignore", DISMISS.copy())]
    moment = Moment() if kind in WAITING_KINDS else Moment(turn=state.table.turn)
    prompt = Prompt(
        state.next_prompt,
        kind,
        message,
        tuple(chosen),
        where.get("tag"),
        where.get("zone"),
        left=left,
        moment=moment,
    )
    updated = replace(state, prompts=(*state.prompts, prompt), next_prompt=state.next_prompt + 1)
    return MCOutcome(
        updated, ({"event": "prompt", "id": prompt.id, "kind": kind, "message": message},)
    )


def changed(state: MCState, table: MCTable, *events: Event) -> MCOutcome:
    return MCOutcome(replace(state, table=table), events, True)


def checked(action: Callable[[], MCTable]) -> MCTable:
    try:
        return action()
    except RulesError as exc:
        raise Rejected(str(exc)) from None


def signed(value: int | None) -> str:
    return "?" if value is None else (f"+{value}" if value >= 0 else str(value))


def after_checks(
    outcome: MCOutcome, before: MCTable, checked: MCTable, cards: CthulhuCatalogue
) -> MCOutcome:
    """The Cultist check's consequences: a Level for the only non-Cultist, the game's end."""
    events = list(outcome.events)
    after = outcome.state.table
    for old, new in zip(after.players, checked.players, strict=True):
        if new.level > old.level:
            events.append(
                event(
                    "level",
                    f"{new.name} is the only non-Cultist: +1 Level",
                    player=new.name,
                    delta=1,
                )
            )
    if checked.winners and not before.winners:
        events.append(
            event(
                "game-over", f"{' and '.join(checked.winners)} won", winners=list(checked.winners)
            )
        )
    return MCOutcome(replace(outcome.state, table=checked), tuple(events), outcome.changed)


def need_player(state: MCState, line: Line) -> str:
    """The line's ``player``, one of the game's. :raises Rejected: naming the players."""
    name = line.get("player")
    if name not in state.header.players:
        raise Rejected(
            f'"{line.get("input")}" needs "player": one of {", ".join(state.header.players)}'
        )
    return str(name)
