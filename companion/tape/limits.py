"""The contract's types and our limits for one tape line, checked where a line comes in.

A line comes from a tape, a tablet request or the store. Each field the contract names must have
its type (``"at"`` a number, ``"delta"`` a whole number, ``"tags"`` a list of uids, ...), and
numbers stay within bounds no game reaches (``|delta| <= 100``, ``count <= 1000``): a 4,300-digit
Madness delta is not a typo the tracker should add up. Fields the contract does not name are
kept (the contract grows by addition) but bounded like the rest. A refusal names the field.

Pure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import UnionType
from typing import Any, get_args, get_origin, get_type_hints

from companion.errors import InvalidLine
from companion.tape.documents import Line
from companion.tape.strict import SURROGATE, StrictJSONError, check_value

NUMBER_BOUNDS: dict[str, tuple[float, float]] = {
    "at": (0, 1e9),  # seconds since the tape started: 31 years
    "delta": (-100, 100),
    "count": (0, 1000),
    "prompt": (0, 1e9),
    "option": (0, 1000),
    "effect": (0, 1000),
    "roll": (0, 100),
}
"""Inclusive bounds of the contract's numeric fields."""
OTHER_NUMBERS = 1e12
"""The bound of numbers in fields the contract does not name."""
MAX_TEXT = 1000
"""The longest string a line may hold (names and uids are far shorter)."""
MAX_ITEMS = 1000
"""The most entries a line's lists and objects may hold."""
NULLABLE = frozenset({"player", "owner"})
"""Fields where ``null`` means nobody (a monster released, an unowned copy)."""

FIELD_TYPES: dict[str, Any] = get_type_hints(Line)
_NAMES = {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}


def _compiled(kind: Any) -> tuple[bool, tuple[Any, ...]]:
    """A field's type as (is a list, the types an item or the value may have), read from the
    type hints once instead of on every line."""
    if get_origin(kind) is list:
        return True, get_args(kind)
    return False, get_args(kind) if isinstance(kind, UnionType) else (kind,)


_CHECKS = {key: _compiled(kind) for key, kind in FIELD_TYPES.items()}


def check_line(value: Mapping[str, Any]) -> Line:
    """``value`` as a tape line. :raises InvalidLine: naming the first field that breaks the
    contract's types or our limits."""
    if not isinstance(value, dict):
        raise InvalidLine(f"a line must be a JSON object, not {type(value).__name__}")
    if not _flat_and_within_limits(value):  # the walks below say what is wrong, and where
        try:
            check_value(value)
        except StrictJSONError as exc:
            raise InvalidLine(f"the line is refused: {exc}") from None
        _check_sizes(value, "the line")
    for key, item in value.items():
        check = _CHECKS.get(key)
        if check is None:
            continue
        if item is None and key in NULLABLE:
            continue
        _check_field(key, item, *check)
    return value  # type: ignore[return-value]  # checked field by field above


def _flat_and_within_limits(line: dict[Any, Any]) -> bool:
    """Whether ``line`` holds no list or object and passes both walks (strict text, sizes):
    most lines (a tap, an answer) are checked in this one loop. Anything else, or anything
    near a limit, is left to the walks."""
    if len(line) > MAX_ITEMS:
        return False
    for key, item in line.items():
        if type(key) is not str or len(key) > MAX_TEXT or SURROGATE.search(key):
            return False
        kind = type(item)
        if kind is str:
            if len(item) > MAX_TEXT or SURROGATE.search(item):
                return False
        elif kind is int:
            if not -OTHER_NUMBERS <= item <= OTHER_NUMBERS:
                return False
        elif kind is float:
            if not (math.isfinite(item) and abs(item) <= OTHER_NUMBERS):
                return False
        elif item is not None and kind is not bool:
            return False
    return True


def _check_field(key: str, item: Any, is_list: bool, kinds: tuple[Any, ...]) -> None:
    if is_list:
        (inner,) = kinds
        if not isinstance(item, list) or not all(_is(entry, inner) for entry in item):
            raise InvalidLine(f'"{key}" must be a list of {_plural(inner)}')
        return
    if not any(_is(item, one) for one in kinds):
        names = " or ".join(_NAMES.get(one, one.__name__) for one in kinds)
        raise InvalidLine(f'"{key}" must be {names}')
    bounds = NUMBER_BOUNDS.get(key)
    if bounds is not None and not bounds[0] <= item <= bounds[1]:
        low, high = (f"{b:g}" for b in bounds)
        raise InvalidLine(f'"{key}" must be from {low} to {high}, not {item:g}')


def _is(value: Any, kind: Any) -> bool:
    if isinstance(value, bool):
        return kind is bool
    if kind is float:
        return isinstance(value, int | float) and math.isfinite(value)
    return isinstance(value, kind)


def _plural(kind: Any) -> str:
    return {str: "strings", int: "whole numbers"}.get(kind, "values")


def _check_sizes(value: Any, where: str) -> None:
    """Every string, list, object and number in ``value`` within our limits."""
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise InvalidLine(f"{where} is a text of {len(value)} characters (at most {MAX_TEXT})")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        if not (math.isfinite(value) and abs(value) <= OTHER_NUMBERS):
            raise InvalidLine(f"{where} is a number out of range")
    elif isinstance(value, dict | list):
        if len(value) > MAX_ITEMS:
            raise InvalidLine(f"{where} has {len(value)} entries (at most {MAX_ITEMS})")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            _check_sizes(key, where)
            _check_sizes(item, f'"{key}"' if where == "the line" else where)
