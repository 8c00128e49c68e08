"""Triggered one-turn effects and treasure draws of cards in play, for the tracker.

A card in play whose one-turn effect has an ``on`` trigger (Howler on play, Teenage Wolf's
Talent, Moot Site's first minion each turn, Marking Territory at the start of its controller's
turn, Final Haiku when its minion goes to the discard pile) resolves it when the tracker sees
that happen: :func:`companion.rules.one_turn.resolve` binds it to what it reaches then.
Treasures a card gives for a minion played there (a current Treasure Bath) are owed like a
destroyed monster's: a treasure draw and a deal.
"""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.catalogue.effects import TreasureEffect, one_turn
from companion.rules.one_turn import resolve
from companion.tape.documents import Event
from companion.tape.english import plural
from companion.tracker.common import event, note
from companion.tracker.state import Deal, Outcome, TrackerState, TreasureDraw, evolve
from companion.tracker.trigger import Trigger


def fire(state: TrackerState, trigger: Trigger, on: str, catalogue: Catalogue) -> Outcome:
    """Resolve every one-turn effect of ``trigger.card`` whose trigger is ``on``, and owe the
    treasures its ``minion-played-here`` treasure effects give."""
    outcome = Outcome(state)
    for index, effect in enumerate(trigger.card.effects):
        owes = isinstance(effect, TreasureEffect) and on == "minion-played-here"
        if getattr(effect, "on", None) != on or not (owes or one_turn(effect)):
            continue  # counters and the like are fired by their own module
        if once_used(outcome.state, trigger, effect):
            continue
        if isinstance(effect, TreasureEffect):
            outcome = _owed(outcome, trigger, effect.amount)
        else:
            outcome = _resolved(outcome, trigger, index, on, catalogue)
        if getattr(effect, "once", False):
            key = _once_key(trigger)
            outcome = outcome._replace(state=evolve(outcome.state, used=outcome.state.used | {key}))
    return outcome


def _once_key(trigger: Trigger) -> str:
    return f"{trigger.tag or trigger.zone}:{trigger.card.id}"


def once_used(state: TrackerState, trigger: Trigger, effect: object) -> bool:
    """A once-per-turn ability already used this turn (the first minion played here)."""
    return bool(getattr(effect, "once", False)) and _once_key(trigger) in state.used


def _resolved(
    outcome: Outcome, trigger: Trigger, index: int, on: str, catalogue: Catalogue
) -> Outcome:
    table = outcome.state.table
    bearer = trigger.played if on == "minion-played-here" else trigger.bearer
    if on == "bearer-discarded":
        bearer = None  # its minion has gone; what it gives reaches the ones still in play
    resolved = resolve(
        table,
        catalogue,
        trigger.card,
        index,
        trigger.controller,
        trigger.zone,
        tag=trigger.tag,
        bearer=bearer,
    )
    if resolved == table:
        return outcome
    text = f"{trigger.card.name}: {trigger.card.text or 'its effect'}"
    events: tuple[Event, ...] = (event("resolved-effect", card=trigger.card.id, text=text),)
    return Outcome(evolve(outcome.state, table=resolved), outcome.events + events, True)


def _owed(outcome: Outcome, trigger: Trigger, amount: int) -> Outcome:
    """The player who played the minion draws ``amount`` treasures."""
    found = outcome.state.table.locate(trigger.played) if trigger.played is not None else None
    player = found[1].controller if found is not None else None
    if player is None or amount <= 0:
        return outcome
    drawn = owe_treasures(outcome.state, player, amount, trigger.card.id)
    text = f"{trigger.card.name}: {player} gains {plural(amount, 'treasure')}"
    return Outcome(drawn.state, outcome.events + drawn.events + (note(text),), True)


def owe_treasures(state: TrackerState, player: str, count: int, card: str) -> Outcome:
    """``player`` draws ``count`` treasures for ``card``: recorded, and dealt by the tablet."""
    draw = TreasureDraw(player, count, card)
    deal = Deal("draw", card, (player,) * count, turn=state.table.turn)
    over = bool(state.table.winners)  # a finished game queues no deals
    updated = evolve(
        state,
        treasure_draws=(*state.treasure_draws, draw),
        deals=state.deals if over else (*state.deals, deal),
    )
    return Outcome(updated, (event("treasure-draw", player=player, count=count, card=card),), True)
