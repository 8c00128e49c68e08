"""Small helpers shared by the tap and input handlers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, Unpack

from companion.catalogue.cards import Card, Catalogue
from companion.rules.game import where_is
from companion.tape.documents import Event, Line
from companion.tape.english import zone_label
from companion.tape.events import EventFields
from companion.tape.lines import TagBinding
from companion.tape.prompts import DISMISS, WAITING_KINDS, Moment, Option, Prompt, PromptKind
from companion.tracker.state import Outcome, Rejected, TrackerState, evolve


class Play(Protocol):
    """Playing a card at a base (:func:`companion.tracker.taps.play`), handed down to the
    handlers that play cards themselves (uncovered cards, dueling actions), so that those
    modules need not import the tap rules that import them."""

    def __call__(
        self,
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
    ) -> Outcome: ...


Discard = Callable[[TrackerState, str, Card, Catalogue], Outcome]
"""A card leaving play to the discard pile (:func:`companion.tracker.taps.discard`)."""


def event(name: str, **fields: Unpack[EventFields]) -> Event:
    """An event of kind ``name``; mypy holds ``fields`` to the declared keys and types."""
    return {"event": name, **fields}


def note(text: str) -> Event:
    return {"event": "note", "text": text}


def ask(
    state: TrackerState,
    kind: PromptKind,
    message: str,
    options: list[Option],
    *,
    tag: str | None = None,
    zone: str | None = None,
    left: int | None = 1,
) -> Outcome:
    """Raise a prompt (never an exception, never a silent guess); the game is unchanged.
    ``left``: how many answers it takes (``None``: any number until Ignore). A finished game
    asks nothing: the message becomes a note."""
    if state.table.winners:
        return Outcome(state, (note(message),))
    if not any(option.line == DISMISS for option in options):
        label = "Ignore" if left == 1 else "Done"
        options = [*options, Option(label, DISMISS.copy())]
    moment = moment_of(state, kind, tag, zone)
    prompt = Prompt(state.next_prompt, kind, message, tuple(options), tag, zone, left, moment)
    updated = evolve(state, prompts=(*state.prompts, prompt), next_prompt=state.next_prompt + 1)
    return Outcome(updated, (event("prompt", id=prompt.id, kind=kind, message=message),))


def moment_of(state: TrackerState, kind: PromptKind, tag: str | None, zone: str | None) -> Moment:
    """The moment a prompt belongs to: this turn, the card it is about if that is in play, the
    base at its zone; none for the kinds about the physical truth (they wait)."""
    if kind in WAITING_KINDS:
        return Moment()
    table = state.table
    card = tag if tag is not None and where_is(table, tag) is not None else None
    base = table.base_at(zone) if zone is not None else None
    return Moment(turn=table.turn, card=card, base=base.tag if base is not None else None)


def merge(first: Outcome, second: Outcome) -> Outcome:
    if not first.events and (second.changed or not first.changed):
        return second  # the same outcome (most merges: 39,001 of 54,836 in the bench's replay)
    return Outcome(second.state, first.events + second.events, first.changed or second.changed)


def name_of(catalogue: Catalogue, card_id: str) -> str:
    return catalogue[card_id].name


def place_name(state: TrackerState, catalogue: Catalogue, zone: str) -> str:
    """A zone as people at the table say it: the name of the base lying there, else the zone's
    ("base zone 2")."""
    base = state.table.base_at(zone)
    return name_of(catalogue, base.card) if base is not None else zone_label(zone)


def ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def card_label(state: TrackerState, catalogue: Catalogue, tag: str, *, where: bool = False) -> str:
    """A minion in play by its name, never its tag; copies in play are told apart by where
    they are: "Cat Burglar on Bastion", then by order of play there ("..., 2nd").
    ``where``: always say the base."""
    found = state.table.locate(tag)
    if found is None:
        bound = binding(state, tag)
        return name_of(catalogue, bound.card) if bound is not None else "a card"
    base, minion = found
    name = name_of(catalogue, minion.card)
    copies = [(b.zone, m.tag) for b, m in state.table.minions() if m.card == minion.card]
    if len(copies) == 1 and not where:
        return name
    placed = f"{name} on {name_of(catalogue, base.card)}"
    here = [t for zone, t in copies if zone == base.zone]
    return placed if len(here) == 1 else f"{placed}, {ordinal(here.index(tag) + 1)}"


def binding(state: TrackerState, uid: str) -> TagBinding | None:
    return state.header.tags.get(uid.upper())


def owner_candidates(state: TrackerState, card: Card, bound: TagBinding) -> list[str]:
    """Who may own a faction card: the tag's owner if named, else who plays its faction."""
    if bound.owner is not None:
        return [bound.owner]
    if card.faction is None:
        return []
    players = state.header.players
    return [p for p in players if card.faction in state.header.factions.get(p, ())]


def need(line: Line, key: str, kind: type, what: str) -> Any:
    value = line.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Rejected(f'"{line.get("input", "tap")}" needs "{key}": {what}')
    return value


def need_player(state: TrackerState, line: Line, key: str = "player") -> str:
    player = need(line, key, str, "a player's name")
    if player not in state.header.players:
        players = ", ".join(state.header.players)
        raise Rejected(f"{player!r} is not playing; the players are {players}")
    return str(player)
