"""A faster :func:`dataclasses.replace` for the table's values.

A step makes new Tables, Bases and Minions by the thousand in a long night's replay, and
:func:`dataclasses.replace` walks the class's fields, checks each and builds keyword arguments
every time (half again to twice the cost of the copy itself). :func:`revise` reads all fields
at once and calls the class with them in field order: the same ``__init__`` (and
``__post_init__``) as ``replace`` runs, so the same value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any

__all__ = ["revise"]

#: per class: one getter for all its fields, and each field's position
_LAYOUT: dict[type, tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]] | None] = {}


def _layout(cls: type) -> tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]] | None:
    """How to copy ``cls`` positionally, or None where :func:`~dataclasses.replace` must do:
    a field ``__init__`` does not take, or a single field (attrgetter then returns no tuple)."""
    if cls not in _LAYOUT:
        found = fields(cls)
        names = tuple(f.name for f in found)
        usable = len(names) > 1 and all(f.init for f in found)
        _LAYOUT[cls] = (attrgetter(*names), {n: i for i, n in enumerate(names)}) if usable else None
    return _LAYOUT[cls]


if TYPE_CHECKING:
    # type-checked as what it is: dataclasses.replace (field names and types included)
    from dataclasses import replace as revise
else:

    def revise(value: Any, /, **changes: Any) -> Any:
        """``value`` with ``changes``, as :func:`dataclasses.replace` makes it."""
        cls = type(value)
        layout = _LAYOUT[cls] if cls in _LAYOUT else _layout(cls)
        if layout is None:
            return replace(value, **changes)
        values, position = layout
        copied = list(values(value))
        try:
            for name, changed in changes.items():
                copied[position[name]] = changed
        except KeyError:
            return replace(value, **changes)  # says which field is unknown
        return cls(*copied)
