"""Reading one field of a card file's JSON object, with errors that name the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import CatalogueError


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
