"""Parsing the ``effects`` list of a card (``cards/README.md``): pure and strict. Anything
unknown is a :class:`CatalogueError` naming the card, the effect's index and the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from companion.catalogue.effect_terms import COUNT_ONLY, Condition, Count, Filter, Scope
from companion.catalogue.effects import (
    KINDS,
    BreakpointEffect,
    Duration,
    Effect,
    OneTurnTrigger,
    PowerEffect,
    ScoreEffect,
    TreasureTrigger,
    Trigger,
    one_turn,
)
from companion.catalogue.status_effects import LITERALS as STATUS_LITERALS
from companion.catalogue.status_effects import TraitEffect
from companion.catalogue.table_effects import LITERALS as TABLE_LITERALS
from companion.errors import CatalogueError

_FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(cls.__dataclass_fields__) for kind, cls in KINDS.items()
}
_ONE_TURN: dict[str, tuple[str, ...]] = {
    "duration": get_args(Duration),
    "on": get_args(OneTurnTrigger),
}
#: allowed values of the string fields, per kind
_LITERALS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "power": _ONE_TURN,
    "player-power": _ONE_TURN,
    "breakpoint": _ONE_TURN,
    "treasures": {"on": get_args(TreasureTrigger)},
    "score": {
        "rule": ("winner-vp-per-power", "vp-per-minion", "bonus-over-total", "place-bonus"),
    },
    "vp": {"on": get_args(Trigger), "who": ("controller", "owner", "winner")},
    **STATUS_LITERALS,
    **TABLE_LITERALS,
}
_WHOLE = frozenset(
    {"amount", "step", "total", "places", "place", "count", "vp", "boost", "max-power", "reset"}
)
_FLAGS = frozenset({"replaces", "may", "behind", "once", "opponents", "base-effect"})
_STRINGS = frozenset(
    {"duration", "rule", "on", "who", "name", "target", "source", "what", "where", "trait"}
    | {"challenger", "loser", "reward"}
)


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
    if not isinstance(raw, dict) or raw.get("kind") not in KINDS:
        raise CatalogueError(f"{where}: field 'kind' must be one of {', '.join(KINDS)}")
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
        effect: Effect = KINDS[kind](**values)
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
    if key in _WHOLE:
        if not isinstance(value, int) or isinstance(value, bool):
            raise CatalogueError(f"{where}: must be a whole number")
        return value
    if key in _FLAGS:
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
    if keys.get("trait") is not None and not isinstance(keys["trait"], str):
        raise CatalogueError(f"{where}: trait must be a string")
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
    unknown = set(value) - {"turn", "count", "at-least", "at-most", "declared", "ahead"}
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
        ahead=bool(value.get("ahead", False)),
    )


def _check(effect: Effect, where: str) -> None:
    for key, options in _LITERALS.get(effect.kind, {}).items():
        value = getattr(effect, key, None)
        if value is not None and value not in options:
            raise CatalogueError(f"{where}: field {key!r} must be one of {', '.join(options)}")
    scope = getattr(effect, "scope", None)
    if scope in COUNT_ONLY:
        raise CatalogueError(f"{where}: field 'scope' {scope} can only be used in 'per' counts")
    if isinstance(effect, ScoreEffect) and effect.rule == "winner-vp-per-power" and effect.step < 1:
        raise CatalogueError(f"{where}: field 'step' must be at least 1 for winner-vp-per-power")
    _check_resolution(effect, where)


def _check_resolution(effect: Effect, where: str) -> None:
    """What can only be read once, when an effect resolves, is only asked of effects that
    resolve: current power (``min-power``) and ``ahead`` need a one-turn effect."""
    flt = getattr(effect, "filter", None)
    when = getattr(effect, "when", None)
    resolves = one_turn(effect) or effect.kind == "vp"
    if isinstance(flt, Filter) and flt.min_power is not None and not resolves:
        raise CatalogueError(f"{where}: filter 'min-power' needs a one-turn effect or a vp trigger")
    if isinstance(when, Condition) and when.ahead and getattr(effect, "on", None) is None:
        raise CatalogueError(f"{where}: condition 'ahead' needs a triggered effect ('on')")
    if isinstance(effect, BreakpointEffect) and effect.reset is not None and effect.amount:
        raise CatalogueError(f"{where}: a breakpoint effect has 'amount' or 'reset', not both")
    if isinstance(effect, PowerEffect) and effect.base_effect and not one_turn(effect):
        raise CatalogueError(f"{where}: 'base-effect' is for one-turn effects")
    if isinstance(effect, TraitEffect) and effect.scope in (Scope.PLAYED, Scope.BEARER):
        raise CatalogueError(f"{where}: a trait is given to 'self', 'mine' or the like")
