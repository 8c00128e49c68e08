"""Table abilities the tracker acts on: +1 power counters, burying and uncovering, duels.

These are effect kinds of the card vocabulary (``cards/README.md``) like ``power`` or ``vp``,
but they change the table rather than a sum: they place or move counters, bury or uncover
cards, start duels. The tracker reads them when their trigger (``on``) happens and either
applies them (the card says exactly what) or raises a prompt whose options do it (a choice
the table cannot see). They add nothing to power while their card sits in play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from companion.catalogue.effect_terms import Condition, Filter, Scope

CounterTrigger = Literal[
    "play",  # the card is played (an action on a minion: when it attaches)
    "talent",  # its controller uses its Talent (the "talent" input)
    "start-of-turn",  # its controller's turn starts
    "minion-played-here",  # a minion is played at the card's base
    "minion-destroyed",  # a minion in ``scope`` is destroyed (tapped at the discard pad)
    "leave",  # the card itself leaves play
    "other-mine-discarded",  # another minion of its controller goes from play to the discard
    "base-scored",  # its base scores
    "duel",  # a minion of its controller is chosen for a duel
    "minion-played-by-opponent",  # another player plays a minion
]
CounterTarget = Literal["self", "bearer", "each", "choose", "played", "duelist", "winners", "next"]


@dataclass(frozen=True, slots=True)
class CountersEffect:
    """+1 power counters a card places (``amount`` > 0) or removes (< 0).

    ``target``: ``self`` (the card), ``bearer`` (the minion it is attached to), ``played`` (the
    minion just played, for ``minion-played-here``), ``duelist`` (its controller's minion in the
    duel), ``winners`` (every minion in play of the scored base's winners), ``each`` (every minion
    in ``scope`` matching ``filter``): placed at once. ``choose``: a prompt lists the minions in
    ``scope``; each answer puts ``amount`` on the chosen one, ``count`` answers in all (0: any
    number, until someone closes it). ``next``: the next minion its controller plays this turn.
    ``may``: optional, so a prompt asks even where the target is known. ``behind``: only if an
    opponent has more power at the base than its controller. ``when`` as for power effects.
    """

    on: CounterTrigger
    target: CounterTarget
    amount: int = 1
    count: int = 1
    scope: Scope = Scope.MINE
    filter: Filter = Filter()
    may: bool = False
    behind: bool = False
    once: bool = False  #: once per turn (Laboratorium: the first minion played here)
    opponents: bool = False  #: the trigger counts only other players' minions
    when: Condition | None = None
    kind: Literal["counters"] = "counters"


@dataclass(frozen=True, slots=True)
class MoveCountersEffect:
    """Counters transferred between minions: a prompt lists (from, to) pairs, one counter an
    answer, ``count`` answers (0: any number). ``source``: ``self`` (only from the card itself)
    or a scope of minions to take from; ``scope``: minions to put on."""

    on: CounterTrigger
    source: Literal["self", "mine"] = "mine"
    scope: Scope = Scope.MINE
    count: int = 0
    kind: Literal["move-counters"] = "move-counters"


BuryWhat = Literal["self", "this", "uncover", "either", "hand"]


@dataclass(frozen=True, slots=True)
class BuryEffect:
    """Burying and uncovering.

    * ``self``: playing the card buries it at the base it was tapped at; its other effects act
      when it is uncovered (the rulebook: it is then played again, not reburied).
    * ``this``: after its base scores, the minion may be buried at a different base (Mummy).
    * ``uncover``: its controller may uncover ``count`` of their buried cards (``where``:
      ``here`` at the card's base, or ``any``).
    * ``either``: bury ``count`` cards from hand or uncover ``count`` buried cards, at one base.
    * ``hand``: bury ``count`` cards from hand at the card's base.
    """

    what: BuryWhat
    on: Literal["play", "before-scoring", "base-scored", "talent"] = "play"
    count: int = 1
    where: Literal["here", "any"] = "here"
    kind: Literal["bury"] = "bury"


@dataclass(frozen=True, slots=True)
class DuelEffect:
    """A duel the card starts: ``challenger`` is the card itself (``self``), one of its
    controller's minions at the base (``mine``) or the minion just played there (``played``).
    What the duel does: the loser is destroyed or moved (``loser``), the winner's controller
    gains ``vp``, the winner gets the card's one-turn effect number ``boost``; ``reward`` names
    what people resolve by hand (draw cards, an extra minion). Ties: both sides get it all."""

    on: Literal["play", "before-scoring", "minion-played-here"]
    challenger: Literal["self", "mine", "played"]
    loser: Literal["destroy", "move", "none"] = "none"
    vp: int = 0
    boost: int | None = None
    reward: str | None = None
    kind: Literal["duel"] = "duel"


@dataclass(frozen=True, slots=True)
class DestroyEffect:
    """Its controller may destroy a minion at the card's base of current power ``max_power``
    or less (a prompt lists them); ``on``: ``play`` or ``uncover``."""

    on: Literal["play", "uncover"]
    max_power: int
    kind: Literal["destroy"] = "destroy"


TableEffect = CountersEffect | MoveCountersEffect | BuryEffect | DuelEffect | DestroyEffect

KINDS: dict[str, type] = {
    "counters": CountersEffect,
    "move-counters": MoveCountersEffect,
    "bury": BuryEffect,
    "duel": DuelEffect,
    "destroy": DestroyEffect,
}

#: allowed values of the string fields, per kind
LITERALS: dict[str, dict[str, tuple[str, ...]]] = {
    "counters": {
        "on": get_args(CounterTrigger),
        "target": get_args(CounterTarget),
    },
    "move-counters": {
        "on": get_args(CounterTrigger),
        "source": ("self", "mine"),
    },
    "bury": {
        "what": get_args(BuryWhat),
        "on": ("play", "before-scoring", "base-scored", "talent"),
        "where": ("here", "any"),
    },
    "duel": {
        "on": ("play", "before-scoring", "minion-played-here"),
        "challenger": ("self", "mine", "played"),
        "loser": ("destroy", "move", "none"),
    },
    "destroy": {"on": ("play", "uncover")},
}
