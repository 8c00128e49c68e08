"""Reading one field of a card file's JSON object, with errors that name the field."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from companion.errors import CatalogueError

T = TypeVar("T")

PRINTINGS: Final = ("first", "current")
"""Printings a card may also have besides the catalogue's own (its text with the published
errata): ``first`` as first printed, ``current`` as printed today (print on demand)."""


def field_of(raw: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in raw:
        raise CatalogueError(f"{where}: field {key!r} is missing")
    value = raw[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CatalogueError(f"{where}: field {key!r} must be {kind.__name__}, got {value!r}")
    return value


def optional(raw: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in raw:
        raise CatalogueError(f"{where}: field {key!r} is missing (write null if unknown)")
    if raw[key] is None:
        return None
    return field_of(raw, key, kind, where)


def choice(raw: Mapping[str, Any], key: str, options: tuple[str, ...], where: str) -> Any:
    value = raw.get(key)
    if value not in options:
        raise CatalogueError(f"{where}: field {key!r} must be one of {', '.join(options)}")
    return value


def printings_of(
    raw: Mapping[str, Any], where: str, parse: Callable[[dict[str, Any], str], T]
) -> tuple[tuple[str, T], ...]:
    """Each other printing of a card: the card with the printing's fields in place of its
    own, parsed by ``parse(fields, printing name)``."""
    found = raw.get("printings", {})
    if not isinstance(found, dict):
        raise CatalogueError(f"{where}: field 'printings' must map printing names to fields")
    printings = []
    for name, fields in found.items():
        if name not in PRINTINGS or not isinstance(fields, dict):
            raise CatalogueError(
                f"{where}: printing {name!r} must be one of {', '.join(PRINTINGS)} "
                "and map fields to their printed values"
            )
        if {"id", "name", "type", "faction", "printings"} & set(fields):
            raise CatalogueError(f"{where}: printing {name!r} may not change id, name or type")
        merged = {k: v for k, v in raw.items() if k != "printings"} | fields
        printings.append((name, parse(merged, name)))
    return tuple(printings)
