"""Prompts and deals whose moment has passed are withdrawn, each with a ``lapsed`` event.

Looked at after every step, but only where something a moment depends on changed: a turn
that ended takes its prompts and treasure deals with it, a card leaving play takes the
prompts about it, a scored base the prompts about it, and a finished game everything (it asks
nothing). Prompts about the physical truth wait until answered. A step that changed none of
these costs nothing here, however many deals a long night has left open. A prompt saying
there is no base at a zone is withdrawn once one lies there.
"""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.rules.game import where_is
from companion.tape.documents import Event
from companion.tape.prompts import LAPSE_WORDS, LapseReason, Prompt, withdraw_lapsed
from companion.tracker.state import Deal, Outcome, TrackerState, evolve


def sweep(before: TrackerState, outcome: Outcome, catalogue: Catalogue) -> Outcome:
    """``outcome`` (of a step from ``before``) without the prompts and deals that no longer
    apply, saying so."""
    state = outcome.state
    table = state.table
    # every open deal and prompt was made in the current turn or has lapsed (this sweep runs
    # after every step), so only a turn ending or the game ending can make them lapse by turn
    turned = table.turn != before.table.turn or bool(table.winners)
    lapsed: list[Event] = []
    prompts = state.prompts
    if turned or (table is not before.table and any(_about_cards(p) for p in state.prompts)):
        prompts, lapsed = _prompts(state)
    gone: list[Event] = []
    deals = state.deals
    if turned and deals:
        deals, gone = _deals(state, catalogue)
    if not lapsed and not gone:
        return outcome
    updated = evolve(state, prompts=prompts, deals=deals)
    return Outcome(updated, (*outcome.events, *lapsed, *gone), outcome.changed)


def _about_cards(prompt: Prompt) -> bool:
    """Whether ``prompt`` lapses when the table changes: a card or base leaves play, or a base
    comes to the zone a "no base there" prompt is about."""
    return (
        prompt.moment.card is not None or prompt.moment.base is not None or prompt.kind == "no-base"
    )


def _prompts(state: TrackerState) -> tuple[tuple[Prompt, ...], list[Event]]:
    table = state.table
    return withdraw_lapsed(
        state.prompts,
        turn=table.turn,
        over=bool(table.winners),
        in_play=lambda tag: where_is(table, tag) is not None,
        has_base=lambda zone: table.base_at(zone) is not None,
    )


def _deals(state: TrackerState, catalogue: Catalogue) -> tuple[tuple[Deal, ...], list[Event]]:
    table = state.table
    over = bool(table.winners)
    why: LapseReason = "game-over" if over else "turn-ended"
    kept = () if over else tuple(d for d in state.deals if d.turn == table.turn)
    if len(kept) == len(state.deals):
        return state.deals, []
    # a finished game lapses every open deal, and a long night's undo brings them back: this
    # can say many of them a step, so each event is built in place, one comprehension
    words = LAPSE_WORDS[why]
    cards = catalogue.cards
    gone: list[Event] = [
        {
            "event": "lapsed",
            "deal": deal.card,
            "kind": deal.kind,
            "why": why,
            "text": f"Treasures for {cards[deal.card].name} taken as dealt ({words})",
        }
        for deal in state.deals
        if over or deal.turn != table.turn
    ]
    return kept, gone
