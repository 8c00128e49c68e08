"""The Smash Up table as plain immutable values: what is where, who controls it, VP and turn.

Every change makes a new :class:`Table` (old ones stay valid, which makes undo a pop).
Cards in play are identified by their tag uid; the same physical card is in one place at most.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from companion.errors import CompanionError
from companion.rules.values import revise


class IllegalPlayError(CompanionError, ValueError):
    """The operation contradicts the table (e.g. the card is already somewhere else)."""


@dataclass(frozen=True, slots=True)
class Attached:
    """An action (or action treasure) attached to a base or a minion."""

    tag: str
    card: str
    controller: str | None
    owner: str | None = None
    #: +1 power counters on the action itself (Summon Wolves collects them)
    counters: int = 0


@dataclass(frozen=True, slots=True)
class Minion:
    """A minion, monster or minion treasure standing at a base."""

    tag: str
    card: str
    owner: str | None
    controller: str | None
    counters: int = 0
    attached: tuple[Attached, ...] = ()


#: the card id of a buried Madness card (Madness cards carry no tags)
MADNESS = "madness"


@dataclass(frozen=True, slots=True)
class Buried:
    """A card buried face down (Oops): no power, controlled by whoever buried it."""

    tag: str
    card: str
    controller: str
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class Base:
    zone: str
    card: str
    tag: str | None = None
    minions: tuple[Minion, ...] = ()
    attached: tuple[Attached, ...] = ()
    buried: tuple[Buried, ...] = ()

    def find(self, tag: str) -> Minion | None:
        for minion in self.minions:
            if minion.tag == tag:
                return minion
        return None


@dataclass(frozen=True, slots=True)
class Temporary:
    """An effect that resolved and lasts until a turn ends (e.g. a standard action giving a
    chosen minion +4 this turn). It acts like an attachment to ``bearer`` (a minion tag: it
    follows the minion when it moves and ends when it leaves play) or to ``zone`` (a base).

    A one-turn power effect over many minions is kept as one Temporary per minion it reached
    when it resolved, each with the ``amount`` it gives that minion."""

    card: str
    effect: int
    controller: str | None
    expires_after_turn: int
    zone: str | None = None
    bearer: str | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class Loan:
    """Control taken until a turn ends (Charm): ``tag`` goes back to ``previous`` then."""

    tag: str
    previous: str | None
    expires_after_turn: int


@dataclass(frozen=True, slots=True)
class Table:
    """The whole Smash Up table. ``vp`` and ``madness`` are by seat (same order as ``players``)."""

    players: tuple[str, ...]
    bases: tuple[Base, ...] = ()
    vp: tuple[int, ...] = ()
    madness: tuple[int, ...] = ()
    current: int = 0
    turn: int = 1
    temporaries: tuple[Temporary, ...] = ()
    #: (source tag, effect index) pairs a person switched on (conditions the table cannot see)
    declared: frozenset[tuple[str, int]] = field(default_factory=frozenset)
    madness_in_game: bool = False
    #: the zone of the base chosen to score (its before-scoring window is open)
    scoring: str | None = None
    #: set once the game is over; more than one name is a shared win
    winners: tuple[str, ...] = ()
    #: control that goes back when a turn ends
    loans: tuple[Loan, ...] = ()

    def __post_init__(self) -> None:
        if not self.vp:
            object.__setattr__(self, "vp", (0,) * len(self.players))
        if not self.madness:
            object.__setattr__(self, "madness", (0,) * len(self.players))

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def vp_of(self, player: str) -> int:
        return self.vp[self.seat(player)]

    def base_at(self, zone: str) -> Base | None:
        for base in self.bases:
            if base.zone == zone:
                return base
        return None

    def minions(self) -> Iterator[tuple[Base, Minion]]:
        for base in self.bases:
            for minion in base.minions:
                yield base, minion

    def locate(self, tag: str) -> tuple[Base, Minion] | None:
        # plain loops, as where_is: a step locates cards several times
        for base in self.bases:
            for minion in base.minions:
                if minion.tag == tag:
                    return base, minion
        return None

    def with_base(self, base: Base) -> Table:
        """Replace the base at ``base.zone`` (or add it, keeping zone order stable)."""
        zone = base.zone
        if any(b.zone == zone for b in self.bases):  # most steps: bases stay in zone order
            return revise(self, bases=tuple(base if b.zone == zone else b for b in self.bases))
        bases = [*self.bases, base]
        bases.sort(key=lambda b: zone_key(b.zone))
        return revise(self, bases=tuple(bases))

    def without_base(self, zone: str) -> Table:
        """The base and everything on it leave play (with the one-turn effects aimed at them)."""
        gone = self.base_at(zone)
        table = revise(self, bases=tuple(b for b in self.bases if b.zone != zone))
        if gone is None:
            return table
        return table.without_temporaries_on({m.tag for m in gone.minions}, zone)

    def without_temporaries_on(self, tags: set[str], zone: str | None = None) -> Table:
        """Drop one-turn effects aimed at minions that left play (or at a base that left)."""
        kept = tuple(
            t
            for t in self.temporaries
            if t.bearer not in tags and (zone is None or t.zone != zone or t.bearer is not None)
        )
        return self if len(kept) == len(self.temporaries) else revise(self, temporaries=kept)

    def add_vp(self, player: str, amount: int) -> Table:
        seat = self.seat(player)
        vp = list(self.vp)
        vp[seat] += amount
        return revise(self, vp=tuple(vp))


@lru_cache(maxsize=256)  # a table has a handful of zones; every base placed sorts them
def zone_key(zone: str) -> tuple[str, int, str]:
    """Sort ``base-2`` before ``base-10``."""
    head, _, tail = zone.rpartition("-")
    return (head, int(tail), "") if tail.isdigit() else (zone, 0, "")
