"""Abilities that change what other cards are or do, rather than a number: cancelling
abilities and giving traits.

* ``cancel``: the abilities of the cards it reaches are treated as if they do not exist (the
  Smash Up: Munchkin rulebook, Terms: "Cancel"): every one of them, ongoing power, breakpoint,
  scoring, VP and treasure abilities, triggered abilities and the traits they give.
* ``trait``: the minions in scope count as having a trait (Microbot Alpha: "all your minions
  are treated as Microbots"); filters with ``trait`` read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from companion.catalogue.effect_terms import Scope

CancelTarget = Literal["bearer", "base", "here", "next", "played-here"]
CancelDuration = Literal["ongoing", "turn", "next-turn"]


@dataclass(frozen=True, slots=True)
class CancelEffect:
    """Whose abilities are cancelled: ``bearer`` (the minion it is attached to: Curse of
    Imprisonment), ``base`` (the base it is on, or its centre: Jammed Signal, Infiltrate),
    ``here`` (every card at its base but the base: Potion of Paralysis, cards that arrive
    later included), ``next`` (the next minion its controller plays there this turn: Last Call)
    or ``played-here`` (every minion its controller plays there this turn: Rude Awakening).
    ``duration`` and ``on`` as for one-turn power effects (an ongoing cancel lasts while its
    card is in play)."""

    target: CancelTarget
    duration: CancelDuration = "ongoing"
    on: Literal["talent"] | None = None
    kind: Literal["cancel"] = "cancel"


@dataclass(frozen=True, slots=True)
class TraitEffect:
    """The minions in ``scope`` have ``trait`` while the source is in play."""

    scope: Scope
    trait: str
    kind: Literal["trait"] = "trait"


StatusEffect = CancelEffect | TraitEffect

KINDS: dict[str, type] = {"cancel": CancelEffect, "trait": TraitEffect}

#: allowed values of the string fields, per kind
LITERALS: dict[str, dict[str, tuple[str, ...]]] = {
    "cancel": {
        "target": get_args(CancelTarget),
        "duration": get_args(CancelDuration),
        "on": ("talent",),
    },
    "trait": {},
}
