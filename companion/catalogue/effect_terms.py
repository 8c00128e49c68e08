"""The terms card effects are written in: scopes, filters, counts and conditions.

Shared by :mod:`companion.effects` (what changes power, breakpoints and VP) and
:mod:`companion.table_effects` (counters, burying, duels).
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
    #: for counts only: actions attached to the bearer / to the centre base
    BEARER_ACTIONS = "bearer-actions"
    BASE_ACTIONS = "base-actions"
    #: for counts only: cards buried at the centre base (by anyone)
    BURIED_HERE = "buried-here"


COUNT_ONLY = frozenset({Scope.BEARER_ACTIONS, Scope.BASE_ACTIONS, Scope.BURIED_HERE})


@dataclass(frozen=True, slots=True)
class Filter:
    """Narrows a scope. Every field that is set must hold. Power tests use *printed* power,
    which keeps evaluation free of cycles (a card's power never depends on another's total)."""

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


@dataclass(frozen=True, slots=True)
class Count:
    scope: Scope
    filter: Filter = Filter()


@dataclass(frozen=True, slots=True)
class Condition:
    """When an effect is active. ``declared`` effects hinge on something the table cannot
    see (cards in a hand, a choice made): a person switches them on from the tablet."""

    turn: Literal["controller", "other"] | None = None
    count: Count | None = None
    at_least: int | None = None
    at_most: int | None = None
    declared: bool = False
