"""What a tap means at a Smash Up table (the tap rules of the tape contract)."""

from __future__ import annotations

from dataclasses import replace

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.effects import one_turn
from companion.rules import game as rules
from companion.rules.abilities import status
from companion.rules.one_turn import aims_at_one_minion, resolve
from companion.tape.documents import Event
from companion.tape.english import plural, zone_label
from companion.tape.lines import TagBinding
from companion.tape.prompts import DISMISS, Option
from companion.tracker import abilities, burying, counters, duels, moments
from companion.tracker.common import (
    ask,
    binding,
    card_label,
    event,
    merge,
    name_of,
    note,
    owner_candidates,
    place_name,
)
from companion.tracker.one_turn import owe_treasures
from companion.tracker.state import Outcome, PendingAttach, Rejected, TrackerState, evolve
from companion.tracker.words import attached_to, left_play


def tap(state: TrackerState, uid: str, zone: str, catalogue: Catalogue) -> Outcome:
    uid = uid.upper()
    if zone not in state.header.zones:
        zones = ", ".join(state.header.zones)
        raise Rejected(f"unknown zone {zone!r}; this table's zones are {zones}")
    bound = binding(state, uid)
    if bound is None:
        return ask(
            state,
            "unknown-tag",
            f"Tag {uid} is not enrolled to any card. Enrol it, then tap it again.",
            [],
            tag=uid,
            zone=zone,
        )
    if state.table.winners:
        winners = " and ".join(state.table.winners)
        return ask(state, "game-over", f"The game is over ({winners} won). Undo to go on.", [])
    pending = state.pending
    if pending is None or (pending.tag == uid and zone == "discard"):
        return _tap(state, uid, zone, catalogue[bound.card], bound, catalogue)
    first = _resolve_pending(state, uid, zone, catalogue)
    if first.changed and first.state.pending is None and _attached_now(first, uid):
        return first
    return merge(first, _tap(first.state, uid, zone, catalogue[bound.card], bound, catalogue))


def _attached_now(outcome: Outcome, uid: str) -> bool:
    return any(e.get("event") == "attached" and e.get("target") == uid for e in outcome.events)


def _resolve_pending(state: TrackerState, uid: str, zone: str, catalogue: Catalogue) -> Outcome:
    """The tap after an action played on a minion: its target, if it is a minion there."""
    pending = state.pending
    assert pending is not None
    cleared = evolve(state, pending=None)
    found = state.table.locate(uid)
    if zone == pending.zone and found is not None and found[0].zone == zone:
        table = rules.attach_to_minion(
            state.table, uid, pending.tag, pending.card, pending.controller, pending.owner
        )
        text = attached_to(name_of(catalogue, pending.card), name_of(catalogue, found[1].card))
        attached = Outcome(
            evolve(cleared, table=table),
            (event("attached", tag=pending.tag, card=pending.card, target=uid, text=text),),
            True,
        )
        return merge(
            attached,
            abilities.after_attach(attached.state, pending.tag, pending.card, uid, catalogue),
        )
    return _needs_target(cleared, pending, catalogue)


def _needs_target(state: TrackerState, pending: PendingAttach, catalogue: Catalogue) -> Outcome:
    base = state.table.base_at(pending.zone)
    minions = base.minions if base is not None else ()
    options = [
        Option(
            f"Attach to {card_label(state, catalogue, m.tag)}",
            {"input": "attach", "tag": pending.tag, "target": m.tag},
        )
        for m in minions
    ]
    options.append(Option("It was discarded", DISMISS.copy()))
    here = place_name(state, catalogue, pending.zone)
    text = f"{name_of(catalogue, pending.card)} needs a minion on {here} to attach to."
    return ask(state, "needs-target", text, options, tag=pending.tag, zone=pending.zone)


def _tap(
    state: TrackerState, uid: str, zone: str, card: Card, bound: TagBinding, catalogue: Catalogue
) -> Outcome:
    if zone == "discard":
        return discard(state, uid, card, catalogue)
    if not zone.startswith("base-"):
        text = (
            f"{card.name} was tapped at {zone_label(zone)}, which is not a base zone or the "
            "discard pad."
        )
        return ask(state, "wrong-zone", text, [], tag=uid, zone=zone)
    if card.type == "base":
        return _base(state, uid, zone, card)
    base = state.table.base_at(zone)
    if base is None:
        text = f"There is no base on {zone_label(zone)}: tap a base card there first."
        return ask(state, "no-base", text, [], tag=uid, zone=zone)
    if any(b.tag == uid for b in base.buried):
        return burying.uncover(state, uid, catalogue, play)
    buried_now = burying.bury_next_tap(state, uid, zone, card, bound, catalogue)
    if buried_now is not None:
        return buried_now
    where = rules.where_is(state.table, uid)
    if where == zone:
        text = f"{card.name} is already on {place_name(state, catalogue, zone)}."
        remove = Option("It left play", {"input": "remove", "tag": uid})
        return ask(state, "already-here", text, [remove], tag=uid, zone=zone)
    if where is not None:
        if state.table.locate(uid) is not None:
            return _move(state, uid, zone, card)
        text = (
            f"{card.name} is in play at {where} (attached or buried); it cannot be moved by a tap."
        )
        remove = Option("It left play", {"input": "remove", "tag": uid})
        return ask(state, "already-here", text, [remove], tag=uid, zone=zone)
    dueling = duels.tap(state, uid, zone, card, bound, catalogue, play)
    if dueling is not None:
        return dueling
    if card.is_monster:
        return _monster(state, uid, zone, card, catalogue)
    return play(state, uid, zone, card, bound, catalogue, extra=False)


def _base(state: TrackerState, uid: str, zone: str, card: Card) -> Outcome:
    where = rules.where_is(state.table, uid)
    current = state.table.base_at(zone)
    if where is not None:
        text = f"{card.name} is already in play at {where}."
        return ask(state, "already-here", text, [], tag=uid, zone=zone)
    if current is not None:
        text = f"{zone} already holds a base. Replace it with {card.name}?"
        option = Option(
            f"Replace it with {card.name}", {"input": "replace-base", "zone": zone, "tag": uid}
        )
        return ask(state, "base-occupied", text, [option], tag=uid, zone=zone)
    table = rules.enter_base(state.table, zone, card.id, uid)
    events = [event("base-entered", zone=zone, card=card.id, tag=uid, text=f"{card.name} entered")]
    monsters = card.monster_number or 0
    if card.monsters_per_player:
        monsters = len(state.header.players)
    elif card.set == "munchkin" and card.monster_number is None:
        events.append(note(f"{card.name}'s monster number is unknown: tap its monsters anyway"))
    updated = evolve(state, table=table).with_setup(zone, monsters)
    if monsters:
        events.append(note(f"Tap {plural(monsters, 'monster')} on {card.name}"))
    return Outcome(updated, tuple(events), True)


def _monster(state: TrackerState, uid: str, zone: str, card: Card, catalogue: Catalogue) -> Outcome:
    left = state.setup_left(zone)
    table = rules.play_minion(state.table, catalogue, zone, uid, card.id, None, None)
    kind = "monster-placed" if left > 0 else "monster-played"
    updated = evolve(state, table=table)
    if left > 0:
        updated = updated.with_setup(zone, left - 1)
    placed = Outcome(updated, (event(kind, zone=zone, card=card.id, tag=uid),), True)
    if left > 0:
        return placed  # the new base's own monsters arrive with it, before any turn's play
    # played by the current player's card: it may be the first minion played here this turn
    player = updated.table.current_player
    return merge(placed, counters.played_here(updated, uid, zone, player, catalogue))


def _move(state: TrackerState, uid: str, zone: str, card: Card) -> Outcome:
    found = state.table.locate(uid)
    assert found is not None
    table = rules.move_minion(state.table, uid, zone)
    text = f"{card.name} moved from {found[0].zone} to {zone}"
    return Outcome(
        evolve(state, table=table),
        (event("moved", tag=uid, card=card.id, origin=found[0].zone, zone=zone, text=text),),
        True,
    )


def play(
    state: TrackerState,
    uid: str,
    zone: str,
    card: Card,
    bound: TagBinding,
    catalogue: Catalogue,
    *,
    extra: bool,
    controller: str | None = None,
    uncovering: bool = False,
) -> Outcome:
    """A card from a hand (or uncovered: ``controller`` is who buried it) played at a base
    zone, then its on-play abilities (counters, burying, duels)."""
    candidates = owner_candidates(state, card, bound)
    if card.faction is not None and len(candidates) != 1 and controller is None:
        return _unknown_owner(state, uid, zone, card, candidates)
    owner = candidates[0] if len(candidates) == 1 else None
    controller = controller or (owner if owner is not None else state.table.current_player)
    if burying.buries_itself(card) and not uncovering:
        notes: list[Event] = []
        if not extra:
            state, notes = _count_play(state, controller, card, "action")
        buried = burying.bury_card(state, uid, zone, card, bound, controller, catalogue)
        return Outcome(buried.state, (*buried.events, *notes), True)
    played = _play(state, uid, zone, card, owner, controller, catalogue, extra=extra)
    if not played.changed:
        return played
    return merge(
        played,
        abilities.after_play(played.state, uid, zone, card, controller, catalogue, uncovering),
    )


def _play(
    state: TrackerState,
    uid: str,
    zone: str,
    card: Card,
    owner: str | None,
    controller: str,
    catalogue: Catalogue,
    *,
    extra: bool,
) -> Outcome:
    if card.is_minion:
        table = rules.play_minion(state.table, catalogue, zone, uid, card.id, owner, controller)
        updated = evolve(state, table=table)
        events = [event("played", tag=uid, card=card.id, zone=zone, player=controller)]
        if not extra:
            updated, notes = _count_play(updated, controller, card, "minion")
            events += notes
        return Outcome(updated, tuple(events), True)
    updated = state
    events = []
    if not extra:
        updated, events = _count_play(state, controller, card, "action")
    if card.play == "base":
        table = rules.attach_to_base(updated.table, zone, uid, card.id, controller, owner)
        events.insert(0, event("attached", tag=uid, card=card.id, zone=zone, player=controller))
        return Outcome(evolve(updated, table=table), tuple(events), True)
    if card.play == "minion":
        base = updated.table.base_at(zone)
        pending = PendingAttach(uid, card.id, zone, controller, owner)
        if base is None or not base.minions:
            return merge(
                Outcome(updated, tuple(events)), _needs_target(updated, pending, catalogue)
            )
        events.insert(0, note(f"{card.name}: now tap the minion it is played on"))
        return Outcome(evolve(updated, pending=pending), tuple(events), True)
    events.insert(0, event("action-played", tag=uid, card=card.id, zone=zone, player=controller))
    return _one_turn_effects(updated, uid, zone, card, controller, tuple(events), catalogue)


def _one_turn_effects(
    state: TrackerState,
    uid: str,
    zone: str,
    card: Card,
    controller: str,
    events: tuple[Event, ...],
    catalogue: Catalogue,
) -> Outcome:
    """A standard action's one-turn effects resolve: the ones over a scope bind to what they
    reach now, the ones aimed at one minion ask which (the table cannot see a choice made in
    words), the ones on a base stay with the base it was tapped at."""
    outcome = Outcome(state, events, True)
    for index, effect in enumerate(card.effects):
        if not one_turn(effect) or getattr(effect, "on", None) is not None:
            continue  # ongoing, or resolved by its own trigger
        if index == duels.boost_index(card):
            continue  # a duel's boost goes to its winner when the duel resolves
        if aims_at_one_minion(effect):
            prompt = _target_prompt(outcome.state, uid, card, index, controller, catalogue)
            outcome = merge(outcome, prompt)
            continue
        table = resolve(outcome.state.table, catalogue, card, index, controller, zone)
        outcome = Outcome(evolve(outcome.state, table=table), outcome.events, True)
    return merge(outcome, abilities.control_prompt(outcome.state, card, controller, catalogue))


def _target_prompt(
    state: TrackerState, uid: str, card: Card, index: int, controller: str, catalogue: Catalogue
) -> Outcome:
    options = [
        Option(
            card_label(state, catalogue, m.tag, where=True),
            {
                "input": "target",
                "card": card.id,
                "effect": index,
                "target": m.tag,
                "player": controller,
            },
        )
        for b, m in state.table.minions()
    ]
    return ask(state, "choose-target", f"Which minion does {card.name} affect?", options, tag=uid)


def _count_play(
    state: TrackerState, player: str, card: Card, kind: str
) -> tuple[TrackerState, list[Event]]:
    notes = []
    current = state.table.current_player
    if player != current:
        notes.append(note(f"{player} played {card.name} during {current}'s turn (a special?)"))
        return state, notes
    # one new state (the start-of-turn uncover is spent, one more card played), and the
    # Uncovering kept when it was spent already (most plays)
    uncovering = state.uncovering
    if uncovering.start:
        uncovering = replace(uncovering, start=False)
    if kind == "minion":
        state = evolve(state, uncovering=uncovering, minions_played=state.minions_played + 1)
        if state.minions_played > 1:
            notes.append(note(f"{player} has played {state.minions_played} minions this turn"))
    else:
        state = evolve(state, uncovering=uncovering, actions_played=state.actions_played + 1)
        if state.actions_played > 1:
            notes.append(note(f"{player} has played {state.actions_played} actions this turn"))
    return state, notes


def _unknown_owner(
    state: TrackerState, uid: str, zone: str, card: Card, candidates: list[str]
) -> Outcome:
    if candidates:
        text = f"{card.name}: more than one player has its faction. Whose card is it?"
    else:
        text = f"{card.name} belongs to a faction nobody is playing. Whose card is it?"
    players = candidates or list(state.header.players)
    options = [
        Option(f"{player}'s", {"input": "owner", "tag": uid, "player": player, "zone": zone})
        for player in players
    ]
    return ask(state, "unknown-owner", text, options, tag=uid, zone=zone)


def discard(state: TrackerState, uid: str, card: Card, catalogue: Catalogue) -> Outcome:
    """A card tapped at the discard pad leaves play (destroyed)."""
    table = state.table
    if state.pending is not None and state.pending.tag == uid:
        text = f"{card.name} was discarded without a target"
        return Outcome(evolve(state, pending=None), (note(text),), True)
    for base in table.bases:
        if base.tag == uid:
            option = Option(
                f"Remove {card.name} from play", {"input": "remove-base", "zone": base.zone}
            )
            text = (
                f"{card.name} is a base in play at {base.zone}. Remove it (an ability replaced it)?"
            )
            return ask(state, "base-at-discard", text, [option], tag=uid, zone=base.zone)
        if any(b.tag == uid for b in base.buried):
            kept = tuple(b for b in base.buried if b.tag != uid)
            updated = evolve(state, table=table.with_base(replace(base, buried=kept)))
            return Outcome(updated, (event("left", tag=uid, card=card.id, zone=base.zone),), True)
    zone = rules.where_is(table, uid)
    if zone is None:
        text = f"{card.name} is not in play, so there is nothing to remove."
        return ask(state, "not-in-play", text, [], tag=uid, zone="discard")
    found = table.locate(uid)
    silenced = status(table, catalogue).cancelled
    table, left = rules.leave_play(table, catalogue, uid)
    events = (event("left", tag=uid, card=card.id, zone=zone, text=left_play(card.name)),)
    outcome = Outcome(evolve(state, table=table), events, True)
    if left.treasure_draws > 0:
        drawn = owe_treasures(outcome.state, table.current_player, left.treasure_draws, card.id)
        outcome = merge(outcome, drawn)
    if found is not None and zone is not None:
        outcome = merge(
            outcome, moments.destroyed(outcome.state, found[1], zone, silenced, catalogue)
        )
    return outcome
