"""The declarative vocabulary for card abilities the engine computes.

A card's ``effects`` list in ``cards/*.json`` holds objects such as::

    {"kind": "power", "scope": "bearer", "amount": 2}
    {"kind": "power", "scope": "self", "amount": 1,
     "per": {"scope": "here", "filter": {"cards": ["core/war-raptor"]}}}
    {"kind": "breakpoint", "amount": -2}
    {"kind": "score", "rule": "winner-vp-per-power", "step": 5, "amount": 1}

Every effect is relative to its *source*: the card in play that carries it. A source has a
*centre* (the base it stands at, is attached to, or whose bearer stands at), a *controller*
(``None`` for bases and uncontrolled monsters) and, for attached actions, a *bearer*.
See ``cards/README.md`` for the full vocabulary with examples. Parsing
(:mod:`companion.catalogue.effects_parse`) is pure and strict: anything unknown is a
:class:`~companion.errors.CatalogueError` naming the card and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from companion.catalogue.effect_terms import Condition, Count, Filter, Scope
from companion.catalogue.status_effects import KINDS as STATUS_KINDS
from companion.catalogue.status_effects import StatusEffect
from companion.catalogue.table_effects import KINDS as TABLE_KINDS
from companion.catalogue.table_effects import TableEffect

Duration = Literal["ongoing", "turn", "next-turn"]
"""``ongoing`` while the card is in play; ``turn`` until the end of the turn it resolves in;
``next-turn`` until its controller's next turn begins (Armor Stego's Talent, Infiltrate)."""

OneTurnTrigger = Literal[
    "play", "talent", "minion-played-here", "start-of-turn", "bearer-discarded"
]
"""What resolves a triggered one-turn effect of a card in play (the tracker sees it happen):
``play`` the card is played, ``talent`` its Talent is used, ``minion-played-here`` a minion is
played at its base, ``start-of-turn`` its controller's turn starts, ``bearer-discarded`` the
minion it is attached to goes from play to the discard pile. Without ``on``, a one-turn effect
resolves when its (standard) action is played."""


@dataclass(frozen=True, slots=True)
class PowerEffect:
    """``amount`` (times ``per``, if given) added to the power of each minion in scope.

    A one-turn effect (``duration`` not ``ongoing``) binds to the minions in scope when it
    resolves: a minion that arrives later gets nothing, and a minion that moves keeps its
    boost (it is on the minion), unless ``base_effect`` says the card boosts the base's
    minions whoever they are. ``on`` and ``once`` (once per turn): see :data:`OneTurnTrigger`.
    """

    scope: Scope
    amount: int
    filter: Filter = Filter()
    per: Count | None = None
    when: Condition | None = None
    duration: Duration = "ongoing"
    on: OneTurnTrigger | None = None
    once: bool = False
    base_effect: bool = False
    kind: Literal["power"] = "power"


@dataclass(frozen=True, slots=True)
class PlayerPowerEffect:
    """Power for the controller at the centre base that sits on no minion."""

    amount: int
    per: Count | None = None
    when: Condition | None = None
    duration: Duration = "ongoing"
    on: OneTurnTrigger | None = None
    once: bool = False
    kind: Literal["player-power"] = "player-power"


@dataclass(frozen=True, slots=True)
class BreakpointEffect:
    """Changes the centre base's breakpoint by ``amount``, or ``reset`` sets its printed value
    (the Smash Up: Munchkin rulebook, Void Where Prohibited: "If a card resets a base's
    breakpoint, that refers to its printed value. Monster power and other effects add to or
    subtract from that value.")."""

    amount: int = 0
    reset: int | None = None
    per: Count | None = None
    when: Condition | None = None
    duration: Duration = "ongoing"
    on: OneTurnTrigger | None = None
    once: bool = False
    kind: Literal["breakpoint"] = "breakpoint"


@dataclass(frozen=True, slots=True)
class NoCountEffect:
    """The minions in scope keep their power, but it does not count toward breaking or
    winning the base; an uncontrolled monster in scope adds nothing to the breakpoint."""

    scope: Scope
    filter: Filter = Filter()
    kind: Literal["no-count"] = "no-count"


TreasureTrigger = Literal["base-scored", "minion-destroyed-here", "minion-played-here"]


@dataclass(frozen=True, slots=True)
class TreasureEffect:
    """Extra (or fewer) treasures: revealed when the centre base scores (``base-scored``), or
    drawn by whoever destroys a minion there matching ``filter`` (``minion-destroyed-here``,
    Bastion), or by whoever plays a minion there (``minion-played-here``; ``once``: the first
    each turn)."""

    amount: int
    per: Count | None = None
    when: Condition | None = None
    on: TreasureTrigger = "base-scored"
    filter: Filter = Filter()
    once: bool = False
    kind: Literal["treasures"] = "treasures"


ScoreRule = Literal["winner-vp-per-power", "vp-per-minion", "bonus-over-total", "place-bonus"]


@dataclass(frozen=True, slots=True)
class ScoreEffect:
    """Changes how the centre base awards VP when it scores.

    * ``winner-vp-per-power``: each winner gains ``amount`` VP per full ``step`` power there.
    * ``vp-per-minion``: each player gains ``amount`` VP per minion they have there
      (``replaces`` = placings give nothing).
    * ``bonus-over-total``: if all counted power there is at least ``total``, each placed
      player in the top ``places`` gains ``amount`` VP.
    * ``place-bonus``: the source's controller gains ``amount`` VP if they place
      ``place`` or better (``place`` 1 = winner).
    """

    rule: ScoreRule
    amount: int
    step: int = 0
    total: int = 0
    places: int = 3
    place: int = 1
    replaces: bool = False
    when: Condition | None = None
    kind: Literal["score"] = "score"


Trigger = Literal[
    "play", "leave", "minion-leaves-here", "base-scored", "discarded", "bearer-discarded"
]


@dataclass(frozen=True, slots=True)
class VpEffect:
    """VP gained when something happens (the tracker applies these as it sees the event).

    * ``play``: the source is played; ``leave``: the source leaves play (destroyed);
    * ``minion-leaves-here``: a minion at the centre leaves play (``who``: its ``owner``);
    * ``base-scored``: the centre base scores (after placings);
    * ``discarded``: the source goes from play to the discard pile (destroyed, or with
      everything on a scored base), ``filter`` read on it just before (``min-power``: Bushi);
      ``bearer-discarded``: the minion it is attached to does (Viking Funeral).
    """

    on: Trigger
    amount: int
    who: Literal["controller", "owner", "winner"] = "controller"
    filter: Filter = Filter()
    when: Condition | None = None
    kind: Literal["vp"] = "vp"


@dataclass(frozen=True, slots=True)
class HookEffect:
    """An ability too odd for the vocabulary, computed by a named function in
    :mod:`companion.rules.hooks`."""

    name: str
    kind: Literal["hook"] = "hook"


Effect = (
    PowerEffect
    | PlayerPowerEffect
    | BreakpointEffect
    | NoCountEffect
    | TreasureEffect
    | ScoreEffect
    | VpEffect
    | HookEffect
    | StatusEffect
    | TableEffect
)

#: the kinds of effect, by their ``kind`` name
KINDS: dict[str, type[Any]] = {
    "power": PowerEffect,
    "player-power": PlayerPowerEffect,
    "breakpoint": BreakpointEffect,
    "no-count": NoCountEffect,
    "treasures": TreasureEffect,
    "score": ScoreEffect,
    "vp": VpEffect,
    "hook": HookEffect,
    **STATUS_KINDS,
    **TABLE_KINDS,
}


def one_turn(effect: Effect) -> bool:
    """Whether the effect lasts a turn (or until its controller's next turn) once resolved."""
    return getattr(effect, "duration", "ongoing") != "ongoing"
