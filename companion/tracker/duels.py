"""Duels at the table (Oops rulebook p. 11), for the tracker.

* ``{"input": "duel", "challenger": T1, "challenged": T2}`` opens a duel between two minions at
  one base (``card``: the card that starts it, whose effects the duel applies; ``player``: who
  started it). Cards that start duels (Gunfighter, Sheriff, High Noon, So-So Corral...) raise a
  ``duel`` prompt whose options open it. Only one duel at a time: another is ignored, noted.
* While it is open, a card not in play tapped at its base is a dueling card, for the side whose
  controller owns it (``{"input": "dueling-card", "tag": T, "side": "challenger"|"challenged"}``
  says it outright): an action is played normally, anything else goes back to the hand.
* ``{"input": "resolve-duel"}``: the companion compares the two minions' powers; the higher wins,
  a tie makes both winners and losers. It stops without result if they are apart. The starting
  card's effects are applied (destroy, VP, a one-turn boost) or prompted (moving the loser).
"""

from __future__ import annotations

from dataclasses import replace

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.table_effects import DuelEffect
from companion.errors import CompanionError
from companion.rules import duels as rules
from companion.rules.game import add_temporary
from companion.rules.power import evaluate
from companion.rules.table import Temporary
from companion.tape.documents import Line
from companion.tape.lines import TagBinding
from companion.tape.prompts import Option
from companion.tracker import counters
from companion.tracker.common import (
    Discard,
    Play,
    ask,
    binding,
    card_label,
    event,
    merge,
    name_of,
    need,
    need_player,
    note,
    owner_candidates,
)
from companion.tracker.state import Outcome, Rejected, TrackerState, evolve

SIDES = ("challenger", "challenged")


def duel_effect(card: Card) -> DuelEffect | None:
    return next((e for e in card.effects if isinstance(e, DuelEffect)), None)


def boost_index(card: Card) -> int | None:
    """The one-turn effect a duel gives its winner (not asked for when the card is played)."""
    effect = duel_effect(card)
    return effect.boost if effect is not None else None


def open_input(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    challenger = str(need(line, "challenger", str, "the challenging minion's tag")).upper()
    challenged = str(need(line, "challenged", str, "the challenged minion's tag")).upper()
    card = line.get("card")
    if card is not None and card not in catalogue:
        raise Rejected(f"unknown card id {card!r}")
    player = need_player(state, line) if line.get("player") is not None else None
    if state.duel is not None and state.duel.is_open:
        text = "A duel is already on: two duels may not happen at once, so this one is ignored"
        return Outcome(state, (note(text),))
    try:
        duel = rules.open_duel(state.table, challenger, challenged, card, player)
    except CompanionError as exc:
        raise Rejected(str(exc)) from None
    if duel.player is None:
        found = state.table.locate(challenger)
        duel = replace(duel, player=found[1].controller if found is not None else None)
    opened = Outcome(
        evolve(state, duel=duel),
        (event("duel-opened", challenger=challenger, challenged=challenged, zone=duel.zone),),
        True,
    )
    return merge(opened, _pinkertons(opened.state, catalogue))


def _pinkertons(state: TrackerState, catalogue: Catalogue) -> Outcome:
    """``duel`` counters abilities (Pinkerton) of the duelists' controllers' cards."""
    duel = state.duel
    assert duel is not None
    outcome = Outcome(state)
    for tag in duel.minions:
        found = state.table.locate(tag)
        if found is None or found[1].controller is None:
            continue
        for base, minion in list(state.table.minions()):
            if minion.controller != found[1].controller:
                continue
            card = catalogue[minion.card]
            trigger = counters.Trigger(card, minion.tag, minion.controller, base.zone, duelist=tag)
            outcome = merge(outcome, counters.fire(outcome.state, trigger, "duel", catalogue))
    return outcome


def card_input(state: TrackerState, line: Line, catalogue: Catalogue, play: Play) -> Outcome:
    tag = str(need(line, "tag", str, "the dueling card's tag")).upper()
    side = line.get("side")
    if side not in SIDES:
        raise Rejected('"side" is "challenger" or "challenged"')
    bound = binding(state, tag)
    if bound is None:
        raise Rejected(f"tag {tag} is not enrolled")
    return place(state, tag, catalogue[bound.card], bound, side, catalogue, play)


def tap(
    state: TrackerState,
    uid: str,
    zone: str,
    card: Card,
    bound: TagBinding,
    catalogue: Catalogue,
    play: Play,
) -> Outcome | None:
    """A tap at the open duel's base of a card not in play is a dueling card; else ``None``."""
    duel = state.duel
    if duel is None or not duel.is_open or zone != duel.zone or card.type == "base":
        return None
    owners = owner_candidates(state, card, bound)
    controllers = [_controller(state, tag) for tag in duel.minions]
    sides = [side for side, who in zip(SIDES, controllers, strict=True) if who in owners]
    if len(sides) == 1:
        return place(state, uid, card, bound, sides[0], catalogue, play)
    options = [
        Option(f"{card.name} is the {side}'s", {"input": "dueling-card", "tag": uid, "side": side})
        for side in SIDES
    ]
    return ask(state, "duel", f"{card.name} is a dueling card: for which side?", options, tag=uid)


def _controller(state: TrackerState, tag: str) -> str | None:
    found = state.table.locate(tag)
    return found[1].controller if found is not None else None


def place(
    state: TrackerState,
    uid: str,
    card: Card,
    bound: TagBinding,
    side: str,
    catalogue: Catalogue,
    play: Play,
) -> Outcome:
    """A dueling card placed for one side; an action is played normally (``play``)."""

    duel = state.duel
    if duel is None or not duel.is_open:
        raise Rejected("no duel is open")
    try:
        placed = rules.place_card(
            duel, uid, card.id, "challenger" if side == SIDES[0] else "challenged"
        )
    except CompanionError as exc:
        raise Rejected(str(exc)) from None
    state = evolve(state, duel=placed)
    text = f"{card.name} is the {side}'s dueling card"
    outcome = Outcome(
        state, (event("dueling-card", tag=uid, card=card.id, side=side, text=text),), True
    )
    if not card.is_action:
        return merge(outcome, Outcome(state, (note(f"{card.name} goes back to the hand"),), True))
    player = _controller(state, placed.challenger if side == SIDES[0] else placed.challenged)
    return merge(
        outcome, play(state, uid, duel.zone, card, bound, catalogue, extra=True, controller=player)
    )


def resolve_input(
    state: TrackerState, line: Line, catalogue: Catalogue, discard: Discard
) -> Outcome:

    duel = state.duel
    if duel is None or not duel.is_open:
        raise Rejected("no duel is open")
    result = rules.resolve(state.table, catalogue, duel)
    state = evolve(state, duel=result)
    if result.status == "stopped":
        text = "The two minions are no longer together at one base: the duel stops"
        return Outcome(state, (event("duel-stopped", text=text),), True)
    assert result.powers is not None
    names = {tag: catalogue[state.table.locate(tag)[1].card].name for tag in result.minions}  # type: ignore[index]
    tie = len(result.winners) == 2
    text = "a tie: both get the duel's effects" if tie else f"{names[result.winners[0]]} wins"
    outcome = Outcome(
        state,
        (
            event(
                "duel-resolved", powers=list(result.powers), winners=list(result.winners), text=text
            ),
        ),
        True,
    )
    card = catalogue[result.card] if result.card is not None else None
    effect = duel_effect(card) if card is not None else None
    if card is None or effect is None:
        return outcome
    table = outcome.state.table
    for winner in result.winners:
        controller = _controller(outcome.state, winner)
        if controller is None:
            continue
        if effect.vp:
            table = table.add_vp(controller, effect.vp)
        if effect.boost is not None:
            table = add_temporary(
                table, Temporary(card.id, effect.boost, controller, table.turn, bearer=winner)
            )
        if effect.reward:
            outcome = merge(
                outcome,
                Outcome(outcome.state, (note(f"{card.name}: {controller} {effect.reward}"),)),
            )
    outcome = Outcome(evolve(outcome.state, table=table), outcome.events, True)
    for loser in result.losers():
        found = outcome.state.table.locate(loser)
        if found is None:
            continue
        if effect.loser == "destroy":
            outcome = merge(
                outcome, discard(outcome.state, loser, catalogue[found[1].card], catalogue)
            )
        elif effect.loser == "move":
            outcome = merge(outcome, _move_prompt(outcome.state, loser, found[0].zone, catalogue))
    return outcome


def _move_prompt(state: TrackerState, loser: str, zone: str, catalogue: Catalogue) -> Outcome:
    found = state.table.locate(loser)
    assert found is not None
    name = catalogue[found[1].card].name
    options = [
        Option(f"Move {name} to {name_of(catalogue, base.card)}", {"tap": loser, "zone": base.zone})
        for base in state.table.bases
        if base.zone != zone
    ]
    return ask(
        state, "move", f"The winner's controller moves {name} to another base", options, tag=loser
    )


def started(
    state: TrackerState,
    card: Card,
    tag: str,
    controller: str | None,
    zone: str,
    on: str,
    catalogue: Catalogue,
    played: str | None = None,
) -> Outcome:
    """``card`` may start a duel now (``on``): a prompt whose options open it."""
    effect = duel_effect(card)
    if effect is None or effect.on != on or controller is None:
        return Outcome(state)
    if state.duel is not None and state.duel.is_open:
        return Outcome(state, (note(f"{card.name}: a duel is already on, so it starts none"),))
    base = state.table.base_at(zone)
    if base is None:
        return Outcome(state)
    mine = [m for m in base.minions if m.controller == controller]
    if effect.challenger == "self":
        mine = [m for m in mine if m.tag == tag]
    elif effect.challenger == "played":
        mine = [m for m in mine if m.tag == played]
    theirs = [m for m in base.minions if m.controller is not None and m.controller != controller]
    power = evaluate(state.table, catalogue).base(zone).minion_power
    options = [
        Option(
            f"{card_label(state, catalogue, m.tag)} ({power[m.tag]}) duels "
            f"{card_label(state, catalogue, t.tag)} ({power[t.tag]})",
            {
                "input": "duel",
                "challenger": m.tag,
                "challenged": t.tag,
                "card": card.id,
                "player": controller,
            },
        )
        for m in mine
        for t in theirs
    ]
    if not options:
        return Outcome(state)
    return ask(state, "duel", f"{card.name}: start a duel?", options, tag=tag, zone=zone)
