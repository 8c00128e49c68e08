"""Card abilities that act on the table when something happens (``companion.table_effects``):
burying and uncovering grants, destroy choices, +1 power counters and duels.

Each function takes the tracker state after the triggering event and returns an Outcome
with what was applied at once and the prompts for what people choose.
"""

from __future__ import annotations

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.table_effects import BuryEffect, DestroyEffect
from companion.rules.power import evaluate
from companion.tape.prompts import Option
from companion.tracker import burying, counters, duels
from companion.tracker.common import ask, merge
from companion.tracker.state import Outcome, TrackerState


def after_play(
    state: TrackerState,
    uid: str,
    zone: str,
    card: Card,
    controller: str,
    catalogue: Catalogue,
    uncovering: bool,
) -> Outcome:
    """The on-play abilities of ``card`` just played at ``zone`` (``uncovering``: it was
    uncovered, so a card that buries itself now resolves the rest of its text)."""
    if card.is_minion and state.table.locate(uid) is not None:
        outcome = counters.played(state, uid, zone, controller, catalogue)
    elif card.play != "minion":  # an action on a minion acts when it attaches
        trigger = counters.Trigger(card, uid, controller, zone)
        outcome = counters.fire(state, trigger, "play", catalogue)
    else:
        outcome = Outcome(state)
    outcome = merge(
        outcome, duels.started(outcome.state, card, uid, controller, zone, "play", catalogue)
    )
    base = outcome.state.table.base_at(zone)
    if card.is_minion and base is not None:
        here = catalogue[base.card]
        outcome = merge(
            outcome,
            duels.started(
                outcome.state, here, uid, controller, zone, "minion-played-here", catalogue, uid
            ),
        )
    for effect in card.effects:
        if isinstance(effect, BuryEffect) and effect.on == "play" and effect.what != "self":
            outcome = merge(outcome, burying.grant(outcome.state, effect, controller, zone, card))
        elif isinstance(effect, DestroyEffect) and (
            effect.on == "play" or (effect.on == "uncover" and uncovering)
        ):
            outcome = merge(outcome, destroy_prompt(outcome.state, effect, zone, card, catalogue))
    return outcome


def before_scoring(state: TrackerState, zone: str, catalogue: Catalogue) -> Outcome:
    """The chosen base's before-scoring abilities of cards there (Pharaoh's uncover)."""
    outcome = Outcome(state)
    base = state.table.base_at(zone)
    if base is None:
        return outcome
    for minion in base.minions:
        card = catalogue[minion.card]
        outcome = merge(
            outcome,
            duels.started(
                outcome.state,
                card,
                minion.tag,
                minion.controller,
                zone,
                "before-scoring",
                catalogue,
            ),
        )
        for effect in card.effects:
            if (
                isinstance(effect, BuryEffect)
                and effect.on == "before-scoring"
                and minion.controller is not None
            ):
                outcome = merge(
                    outcome,
                    burying.grant(outcome.state, effect, minion.controller, zone, card),
                )
    return outcome


def destroy_prompt(
    state: TrackerState, effect: DestroyEffect, zone: str, card: Card, catalogue: Catalogue
) -> Outcome:
    """Which minion at ``zone`` of power ``max_power`` or less to destroy (may: or none)."""
    if state.table.base_at(zone) is None:
        return Outcome(state)
    view = evaluate(state.table, catalogue).base(zone)
    base = state.table.base_at(zone)
    assert base is not None
    options = [
        Option(
            f"Destroy {catalogue[m.card].name} ({view.minion_power[m.tag]} power)",
            {"input": "remove", "tag": m.tag},
        )
        for m in base.minions
        if view.minion_power[m.tag] <= effect.max_power
    ]
    if not options:
        return Outcome(state)
    text = f"{card.name}: destroy a minion of power {effect.max_power} or less at {zone}?"
    return ask(state, "destroy", text, options, zone=zone)


def after_attach(
    state: TrackerState, tag: str, card_id: str, target: str, catalogue: Catalogue
) -> Outcome:
    """An action played on a minion attached to it: its on-play abilities (Ancient Curse)."""
    found = state.table.locate(target)
    if found is None:
        return Outcome(state)
    base, minion = found
    action = next((a for a in minion.attached if a.tag == tag), None)
    controller = action.controller if action is not None else None
    trigger = counters.Trigger(catalogue[card_id], tag, controller, base.zone, bearer=target)
    return counters.fire(state, trigger, "play", catalogue)
