"""Tablet inputs (and prompt answers): each a handler in one dispatch table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.catalogue.cards import Catalogue
from companion.errors import CompanionError
from companion.rules import game as rules
from companion.rules.abilities import status
from companion.rules.one_turn import resolve
from companion.rules.table import Table
from companion.tape.documents import Event, Line
from companion.tape.events import PlacingDocument
from companion.tape.lines import TagBinding
from companion.tape.prompts import DISMISS, Option
from companion.tracker import abilities, burying, counters, duels, moments
from companion.tracker.common import (
    ask,
    binding,
    event,
    merge,
    name_of,
    need,
    need_player,
    note,
    owner_candidates,
)
from companion.tracker.state import Deal, Outcome, Rejected, TrackerState, evolve
from companion.tracker.taps import discard, play, tap

Handler = Callable[[TrackerState, Line, Catalogue], Outcome]


def _changed(state: TrackerState, *events: Event) -> Outcome:
    return Outcome(state, events, True)


def _rules(action: Callable[[], Table]) -> Table:
    """Run a rules operation; what the table makes impossible is a rejected input."""
    try:
        return action()
    except CompanionError as exc:
        raise Rejected(str(exc)) from None


def _tag(state: TrackerState, line: Line, key: str = "tag") -> str:
    return str(need(line, key, str, "a tag uid")).upper()


def score(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    zone = need(line, "zone", str, "the zone of the base to score")
    table = _rules(lambda: rules.choose_to_score(state.table, catalogue, zone))
    base = table.base_at(zone)
    assert base is not None
    text = f"{name_of(catalogue, base.card)} is scoring: play before-scoring specials, then award"
    opened = _changed(evolve(state, table=table), event("scoring-opened", zone=zone, text=text))
    return merge(opened, abilities.before_scoring(opened.state, zone, catalogue))


def award(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    zone = state.table.scoring
    scored = state.table.base_at(zone) if zone is not None else None
    gone = scored.buried if scored is not None else ()
    silenced = status(state.table, catalogue).cancelled
    mummies = [
        (m.tag, m.controller)
        for m in (scored.minions if scored is not None else ())
        if m.controller is not None and burying.reburies_after_scoring(catalogue[m.card])
    ]
    try:
        table, result = rules.award(state.table, catalogue)
    except CompanionError as exc:
        raise Rejected(f'{exc}: tap "score" on a ready base first') from None
    pending = state.pending if state.pending is None or state.pending.zone != zone else None
    deals = state.deals
    if result.treasure_order and not table.winners:
        draft = Deal("draft", result.card, tuple(result.treasure_order), turn=table.turn)
        deals = (*deals, draft)
    updated = evolve(
        state,
        table=table,
        scorings=(*state.scorings, result),
        deals=deals,
        pending=pending,
        setup=tuple((z, n) for z, n in state.setup if z != zone),
    )
    ranking: list[PlacingDocument] = [
        {"player": p.player, "place": p.place, "vp": p.vp} for p in result.ranking
    ]
    scored_event = _changed(
        updated,
        event(
            "scored",
            zone=result.zone,
            card=result.card,
            ranking=ranking,
            treasures=list(result.treasure_order),
        ),
    )
    assert zone is not None and scored is not None
    outcome = merge(
        scored_event, burying.after_scoring(scored_event.state, gone, mummies, zone, catalogue)
    )
    winners = tuple(p.player for p in result.ranking if p.place == 1)
    golem = counters.Trigger(catalogue[scored.card], scored.tag, None, zone, winners=winners)
    outcome = merge(outcome, counters.fire(outcome.state, golem, "base-scored", catalogue))
    left = [(m, zone) for m in scored.minions]
    outcome = merge(outcome, moments.went_to_discard(outcome.state, left, silenced, catalogue))
    return merge(outcome, counters.discarded(outcome.state, left, catalogue, destroyed=False))


def dealt(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    """An open deal goes on (the oldest, or ``"deal": N``, its index in ``deals``): the next
    pick was taken, or with ``"all": true`` every remaining one (the table dealt them without
    tapping each)."""
    if not state.deals:
        raise Rejected("no treasures are waiting to be dealt")
    everything = line.get("all", False)
    if not isinstance(everything, bool):
        raise Rejected('"all" must be true or false')
    index = line.get("deal", 0)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(state.deals):
        raise Rejected(f'"deal" is the index of an open deal, 0 to {len(state.deals) - 1}')
    deal = state.deals[index]
    taken = len(deal.order) if everything else deal.taken + 1
    kept = [replace(deal, taken=taken)] if taken < len(deal.order) else []
    deals = (*state.deals[:index], *kept, *state.deals[index + 1 :])
    who = deal.order[deal.taken]
    text = (
        f"All treasures for {name_of(catalogue, deal.card)} dealt"
        if everything
        else f"{who} took a treasure ({name_of(catalogue, deal.card)})"
    )
    return _changed(
        evolve(state, deals=deals), event("treasure-dealt", card=deal.card, player=who, text=text)
    )


def end_turn(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    if state.table.scoring is not None:
        raise Rejected(f"the base at {state.table.scoring} is being scored: award it first")
    if state.table.winners:
        raise Rejected("the game is over; undo to go on")
    events = []
    if state.pending is not None:
        events.append(note(f"{name_of(catalogue, state.pending.card)} never got a target"))
    player = state.table.current_player
    table = rules.end_turn(state.table)
    updated = evolve(
        state,
        table=table,
        pending=None,
        minions_played=0,
        actions_played=0,
        bury_next=None,
        used=frozenset(),
        next_minion=(),
        duel=state.duel if state.duel is not None and state.duel.is_open else None,
    )
    events.append(event("turn-ended", player=player, next=table.current_player))
    if table.winners:
        events.append(event("game-over", winners=list(table.winners)))
        return _changed(updated, *events)
    outcome = merge(_changed(updated, *events), burying.start_of_turn(updated, catalogue))
    return merge(outcome, moments.start_of_turn(outcome.state, catalogue))


def control(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    tag = _tag(state, line)
    if "player" not in line:
        raise Rejected('"control" needs "player": a name, or null to release a monster')
    player = line["player"]
    if player is not None:
        player = need_player(state, line)
    found = state.table.locate(tag)
    if found is None:
        raise Rejected(f"{tag} is not a minion in play")
    if player is None and not catalogue[found[1].card].is_monster:
        raise Rejected("only a monster can be released (null); give the minion to a player")
    until = line.get("until")
    if until not in (None, "end-of-turn") or (until is not None and player is None):
        raise Rejected('"until" is "end-of-turn" (control taken for this turn), with a player')
    if until is not None:
        assert player is not None
        table = _rules(lambda: rules.lend(state.table, tag, player))
    else:
        table = _rules(lambda: rules.set_control(state.table, tag, player))
    return _changed(evolve(state, table=table), event("control", tag=tag, player=player))


def madness(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    player = need_player(state, line)
    delta = need(line, "delta", int, "a whole number of Madness cards (may be negative)")
    table = rules.add_madness(state.table, player, delta)
    return _changed(evolve(state, table=table), event("madness", player=player, delta=delta))


def dismiss(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    return Outcome(state)


def owner(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    """A person said whose card this is; the tap that asked is then applied again."""
    tag = _tag(state, line)
    player = need_player(state, line)
    bound = binding(state, tag)
    if bound is None:
        raise Rejected(f"tag {tag} is not enrolled")
    header = state.header.with_binding(tag, TagBinding(bound.card, player))
    updated = evolve(state, header=header)
    zone = line.get("zone")
    if isinstance(zone, str):
        return tap(updated, tag, zone, catalogue)
    return Outcome(updated, (event("owner", tag=tag, player=player),))


def bind(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    tag = _tag(state, line)
    card = need(line, "card", str, "a card id")
    if card not in catalogue:
        raise Rejected(f"unknown card id {card!r}")
    player = need_player(state, line, "owner") if line.get("owner") is not None else None
    header = state.header.with_binding(tag, TagBinding(card, player))
    return Outcome(evolve(state, header=header), (event("bound", tag=tag, card=card),))


def attach(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    tag = _tag(state, line)
    target = _tag(state, line, "target")
    bound = binding(state, tag)
    if bound is None:
        raise Rejected(f"tag {tag} is not enrolled")
    card = catalogue[bound.card]
    owners = owner_candidates(state, card, bound)
    owner_name = owners[0] if len(owners) == 1 else None
    controller = owner_name or state.table.current_player
    table = _rules(
        lambda: rules.attach_to_minion(state.table, target, tag, card.id, controller, owner_name)
    )
    attached = _changed(
        evolve(state, table=table, pending=None),
        event("attached", tag=tag, card=card.id, target=target, player=controller),
    )
    return merge(attached, abilities.after_attach(attached.state, tag, card.id, target, catalogue))


def remove(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    tag = _tag(state, line)
    bound = binding(state, tag)
    if bound is None or rules.where_is(state.table, tag) is None:
        raise Rejected(f"{tag} is not in play")
    return discard(state, tag, catalogue[bound.card], catalogue)


def remove_base(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    zone = need(line, "zone", str, "the zone of the base")
    if state.table.base_at(zone) is None:
        raise Rejected(f"there is no base at {zone}")
    if state.table.scoring == zone:
        raise Rejected(f"the base at {zone} is being scored: award it first")
    table, gone = rules.release_buried(state.table, zone)
    table = table.without_base(zone)
    removed = _changed(evolve(state, table=table), event("base-removed", zone=zone))
    return merge(removed, burying.after_scoring(removed.state, gone, [], zone, catalogue))


def replace_base(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    zone = need(line, "zone", str, "the zone of the base")
    removed = remove_base(state, {"input": "remove-base", "zone": zone}, catalogue)
    return merge(removed, tap(removed.state, _tag(state, line), zone, catalogue))


def target(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    card = need(line, "card", str, "the card id of the action")
    index = need(line, "effect", int, "the effect's index on the card")
    minion = _tag(state, line, "target")
    player = need_player(state, line)
    if card not in catalogue or not 0 <= index < len(catalogue[card].effects):
        raise Rejected(f"{card} has no effect {index}")
    if state.table.locate(minion) is None:
        raise Rejected(f"{minion} is not a minion in play")
    zone = rules.where_is(state.table, minion)
    table = resolve(state.table, catalogue, catalogue[card], index, player, zone, bearer=minion)
    return _changed(evolve(state, table=table), event("targeted", card=card, target=minion))


def declare(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    tag = _tag(state, line)
    index = need(line, "effect", int, "the effect's index on the card")
    active = _switch(line.get("on"))
    key = (tag, index)
    declared = state.table.declared | {key} if active else state.table.declared - {key}
    table = replace(state.table, declared=frozenset(declared))
    return _changed(evolve(state, table=table), event("declared", tag=tag, effect=index, on=active))


#: ``declare``'s ``"on"``: documented as true/false; the contract's first types said a string
_SWITCH_WORDS = {"true": True, "on": True, "false": False, "off": False}


def _switch(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in _SWITCH_WORDS:
        return _SWITCH_WORDS[value.lower()]
    raise Rejected('"declare" needs "on": true (the condition holds) or false (it no longer does)')


def crosstalk(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    """A card read on two zones at once (the tap filter took the first): ask where it is."""
    tag = _tag(state, line)
    zones = line.get("zones")
    if (
        not isinstance(zones, list)
        or len(zones) != 2
        or not all(z in state.header.zones for z in zones)
    ):
        raise Rejected('"crosstalk" needs "zones": the two zones that read the card')
    bound = binding(state, tag)
    name = name_of(catalogue, bound.card) if bound is not None else tag
    first, second = zones
    text = f"{name} was read on {first} and {second} at once. Where is it?"
    options = [
        Option(f"On {first}", DISMISS.copy()),
        # the tap at the first zone moved there (as the tap filter's Moved): never a second play
        Option(f"On {second}", {"input": "tap-moved", "tag": tag, "from": first, "zone": second}),
    ]
    return ask(state, "crosstalk", text, options, tag=tag, zone=second)


def uncover(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    return burying.uncover_input(state, line, catalogue, play)


def dueling_card(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    return duels.card_input(state, line, catalogue, play)


def resolve_duel(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    return duels.resolve_input(state, line, catalogue, discard)


HANDLERS: dict[str, Handler] = {
    "score": score,
    "award": award,
    "end-turn": end_turn,
    "dealt": dealt,
    "counter": counters.counter_input,
    "move-counters": counters.move_input,
    "talent": moments.talent_input,
    "duel": duels.open_input,
    "dueling-card": dueling_card,
    "resolve-duel": resolve_duel,
    "control": control,
    "madness": madness,
    "bury": burying.bury_input,
    "uncover": uncover,
    "dismiss": dismiss,
    "owner": owner,
    "bind": bind,
    "attach": attach,
    "remove": remove,
    "remove-base": remove_base,
    "replace-base": replace_base,
    "target": target,
    "declare": declare,
    "crosstalk": crosstalk,
}
