"""Moments that trigger abilities of cards in play: a Talent used, a turn starting, a minion
going from play to the discard pile (destroyed, or with everything on a scored base).

What a card does then is its ``counters``, ``move-counters``, one-turn and ``bury`` effects
with that trigger (:func:`companion.tracker.counters.fire`). Inputs: ``talent`` (``tag``: a
minion, or an action in play, uses its Talent).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.catalogue.cards import Catalogue
from companion.rules.abilities import status
from companion.rules.game import where_is
from companion.rules.table import Base, IllegalPlayError, Minion, Table
from companion.rules.talents import talent_key
from companion.tape.documents import Line
from companion.tracker.burying import bury_effects, grant
from companion.tracker.common import event, merge, need, note
from companion.tracker.counters import Trigger, discarded, fire
from companion.tracker.state import Outcome, Rejected, TrackerState, evolve


def talent_input(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    """A minion's (or an action's) Talent is used: its talent abilities act (counters,
    burying, one-turn effects such as Teenage Wolf's +1 or Infiltrate's cancel).

    Not its controller's turn, or its use this turn spent
    (:func:`companion.rules.talents.talent_key`): a note says so and nothing is applied.

    :raises Rejected: the tag is not a minion or an action in play.
    """
    tag = str(need(line, "tag", str, "the tag of the card using its Talent")).upper()
    trigger = _talent_trigger(state.table, tag, catalogue)
    if trigger is None:
        raise Rejected(f"{tag} is not a minion or an action in play")
    try:
        key = talent_key(
            state.table,
            catalogue,
            state.used,
            tag,
            trigger.card.id,
            trigger.controller,
            trigger.zone,
        )
    except IllegalPlayError as exc:  # said to the table, and not applied
        return Outcome(state, (note(f"{exc}: not applied"),))
    used = Outcome(evolve(state, used=state.used | {key}), (event("talent", tag=tag),), True)
    outcome = merge(used, fire(used.state, trigger, "talent", catalogue))
    if trigger.controller is None or trigger.zone is None:
        return outcome
    if status(state.table, catalogue).silenced(trigger.card, tag, trigger.zone):
        return outcome
    for effect in bury_effects(trigger.card):
        if effect.on == "talent":
            outcome = merge(
                outcome,
                grant(
                    outcome.state, effect, trigger.controller, trigger.zone, trigger.card, catalogue
                ),
            )
    return outcome


def _talent_trigger(table: Table, tag: str, catalogue: Catalogue) -> Trigger | None:
    found = table.locate(tag)
    if found is not None:
        base, minion = found
        return Trigger(catalogue[minion.card], tag, minion.controller, base.zone)
    zone = where_is(table, tag)
    at = table.base_at(zone) if zone is not None else None
    if at is None:
        return None
    return _action_trigger(at, tag, catalogue)


def _action_trigger(base: Base, tag: str, catalogue: Catalogue) -> Trigger | None:
    for action in base.attached:
        if action.tag == tag:
            return Trigger(catalogue[action.card], tag, action.controller, base.zone)
    for minion in base.minions:
        for action in minion.attached:
            if action.tag == tag:
                card = catalogue[action.card]
                return Trigger(card, tag, action.controller, base.zone, bearer=minion.tag)
    return None


def start_of_turn(state: TrackerState, catalogue: Catalogue) -> Outcome:
    """The new current player's start-of-turn abilities: counters (Berserum on its bearer,
    Summon Wolves on itself) and one-turn effects (Marking Territory)."""
    player = state.table.current_player
    triggers: list[Trigger] = []
    for base in state.table.bases:
        triggers += [
            Trigger(catalogue[action.card], action.tag, player, base.zone)
            for action in base.attached
            if action.controller == player
        ]
        for minion in base.minions:
            triggers += [
                Trigger(catalogue[action.card], action.tag, player, base.zone, bearer=minion.tag)
                for action in minion.attached
                if action.controller == player
            ]
            if minion.controller == player:
                triggers.append(Trigger(catalogue[minion.card], minion.tag, player, base.zone))
    outcome = Outcome(state)
    for trigger in triggers:
        outcome = merge(outcome, fire(outcome.state, trigger, "start-of-turn", catalogue))
    return outcome


def went_to_discard(
    state: TrackerState,
    gone: Iterable[tuple[Minion, str]],
    silenced: frozenset[str],
    catalogue: Catalogue,
) -> Outcome:
    """Minions went from play to the discard pile: their own ``leave`` abilities (Igor) and
    the ``bearer-discarded`` abilities of the actions on them (Final Haiku). ``silenced``:
    tags whose abilities were cancelled just before."""
    outcome = Outcome(state)
    for minion, zone in gone:
        own = Trigger(
            catalogue[minion.card], None, minion.controller, zone, silenced=minion.tag in silenced
        )
        outcome = merge(outcome, fire(outcome.state, own, "leave", catalogue))
        for action in minion.attached:
            trigger = Trigger(
                catalogue[action.card],
                None,
                action.controller,
                zone,
                silenced=action.tag in silenced,
            )
            outcome = merge(outcome, fire(outcome.state, trigger, "bearer-discarded", catalogue))
    return outcome


def destroyed(
    state: TrackerState,
    gone: Minion,
    zone: str,
    silenced: frozenset[str],
    catalogue: Catalogue,
) -> Outcome:
    """A minion left play destroyed: its going to the discard pile, ``minion-destroyed``
    abilities of cards in play (``opponents``: only another player's minion; a here-scope:
    only at their base; ``filter`` on the minion), and Shogun-like ``other-mine-discarded``."""
    outcome = went_to_discard(state, [(gone, zone)], silenced, catalogue)
    return merge(outcome, discarded(outcome.state, [(gone, zone)], catalogue, destroyed=True))
