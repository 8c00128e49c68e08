"""The tracker for Munchkin Cthulhu: tape lines in, a new state, events and prompts out.

Zones (tape contract): ``seat-N`` (the N-th player's pad), ``combat``, ``discard``. A tap's
meaning comes from the card's kind and the zone; anything the table could mean otherwise is a
prompt, never a guess.
"""

from __future__ import annotations

from dataclasses import replace

from companion.catalogue.cards import Catalogue
from companion.cthulhu import rules
from companion.cthulhu.inputs import INPUTS, choose
from companion.cthulhu.state import MCOutcome, MCState, after_checks
from companion.cthulhu.state import new_state as new_state
from companion.cthulhu.taps import tap
from companion.errors import Rejected
from companion.tape.documents import Line
from companion.tape.prompts import withdraw_lapsed


def step(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """Apply one line, then withdraw the prompts whose turn ended (or all, once it is won)."""
    return _sweep(_step(state, line, catalogue))


def _sweep(outcome: MCOutcome) -> MCOutcome:
    state = outcome.state
    table = state.table
    kept, lapsed = withdraw_lapsed(
        state.prompts, turn=table.turn, over=bool(table.winners), in_play=lambda _: True
    )
    if not lapsed:
        return outcome
    return MCOutcome(replace(state, prompts=kept), (*outcome.events, *lapsed), outcome.changed)


def _step(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    cards = catalogue.cthulhu
    if "tap" in line:
        uid, zone = line.get("tap"), line.get("zone")
        if not isinstance(uid, str) or not isinstance(zone, str):
            raise Rejected('a tap needs "tap" (the tag uid) and "zone"')
        return tap(state, uid.upper(), zone, cards)
    kind = line.get("input")
    handler = answer if kind == "answer" else INPUTS.get(str(kind))
    if handler is None:
        known = ", ".join([*INPUTS, "answer"])
        raise Rejected(f"unknown input {kind!r}; Munchkin Cthulhu takes {known}")
    before = state.table
    outcome = handler(state, line, catalogue)
    checked = rules.cultist_check(before, outcome.state.table, cards)
    return after_checks(outcome, before, checked, cards)


def answer(state: MCState, line: Line, catalogue: Catalogue) -> MCOutcome:
    """A prompt's option chosen: its line is applied like any other (one step deeper)."""
    cleared, chosen, answered = choose(state, line)
    if chosen is None:
        return answered
    return step(cleared, chosen, catalogue)
