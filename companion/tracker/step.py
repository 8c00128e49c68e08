"""The reducer: one tape event line applied to a tracker state."""

from __future__ import annotations

from dataclasses import replace

from companion.catalogue.cards import Catalogue
from companion.tape.documents import Line
from companion.tape.prompts import DISMISS
from companion.tracker.common import event, merge, need
from companion.tracker.inputs import HANDLERS
from companion.tracker.lapse import sweep
from companion.tracker.state import Outcome, Rejected, TrackerState, evolve
from companion.tracker.taps import tap


def step(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    """Apply one event line (``undo`` is handled by :class:`~companion.tracker.Game`).

    Prompts and deals whose moment passed are then withdrawn (:mod:`.lapse`).

    :raises Rejected: for a line the tracker cannot accept; the state is unchanged.
    """
    return sweep(state, _dispatch(state, line, catalogue), catalogue)


def _dispatch(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    if "tap" in line:
        uid, zone = line.get("tap"), line.get("zone")
        if not isinstance(uid, str) or not uid or not isinstance(zone, str):
            raise Rejected('a tap needs "tap": the tag uid and "zone": where it was read')
        return tap(state, uid, zone, catalogue)
    kind = line.get("input")
    if not isinstance(kind, str):
        raise Rejected('each line needs "tap" (a read) or "input" (a tablet input)')
    if kind == "answer":
        return answer(state, line, catalogue)
    handler = HANDLERS.get(kind)
    if handler is None:
        known = ", ".join(sorted([*HANDLERS, "answer", "undo", "tap-moved"]))
        raise Rejected(f"unknown input {kind!r}; known inputs: {known}")
    return handler(state, line, catalogue)


def answer(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    """A prompt's option chosen: its line is applied like any other (one step deeper)."""
    wanted = need(line, "prompt", int, "the prompt's id")
    choice = need(line, "option", int, "the option's index")
    prompt = next((p for p in state.prompts if p.id == wanted), None)
    if prompt is None:
        raise Rejected(f"prompt {wanted} is not open (it was answered, undone or lapsed)")
    if not 0 <= choice < len(prompt.options):
        raise Rejected(f"prompt {wanted} has options 0 to {len(prompt.options) - 1}")
    chosen = prompt.options[choice].line
    if chosen != DISMISS and (prompt.left is None or prompt.left > 1):
        again = replace(prompt, left=None if prompt.left is None else prompt.left - 1)
        cleared = evolve(
            state, prompts=tuple(again if p.id == wanted else p for p in state.prompts)
        )
    else:
        cleared = evolve(state, prompts=tuple(p for p in state.prompts if p.id != wanted))
    answered = Outcome(cleared, (event("answered", prompt=wanted, option=choice),))
    if chosen == DISMISS:
        return answered
    return merge(answered, step(cleared, chosen.copy(), catalogue))
