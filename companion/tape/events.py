"""Events as types (``companion/tape/CONTRACT.md``, "Events"): every key an event of either game
may carry, with its JSON type.

The trackers build events through helpers typed with :class:`EventFields` (``**fields:
Unpack[EventFields]``), so mypy refuses a key that is not declared here or a value of the wrong
type; ``tests/test_event_keys.py`` replays the bundled tapes, every input's scenario and
simulated games and holds every event to :class:`Event`. Keys are added, never changed.
"""

from __future__ import annotations

from typing import Required, TypedDict


class PlacingDocument(TypedDict):
    """A player's place in a ``scored`` event's ranking (the tie rule: 10/10/5 -> 1, 1, 3)."""

    player: str
    place: int
    vp: int


class EventFields(TypedDict, total=False):
    """The keys an event carries beside ``event``; which ones depends on its kind."""

    #: the event in words, where the tablet shows it
    text: str
    #: a ``prompt`` event: the prompt's id, kind and question (``lapsed``: the prompt's kind,
    #: or the deal's ``draft`` or ``draw``)
    id: int
    kind: str
    message: str
    #: ``answered``, ``lapsed``: the prompt and the option chosen
    prompt: int
    option: int
    tag: str
    card: str
    zone: str
    #: ``null`` where nobody is meant (``control``: a monster released)
    player: str | None
    delta: int
    count: int
    side: str
    vp: int
    #: ``game-over``: the winners' names; ``duel-resolved``: the winning minions' tags
    winners: list[str]
    #: ``duel-resolved``: the challenger's and the challenged's power
    powers: list[int]
    #: a ``lapsed`` event: why the prompt or deal no longer applies, and the deal's card
    why: str
    deal: str
    #: where a card or counters came from (``moved``, ``counters-moved``, ``tap-moved``;
    #: ``buried``: its zone before, ``null`` from a hand)
    origin: str | None
    #: the minion or monster acted on (``attached``, ``counters-moved``, ``targeted``)
    target: str
    #: ``turn-ended``: whose turn it is now
    next: str
    #: ``charity``: the lowest-Level players who get the cards
    to: list[str]
    #: ``scored``: each player's place and VP
    ranking: list[PlacingDocument]
    #: ``scored``: who drafts the treasures, in order; Munchkin Cthulhu's ``resolved``: how
    #: many treasures the fight won
    treasures: int | list[str]
    #: ``duel-opened``: the two minions' tags
    challenger: str
    challenged: str
    #: ``declared``: the effect number and whether the condition holds
    effect: int
    on: bool
    #: ``buried``: a Madness card was buried
    madness: bool
    #: ``buried-discarded``: cards each player had buried there
    counts: dict[str, int]
    #: Munchkin Cthulhu: ``ran`` (the roll, whether it escaped), ``resolved`` and ``sold``
    roll: int
    escaped: bool
    won: bool
    levels: int


class Event(EventFields, total=False):
    """A game event the tracker derived from a line: ``event`` names it; ``text`` says it in
    words where the tablet shows it; the other keys depend on the event."""

    event: Required[str]
