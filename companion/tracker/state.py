"""The tracker's state: the rules table plus what the tracker itself remembers."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from companion.errors import Rejected as Rejected  # raised by every handler
from companion.rules.duels import Duel
from companion.rules.scoring import ScoringResult
from companion.rules.table import Table
from companion.tape.documents import DealDocument, Event, TreasureDrawDocument
from companion.tape.lines import Header
from companion.tape.prompts import Prompt

__all__ = [
    "BuryNext",
    "Deal",
    "Outcome",
    "PendingAttach",
    "Rejected",
    "TrackerState",
    "TreasureDraw",
    "Uncovering",
    "evolve",
    "new_state",
]


@dataclass(frozen=True)
class TreasureDraw:
    player: str
    count: int
    card: str

    @cached_property
    def document(self) -> TreasureDrawDocument:
        """Its entry in the state document, built once; treat it as read-only."""
        return {"player": self.player, "count": self.count, "card": self.card}


@dataclass(frozen=True)
class Deal:
    """Treasures still to be handed out: a scored base's draft (``order`` picks, one each, in
    that order) or a destroyed monster's draw (``order`` is the drawer, once per card).
    ``turn``: the turn it was made in; the table hands treasures out at once, so when that
    turn ends the deal lapses (it is taken as dealt)."""

    kind: Literal["draft", "draw"]
    card: str
    order: tuple[str, ...]
    taken: int = 0
    turn: int = 0

    @cached_property
    def document(self) -> DealDocument:
        """Its entry in the state document, built once (every new state's document lists every
        open deal, and a long night leaves many open); treat it as read-only."""
        picks_now = self.order[self.taken] if self.taken < len(self.order) else None
        return {
            "kind": self.kind,
            "card": self.card,
            "count": len(self.order),
            "order": list(self.order),
            "taken": self.taken,
            "next": picks_now,
        }


@dataclass(frozen=True, slots=True)
class PendingAttach:
    """An action played on a minion, waiting for the tap of its target at ``zone``."""

    tag: str
    card: str
    zone: str
    controller: str | None
    owner: str | None


@dataclass(frozen=True, slots=True)
class BuryNext:
    """The next ``left`` taps at ``zone`` of cards not in play bury them for ``player``
    (cards buried from a hand: the tablet cannot know which card until it is tapped)."""

    zone: str
    player: str
    left: int


@dataclass(frozen=True, slots=True)
class Uncovering:
    """Who may still uncover buried cards this turn (for notes, never refusals).

    ``start``: the current player's start-of-turn uncover is unused and still in time (no card
    played yet this turn). ``grants``: extra uncovers that abilities allowed, per player.
    """

    start: bool = True
    grants: tuple[tuple[str, int], ...] = ()

    def granted(self, player: str) -> int:
        return dict(self.grants).get(player, 0)

    def with_grant(self, player: str, delta: int) -> Uncovering:
        left = self.granted(player) + delta
        kept = tuple((p, n) for p, n in self.grants if p != player)
        return replace(self, grants=(*kept, (player, left)) if left > 0 else kept)


@dataclass(frozen=True)
class TrackerState:
    header: Header
    table: Table
    scorings: tuple[ScoringResult, ...] = ()
    treasure_draws: tuple[TreasureDraw, ...] = ()
    #: treasures the table still has to hand out, oldest first (the tablet's deal prompts)
    deals: tuple[Deal, ...] = ()
    pending: PendingAttach | None = None
    #: zone -> monsters still to be placed on a newly entered Munchkin base
    setup: tuple[tuple[str, int], ...] = ()
    prompts: tuple[Prompt, ...] = ()
    next_prompt: int = 1
    #: minions and actions the current player has played this turn (for notes, never refusals)
    minions_played: int = 0
    actions_played: int = 0
    #: how many event lines have been applied (the state's version)
    version: int = 0
    #: burying from a hand: the next taps at a zone bury cards
    bury_next: BuryNext | None = None
    uncovering: Uncovering = Uncovering()
    #: tags uncovered this turn (they may not be reburied at once)
    uncovered: frozenset[str] = frozenset()
    #: the duel in progress (or the last one, resolved or stopped, until the turn ends)
    duel: Duel | None = None
    #: once-per-turn abilities already used this turn (card tag or zone, and card id)
    used: frozenset[str] = frozenset()
    #: +1 power counters the next minion a player plays this turn enters with
    next_minion: tuple[tuple[str, int], ...] = ()

    def at_version(self, version: int) -> TrackerState:
        """This state as of ``version`` (done after every line)."""
        return evolve(self, version=version)

    def setup_left(self, zone: str) -> int:
        return dict(self.setup).get(zone, 0)

    def with_setup(self, zone: str, left: int) -> TrackerState:
        kept = tuple((z, n) for z, n in self.setup if z != zone)
        return evolve(self, setup=(*kept, (zone, left)) if left > 0 else kept)


_FIELDS = frozenset(f.name for f in fields(TrackerState))

if TYPE_CHECKING:
    # type-checked as what it is: dataclasses.replace (field names and types included)
    from dataclasses import replace as evolve
else:

    def evolve(state: Any, /, **changes: Any) -> Any:
        """:func:`dataclasses.replace` for a :class:`TrackerState`: a step makes a few new
        states, and replace walks all twenty fields and runs the frozen ``__init__`` over them
        (eight times slower than this). Copying the instance's dict is the same here: every
        field is an ``__init__`` field, there is no ``__post_init__``, and the class caches
        nothing in its dict. Anything else goes to :func:`dataclasses.replace`."""
        if type(state) is not TrackerState:
            return replace(state, **changes)
        if not _FIELDS.issuperset(changes):
            unknown = changes.keys() - _FIELDS
            raise TypeError(f"TrackerState has no field {', '.join(sorted(unknown))}")
        # dict.copy keeps the instance dict's shared keys and copies it whole (updating an
        # empty instance dict with it is twice as slow)
        fields_copied = state.__dict__.copy()
        fields_copied.update(changes)
        copied = object.__new__(TrackerState)
        object.__setattr__(copied, "__dict__", fields_copied)
        return copied


class Outcome(NamedTuple):
    """A step's result. ``changed`` is False when only prompts or notes came of it.

    A named tuple, not a frozen dataclass: a step makes four or five of them (most of them
    merged away at once), and a tuple is built in half the time of a frozen instance, whose
    ``__init__`` sets each field through ``object.__setattr__``."""

    state: TrackerState
    events: tuple[Event, ...] = ()
    changed: bool = False


def new_state(header: Header) -> TrackerState:
    return TrackerState(header=header, table=Table(players=header.players))
