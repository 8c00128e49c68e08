"""Reading and checking request bodies and query strings, with messages a person can act on."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from flask import request

from companion.tape.strict import StrictJSONError, loads
from companion.web.errors import BadRequest

T = TypeVar("T")

UID = re.compile(r"^[0-9A-Fa-f]{2,20}$")
COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_NAMES = {
    bool: "true or false",
    int: "a whole number",
    str: "a string",
    list: "a list",
    dict: "an object",
}


def json_body() -> dict[str, Any]:
    """The request's JSON object; an empty body is ``{}``. Strict JSON within our limits
    (:mod:`companion.tape.strict`). :raises BadRequest: saying what is wrong."""
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    try:
        data = loads(raw)
    except StrictJSONError as exc:
        raise BadRequest(f"the body is refused: {exc}; send a JSON object") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return data


def need(body: dict[str, Any], key: str, kind: type[T], what: str | None = None) -> T:
    """``body[key]``, which must be present and of ``kind`` (a bool is not an int)."""
    if key not in body:
        raise BadRequest(f'"{key}" is missing: send {what or _NAMES.get(kind, kind.__name__)}')
    return check(body[key], key, kind, what)


def maybe(body: dict[str, Any], key: str, kind: type[T], what: str | None = None) -> T | None:
    """``body[key]`` if present and not null."""
    value = body.get(key)
    return None if value is None else check(value, key, kind, what)


def check(value: Any, key: str, kind: type[T], what: str | None = None) -> T:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRequest(f'"{key}" must be {what or _NAMES.get(kind, kind.__name__)}')
    return value


def uid_field(body: dict[str, Any], key: str = "uid") -> str:
    return check_uid(need(body, key, str, "a tag uid in hex"))


def check_uid(uid: str) -> str:
    """An upper-case tag uid. :raises BadRequest: not 2 to 20 hex digits."""
    if not UID.match(uid):
        raise BadRequest(f"{uid!r} is not a tag uid: write its hex digits, e.g. 04A1B2C3D4E5F6")
    return uid.upper()
