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
See ``cards/README.md`` for the full vocabulary with examples. Parsing is pure and strict:
anything unknown is a :class:`CatalogueError` naming the card and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.catalogue.effect_terms import COUNT_ONLY, Condition, Count, Filter, Scope
from companion.catalogue.table_effects import KINDS as TABLE_KINDS
from companion.catalogue.table_effects import LITERALS as TABLE_LITERALS
from companion.catalogue.table_effects import TableEffect
from companion.errors import CatalogueError

Duration = Literal["ongoing", "turn"]


@dataclass(frozen=True, slots=True)
class PowerEffect:
    """``amount`` (times ``per``, if given) added to the power of each minion in scope."""

    scope: Scope
    amount: int
    filter: Filter = Filter()
    per: Count | None = None
    when: Condition | None = None
    duration: Duration = "ongoing"
    kind: Literal["power"] = "power"


@dataclass(frozen=True, slots=True)
class PlayerPowerEffect:
    """Power for the controller at the centre base that sits on no minion."""

    amount: int
    per: Count | None = None
    when: Condition | None = None
    duration: Duration = "ongoing"
    kind: Literal["player-power"] = "player-power"


@dataclass(frozen=True, slots=True)
class BreakpointEffect:
    """Changes the centre base's breakpoint."""

    amount: int
    per: Count | None = None
    when: Condition | None = None
    duration: Duration = "ongoing"
    kind: Literal["breakpoint"] = "breakpoint"


@dataclass(frozen=True, slots=True)
class NoCountEffect:
    """The minions in scope keep their power, but it does not count toward breaking or
    winning the base; an uncontrolled monster in scope adds nothing to the breakpoint."""

    scope: Scope
    filter: Filter = Filter()
    kind: Literal["no-count"] = "no-count"


@dataclass(frozen=True, slots=True)
class TreasureEffect:
    """Extra (or fewer) treasures revealed when the centre base scores."""

    amount: int
    per: Count | None = None
    when: Condition | None = None
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


Trigger = Literal["play", "leave", "minion-leaves-here", "base-scored"]


@dataclass(frozen=True, slots=True)
class VpEffect:
    """VP gained when something happens (the tracker applies these as it sees the event).

    * ``play``: the source is played; ``leave``: the source leaves play (destroyed);
    * ``minion-leaves-here``: a minion at the centre leaves play (``who``: its ``owner``);
    * ``base-scored``: the centre base scores (after placings).
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
    | TableEffect
)

_KINDS: dict[str, type[Any]] = {
    "power": PowerEffect,
    "player-power": PlayerPowerEffect,
    "breakpoint": BreakpointEffect,
    "no-count": NoCountEffect,
    "treasures": TreasureEffect,
    "score": ScoreEffect,
    "vp": VpEffect,
    "hook": HookEffect,
    **TABLE_KINDS,
}
_FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(cls.__dataclass_fields__) for kind, cls in _KINDS.items()
}


def parse_effects(raw: Any, where: str) -> tuple[Effect, ...]:
    """Parse a card's ``effects`` list.

    :raises CatalogueError: naming ``where`` (file and card), the effect's index and the field.
    """
    if not isinstance(raw, list):
        raise CatalogueError(f"{where}: field 'effects' must be a list")
    return tuple(
        _parse_effect(item, f"{where}: effects[{index}]") for index, item in enumerate(raw)
    )


def _parse_effect(raw: Any, where: str) -> Effect:
    if not isinstance(raw, dict) or raw.get("kind") not in _KINDS:
        raise CatalogueError(f"{where}: field 'kind' must be one of {', '.join(_KINDS)}")
    kind = raw["kind"]
    unknown = {key for key in raw if key.replace("-", "_") not in _FIELDS[kind]}
    if unknown:
        raise CatalogueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))} for {kind}")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "kind":
            continue
        values[key.replace("-", "_")] = _convert(key, value, f"{where}: field {key!r}")
    try:
        effect: Effect = _KINDS[kind](**values)
    except TypeError as exc:
        raise CatalogueError(f"{where}: {exc}") from exc
    _check(effect, where)
    return effect


def _convert(key: str, value: Any, where: str) -> Any:
    if key == "scope":
        return _scope(value, where)
    if key == "filter":
        return _filter(value, where)
    if key == "per":
        return _count(value, where)
    if key == "when":
        return _condition(value, where)
    if key in ("amount", "step", "total", "places", "place", "count", "vp", "boost", "max-power"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise CatalogueError(f"{where}: must be a whole number")
        return value
    if key in ("replaces", "may", "behind", "once", "opponents"):
        if not isinstance(value, bool):
            raise CatalogueError(f"{where}: must be true or false")
        return value
    if key in _STRINGS:
        if not isinstance(value, str):
            raise CatalogueError(f"{where}: must be a string")
        return value
    raise CatalogueError(f"{where}: unknown field")


def _scope(value: Any, where: str) -> Scope:
    try:
        return Scope(value)
    except ValueError:
        raise CatalogueError(
            f"{where}: must be one of {', '.join(s.value for s in Scope)}"
        ) from None


def _filter(value: Any, where: str) -> Filter:
    if not isinstance(value, dict):
        raise CatalogueError(f"{where}: must be an object")
    known = set(Filter.__dataclass_fields__)
    keys = {key.replace("-", "_"): item for key, item in value.items()}
    unknown = set(keys) - known
    if unknown:
        raise CatalogueError(f"{where}: unknown filter field(s) {', '.join(sorted(unknown))}")
    for key in ("cards", "factions"):
        if key in keys:
            if not isinstance(keys[key], list) or not all(isinstance(i, str) for i in keys[key]):
                raise CatalogueError(f"{where}: {key} must be a list of ids")
            keys[key] = frozenset(keys[key])
    if keys.get("controller") not in (None, "current", "not-current"):
        raise CatalogueError(f"{where}: controller must be 'current' or 'not-current'")
    return Filter(**keys)


def _count(value: Any, where: str) -> Count:
    if not isinstance(value, dict) or "scope" not in value or set(value) - {"scope", "filter"}:
        raise CatalogueError(f"{where}: must be an object with 'scope' (and optional 'filter')")
    return Count(
        scope=_scope(value["scope"], where),
        filter=_filter(value.get("filter", {}), where),
    )


def _condition(value: Any, where: str) -> Condition:
    if not isinstance(value, dict):
        raise CatalogueError(f"{where}: must be an object")
    unknown = set(value) - {"turn", "count", "at-least", "at-most", "declared"}
    if unknown:
        raise CatalogueError(f"{where}: unknown condition field(s) {', '.join(sorted(unknown))}")
    if value.get("turn") not in (None, "controller", "other"):
        raise CatalogueError(f"{where}: turn must be 'controller' or 'other'")
    count = _count(value["count"], where) if "count" in value else None
    if count is not None and "at-least" not in value and "at-most" not in value:
        raise CatalogueError(f"{where}: a count condition needs 'at-least' or 'at-most'")
    return Condition(
        turn=value.get("turn"),
        count=count,
        at_least=value.get("at-least"),
        at_most=value.get("at-most"),
        declared=bool(value.get("declared", False)),
    )


_STRINGS = frozenset(
    {"duration", "rule", "on", "who", "name", "target", "source", "what", "where"}
    | {"challenger", "loser", "reward"}
)

_LITERALS: Mapping[str, tuple[str, ...]] = {
    "duration": ("ongoing", "turn"),
    "rule": ("winner-vp-per-power", "vp-per-minion", "bonus-over-total", "place-bonus"),
    "on": ("play", "leave", "minion-leaves-here", "base-scored"),
    "who": ("controller", "owner", "winner"),
}


def _check(effect: Effect, where: str) -> None:
    literals = TABLE_LITERALS.get(effect.kind, _LITERALS)
    for key, options in literals.items():
        value = getattr(effect, key, None)
        if value is not None and value not in options:
            raise CatalogueError(f"{where}: field {key!r} must be one of {', '.join(options)}")
    scope = getattr(effect, "scope", None)
    if scope in COUNT_ONLY:
        raise CatalogueError(f"{where}: field 'scope' {scope} can only be used in 'per' counts")
    if isinstance(effect, ScoreEffect) and effect.rule == "winner-vp-per-power" and effect.step < 1:
        raise CatalogueError(f"{where}: field 'step' must be at least 1 for winner-vp-per-power")
