"""Card abilities that act on the table when something happens (``companion.table_effects``):
burying and uncovering grants, destroy choices, +1 power counters and duels.

Each function takes the tracker state after the triggering event and returns an Outcome
with what was applied at once and the prompts for what people choose.
"""

from __future__ import annotations

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.table_effects import BuryEffect, ControlEffect, DestroyEffect
from companion.rules.abilities import status
from companion.rules.power import evaluate
from companion.rules.sources import matches
from companion.tape.documents import Line
from companion.tape.prompts import Option
from companion.tracker import burying, counters, duels
from companion.tracker.common import ask, card_label, merge, note, place_name
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
    uncovered, so a card that buries itself now resolves the rest of its text). A minion
    whose abilities are cancelled as it arrives (Last Call) does nothing, but the base's and
    the other cards' abilities still see it played."""
    silent = status(state.table, catalogue).silenced(card, uid, zone)
    if card.is_minion and state.table.locate(uid) is not None:
        outcome = counters.played(state, uid, zone, controller, catalogue)
    elif card.play != "minion":  # an action on a minion acts when it attaches
        trigger = counters.Trigger(card, uid, controller, zone)
        outcome = counters.fire(state, trigger, "play", catalogue)
    else:
        outcome = Outcome(state)
    if not silent:
        outcome = merge(
            outcome, duels.started(outcome.state, card, uid, controller, zone, "play", catalogue)
        )
    base = outcome.state.table.base_at(zone)
    here_silent = base is not None and status(state.table, catalogue).silenced(
        catalogue[base.card], base.tag, zone
    )
    if card.is_minion and base is not None and not here_silent:
        here = catalogue[base.card]
        outcome = merge(
            outcome,
            duels.started(
                outcome.state, here, uid, controller, zone, "minion-played-here", catalogue, uid
            ),
        )
    for effect in () if silent else card.effects:
        if isinstance(effect, BuryEffect) and effect.on == "play" and effect.what != "self":
            outcome = merge(
                outcome, burying.grant(outcome.state, effect, controller, zone, card, catalogue)
            )
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
    silenced = status(state.table, catalogue)
    for minion in base.minions:
        card = catalogue[minion.card]
        if silenced.silenced(card, minion.tag, zone):
            continue
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
                    burying.grant(outcome.state, effect, minion.controller, zone, card, catalogue),
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
            f"Destroy {card_label(state, catalogue, m.tag)} ({view.minion_power[m.tag]} power)",
            {"input": "remove", "tag": m.tag},
        )
        for m in base.minions
        if view.minion_power[m.tag] <= effect.max_power
    ]
    if not options:
        return Outcome(state)
    here = place_name(state, catalogue, zone)
    text = f"{card.name}: destroy a minion of power {effect.max_power} or less at {here}?"
    return ask(state, "destroy", text, options, zone=zone)


def control_prompt(
    state: TrackerState, card: Card, controller: str, catalogue: Catalogue
) -> Outcome:
    """A card that takes control of a minion (Charm: a monster, until the end of the turn):
    which one (a prompt of ``control`` lines)."""
    effect = next((e for e in card.effects if isinstance(e, ControlEffect)), None)
    if effect is None:
        return Outcome(state)
    options = []
    for _base, minion in state.table.minions():
        if minion.controller == controller or not matches(
            state.table, catalogue, minion, effect.filter
        ):
            continue
        line: Line = {"input": "control", "tag": minion.tag, "player": controller}
        if effect.duration == "turn":
            line["until"] = "end-of-turn"
        label = f"{controller} takes {card_label(state, catalogue, minion.tag, where=True)}"
        options.append(Option(label, line))
    if not options:
        return Outcome(state, (note(f"{card.name}: nothing to take control of"),))
    return ask(state, "control", f"{card.name}: which minion does {controller} take?", options)


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
