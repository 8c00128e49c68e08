"""Burying and uncovering at the table (Oops rulebook p. 10), for the tracker.

* ``{"input": "bury", "tag": T, "zone": Z}`` buries a tagged card now (``player``: who buries
  it, by default its owner). Without ``tag`` it arms the next ``count`` taps at Z: each card
  not in play tapped there is buried (a card from a hand). ``"madness": true`` with
  ``player`` buries an untagged Madness card.
* A card that buries itself (Blessing of Anubis, Tomb Trap, You Can Take It With You) tapped
  at a base is buried there, not resolved.
* Tapping a buried card at its base, or ``{"input": "uncover", "tag": T}``, uncovers it: it is
  played at once at the same base as an extra card by its controller, or discarded if it
  cannot be played. Each player may uncover one card at the start of their turn; abilities
  grant more. The tracker notes an uncover nothing allowed, and never refuses it.
"""

from __future__ import annotations

from dataclasses import replace

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.table_effects import BuryEffect
from companion.errors import CompanionError
from companion.rules import burying as rules
from companion.rules.game import add_madness, where_is
from companion.rules.table import MADNESS, Buried
from companion.tape.documents import Event, Line
from companion.tape.english import plural
from companion.tape.lines import TagBinding
from companion.tape.prompts import Option
from companion.tracker.common import (
    Play,
    ask,
    binding,
    event,
    merge,
    name_of,
    need,
    need_player,
    note,
    owner_candidates,
    place_name,
)
from companion.tracker.state import BuryNext, Outcome, Rejected, TrackerState, Uncovering, evolve
from companion.tracker.words import buried_at

STAR_PORTAL = "oops/star-portal"
PHARAOH = "oops/pharaoh"


def bury_effects(card: Card) -> list[BuryEffect]:
    return [effect for effect in card.effects if isinstance(effect, BuryEffect)]


def buries_itself(card: Card) -> bool:
    return any(effect.what == "self" for effect in bury_effects(card))


def reburies_after_scoring(card: Card) -> bool:
    """Mummy: after its base scores it may be buried at a different base."""
    return any(e.what == "this" and e.on == "base-scored" for e in bury_effects(card))


def bury_input(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    zone = need(line, "zone", str, "the zone of the base to bury it at")
    if state.table.base_at(zone) is None:
        raise Rejected(f"there is no base at {zone} to bury a card at")
    player = need_player(state, line) if line.get("player") is not None else None
    if line.get("madness") is True:
        if player is None:
            raise Rejected('burying a Madness card needs "player": who buries it')
        tag = f"MADNESS-{state.version + 1}"
        table = rules.bury_madness(state.table, zone, player, tag)
        text = buried_at(player, place_name(state, catalogue, zone), madness=True)
        return Outcome(
            evolve(state, table=table),
            (event("buried", tag=tag, zone=zone, player=player, madness=True, text=text),),
            True,
        )
    if line.get("tag") is None:
        count = line.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise Rejected('"count" is how many cards to bury: a whole number, 1 or more')
        who = player or state.table.current_player
        armed = BuryNext(zone, who, count)
        here = place_name(state, catalogue, zone)
        text = f"{who}: tap the card{'s' if count > 1 else ''} to bury at {here} ({count})"
        return Outcome(evolve(state, bury_next=armed), (event("bury-next", text=text),), True)
    tag = str(need(line, "tag", str, "a tag uid")).upper()
    bound = binding(state, tag)
    if bound is None:
        raise Rejected(f"tag {tag} is not enrolled: enrol it before burying it")
    return bury_card(state, tag, zone, catalogue[bound.card], bound, player, catalogue)


def bury_card(
    state: TrackerState,
    tag: str,
    zone: str,
    card: Card,
    bound: TagBinding,
    player: str | None,
    catalogue: Catalogue,
) -> Outcome:
    """Bury ``tag`` at ``zone`` for ``player`` (default: its owner, else the current player)."""
    owners = owner_candidates(state, card, bound)
    owner = owners[0] if len(owners) == 1 else None
    controller = player or owner or state.table.current_player
    events: list[Event] = []
    if tag in state.uncovered:
        events.append(note(f"{card.name} was uncovered this turn: it may not be reburied at once"))
    was = where_is(state.table, tag)
    try:
        table, dropped = rules.bury(
            state.table, zone, Buried(tag=tag, card=card.id, controller=controller, owner=owner)
        )
    except CompanionError as exc:
        raise Rejected(str(exc)) from None
    for gone in dropped:
        events.append(event("left", tag=gone.tag, card=gone.card, zone=was or zone))
    events.append(event("buried", tag=tag, zone=zone, player=controller, origin=was))
    base = table.base_at(zone)
    if base is not None and base.card == STAR_PORTAL:
        events.append(note(f"Star Portal: {controller} draws 1 for the card buried there"))
    return Outcome(evolve(state, table=table), tuple(events), True)


def bury_next_tap(
    state: TrackerState, uid: str, zone: str, card: Card, bound: TagBinding, catalogue: Catalogue
) -> Outcome | None:
    """The tap buries the card if a bury from hand is armed at ``zone``; else ``None``."""
    armed = state.bury_next
    if armed is None or armed.zone != zone or card.type == "base":
        return None
    if where_is(state.table, uid) is not None:
        return None
    left = armed.left - 1
    cleared = evolve(state, bury_next=replace(armed, left=left) if left > 0 else None)
    return bury_card(cleared, uid, zone, card, bound, armed.player, catalogue)


def uncover_input(state: TrackerState, line: Line, catalogue: Catalogue, play: Play) -> Outcome:
    tag = str(need(line, "tag", str, "the tag of a buried card")).upper()
    found = rules.find_buried(state.table, tag)
    if found is None:
        raise Rejected(f"{tag} is not buried")
    return uncover(state, tag, catalogue, play)


def uncover(state: TrackerState, tag: str, catalogue: Catalogue, play: Play) -> Outcome:
    """Turn a buried card face up and play it at its base as an extra card (or discard it):
    ``play`` is the tap rules', as from a hand."""

    table, base, buried = rules.uncover(state.table, tag)
    player = buried.controller
    events: list[Event] = []
    uncovering = state.uncovering
    if uncovering.granted(player) > 0:
        uncovering = uncovering.with_grant(player, -1)
    elif uncovering.start and player == state.table.current_player:
        uncovering = replace(uncovering, start=False)
    else:
        events.append(
            note(
                f"{player} uncovered a card beyond the start-of-turn uncover: an ability allows it?"
            )
        )
    state = evolve(state, table=table, uncovering=uncovering, uncovered=state.uncovered | {tag})
    bound = binding(state, tag)
    card = catalogue.get(buried.card)
    label = card.name if card is not None else "a Madness card"
    events.append(
        event("uncovered", tag=tag, card=buried.card, zone=base.zone, text=f"{label} uncovered")
    )
    for _base, minion in state.table.minions():
        if minion.card == PHARAOH and minion.controller is not None:
            events.append(note(f"Pharaoh: {minion.controller} draws 1 ({label} was uncovered)"))
    uncovered = Outcome(state, tuple(events), True)
    if buried.card == MADNESS:  # back to its controller's discard: held again
        table = add_madness(state.table, player, 1)
        return merge(uncovered, _discarded(evolve(state, table=table), tag, label, "resolve it"))
    if card is None or bound is None:
        return merge(uncovered, _discarded(state, tag, label, "it is not a card the tracker plays"))
    reason = _cannot_play(state, card, base.zone)
    if reason is not None:
        return merge(uncovered, _discarded(state, tag, card.name, reason))
    return merge(
        uncovered,
        play(
            state,
            tag,
            base.zone,
            card,
            bound,
            catalogue,
            extra=True,
            controller=player,
            uncovering=True,
        ),
    )


def _cannot_play(state: TrackerState, card: Card, zone: str) -> str | None:
    """Why an uncovered card cannot be played there (then it is discarded), or ``None``."""
    if card.type == "action" and card.play == "minion":
        base = state.table.base_at(zone)
        if base is None or not base.minions:
            return "there is no minion at its base to play it on"
    special_only = (card.text or "").startswith("Special") and card.type == "action"
    if special_only and state.table.scoring != zone:
        return "it can only be played before a base scores"
    return None


def _discarded(state: TrackerState, tag: str, name: str, reason: str) -> Outcome:
    return Outcome(
        state, (event("discarded", tag=tag, text=f"{name} is discarded: {reason}"),), True
    )


def start_of_turn(state: TrackerState, catalogue: Catalogue) -> Outcome:
    """A new turn: its player may uncover one of their buried cards (a prompt, if any)."""
    player = state.table.current_player
    state = evolve(state, uncovering=Uncovering(), uncovered=frozenset())
    options = uncover_options(state, player, None, catalogue)
    if not options:
        return Outcome(state)
    text = f"Start of {player}'s turn: uncover one of your buried cards?"
    return ask(state, "uncover", text, options)


def uncover_options(
    state: TrackerState, player: str, zone: str | None, catalogue: Catalogue
) -> list[Option]:
    """One option per card ``player`` has buried (at ``zone``, or anywhere). Labels name the
    base and a number, never the card: the tablet is seen by everyone."""
    options = []
    for base in state.table.bases:
        if zone is not None and base.zone != zone:
            continue
        mine = [b for b in base.buried if b.controller == player]
        for number, buried in enumerate(mine, start=1):
            options.append(
                Option(
                    f"Uncover buried card {number} of {len(mine)} "
                    f"at {name_of(catalogue, base.card)}",
                    {"input": "uncover", "tag": buried.tag},
                )
            )
    return options


def grant(
    state: TrackerState,
    effect: BuryEffect,
    player: str,
    zone: str,
    source: Card,
    catalogue: Catalogue,
) -> Outcome:
    """An ability lets ``player`` bury or uncover cards: allow it and prompt."""
    where = zone if effect.where == "here" else None
    options: list[Option] = []
    if effect.what in ("uncover", "either"):
        state = evolve(state, uncovering=state.uncovering.with_grant(player, effect.count))
        options += uncover_options(state, player, where, catalogue)
    if effect.what in ("hand", "either"):
        zones = [zone] if where is not None else [b.zone for b in state.table.bases]
        options += [
            Option(
                f"Bury {effect.count} card{'s' if effect.count > 1 else ''} from hand "
                f"at {place_name(state, catalogue, z)}",
                {"input": "bury", "zone": z, "player": player, "count": effect.count},
            )
            for z in zones
        ]
    if not options:
        return Outcome(state, (note(f"{source.name}: {player} has nothing to uncover"),), True)
    verb = {"uncover": "uncover", "hand": "bury", "either": "bury or uncover"}[effect.what]
    text = f"{source.name}: {player} may {verb} up to {plural(effect.count, 'card')}"
    return merge(Outcome(state, (), True), ask(state, "uncover", text, options, zone=zone))


def after_scoring(
    state: TrackerState,
    gone: tuple[Buried, ...],
    mummies: list[tuple[str, str]],
    zone: str,
    catalogue: Catalogue,
) -> Outcome:
    """A base scored: its buried cards went to their owners' discard piles; each Mummy that
    was there may be buried at a different base (its controller chooses)."""
    outcome = Outcome(state)
    if gone:
        counts: dict[str, int] = {}
        for card in gone:
            counts[card.owner or card.controller] = counts.get(card.owner or card.controller, 0) + 1
        text = ", ".join(f"{player} {n}" for player, n in counts.items())
        outcome = Outcome(
            state,
            (
                event(
                    "buried-discarded",
                    zone=zone,
                    counts=counts,
                    text=f"buried cards discarded: {text}",
                ),
            ),
        )
    for tag, player in mummies:
        options = [
            Option(
                f"Bury it at {name_of(catalogue, base.card)}",
                {"input": "bury", "tag": tag, "zone": base.zone, "player": player},
            )
            for base in outcome.state.table.bases
            if base.zone != zone
        ]
        if options:
            text = f"Mummy: {player} may bury it at a different base"
            outcome = merge(outcome, ask(outcome.state, "bury", text, options, tag=tag))
    return outcome


def label(catalogue: Catalogue, card_id: str) -> str:
    return name_of(catalogue, card_id) if card_id in catalogue else "a Madness card"
