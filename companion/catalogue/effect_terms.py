"""The terms card effects are written in: scopes, filters, counts and conditions.

Shared by :mod:`companion.catalogue.effects` (what changes power, breakpoints and VP),
:mod:`companion.catalogue.status_effects` (cancelling, traits) and
:mod:`companion.catalogue.table_effects` (counters, burying, duels, control).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class Scope(StrEnum):
    """Which cards an effect applies to (or counts), relative to its source."""

    SELF = "self"  #: the source card itself
    BEARER = "bearer"  #: the minion the source action is attached to
    HERE = "here"  #: every minion at the centre base
    OTHER_HERE = "other-here"  #: every minion at the centre base but the source
    MINE_HERE = "mine-here"  #: the controller's minions at the centre base
    OTHER_MINE_HERE = "other-mine-here"  #: the controller's minions there, not the source
    OTHERS_HERE = "others-here"  #: minions at the centre base the controller does not control
    MINE = "mine"  #: the controller's minions at every base
    OTHER_MINE = "other-mine"  #: the controller's minions at every base, not the source
    ALL = "all"  #: every minion at every base
    #: the minion just played (an effect triggered by ``minion-played-here``)
    PLAYED = "played"
    #: for counts only: actions attached to the bearer / to the centre base
    BEARER_ACTIONS = "bearer-actions"
    BASE_ACTIONS = "base-actions"
    #: for counts only: cards buried at the centre base (by anyone)
    BURIED_HERE = "buried-here"
    #: for counts only: +1 power counters on the source card itself / on its bearer (for a
    #: one-turn effect bound to minions, the bearer is each minion it is bound to)
    SELF_COUNTERS = "self-counters"
    BEARER_COUNTERS = "bearer-counters"
    #: for counts only: the current power of the minion a one-turn effect is aimed at, read
    #: once when it resolves (Rampage)
    BEARER_POWER = "bearer-power"


COUNT_ONLY = frozenset(
    {
        Scope.BEARER_ACTIONS,
        Scope.BASE_ACTIONS,
        Scope.BURIED_HERE,
        Scope.SELF_COUNTERS,
        Scope.BEARER_COUNTERS,
        Scope.BEARER_POWER,
    }
)


@dataclass(frozen=True, slots=True)
class Filter:
    """Narrows a scope. Every field that is set must hold. Power tests use *printed* power,
    which keeps evaluation free of cycles (a card's power never depends on another's total);
    ``min_power`` (current power) is read only when a one-turn effect resolves, once."""

    cards: frozenset[str] | None = None
    factions: frozenset[str] | None = None
    max_printed_power: int | None = None
    min_printed_power: int | None = None
    monster: bool | None = None
    undead: bool | None = None
    treasure: bool | None = None
    has_counters: bool | None = None
    #: relative to whose turn it is: ``current`` = controlled by the current player
    controller: Literal["current", "not-current"] | None = None
    #: current power at least this much, read when a one-turn effect resolves (Frenzy)
    min_power: int | None = None
    #: shares its base with at least one monster other than itself (Campaign)
    with_monster: bool | None = None
    #: has this trait, printed (a Microbot) or given by a ``trait`` effect in play
    trait: str | None = None


@dataclass(frozen=True, slots=True)
class Count:
    scope: Scope
    filter: Filter = Filter()


@dataclass(frozen=True, slots=True)
class Condition:
    """When an effect is active. ``declared`` effects hinge on something the table cannot
    see (cards in a hand, a choice made): a person switches them on from the tablet.
    ``ahead``: the source's controller has more power at its base than every other player;
    read once, when a triggered one-turn effect resolves (Marking Territory)."""

    turn: Literal["controller", "other"] | None = None
    count: Count | None = None
    at_least: int | None = None
    at_most: int | None = None
    declared: bool = False
    ahead: bool = False
