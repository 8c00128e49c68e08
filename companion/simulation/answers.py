"""How people at a table answer the tracker: every prompt at once, a duel resolved as soon as it
is on, treasures handed out right after the scoring or the kill. Used by the plausible game
(and so by ``companion simulate`` and the self-playing demo)."""

from __future__ import annotations

import random

from companion.tape.documents import Line
from companion.tape.prompts import DISMISS, Prompt, PromptKind
from companion.tracker.state import TrackerState

#: how often a table takes up an offer of each kind (the rest of the time: Ignore)
TAKE_UP: dict[PromptKind, float] = {
    "uncover": 0.6,
    "counters": 1.0,
    "duel": 0.6,
    "destroy": 0.7,
    "bury": 0.5,
    "choose-target": 1.0,
    "move": 1.0,
}
#: a counters prompt that takes any number of answers: the chance of one more
ONE_MORE = 0.5


def dismiss_index(prompt: Prompt) -> int | None:
    return next((i for i, o in enumerate(prompt.options) if o.line == DISMISS), None)


def answer(prompt: Prompt, rng: random.Random) -> Line:
    """The answer a table gives ``prompt``: one of its offers, or Ignore / Done."""
    offers = [i for i, option in enumerate(prompt.options) if option.line != DISMISS]
    take = TAKE_UP.get(prompt.kind, 0.0)
    if prompt.left is None and prompt.kind == "counters":
        take = ONE_MORE
    ignore = dismiss_index(prompt)
    if offers and (ignore is None or rng.random() < take):
        return {"input": "answer", "prompt": prompt.id, "option": rng.choice(offers)}
    return {"input": "answer", "prompt": prompt.id, "option": ignore if ignore is not None else 0}


def next_response(state: TrackerState, rng: random.Random) -> Line | None:
    """The next line the table sends on its own now (the oldest prompt's answer, resolving an
    open duel, a treasure taken), or ``None`` when nothing is waiting for people."""
    if state.prompts:
        return answer(state.prompts[0], rng)
    if state.duel is not None and state.duel.is_open:
        return {"input": "resolve-duel"}
    if state.deals:
        deal = state.deals[0]
        return {"input": "dealt", "all": True} if deal.kind == "draw" else {"input": "dealt"}
    return None
