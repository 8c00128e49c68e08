"""Reading request bodies (strict JSON, held to the types in :mod:`companion.web.bodies`) and
checking tag uids, with messages a person can act on."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from flask import request

from companion.tape.shapes import ShapeError
from companion.tape.shapes import check as check_shape
from companion.tape.strict import StrictJSONError, loads
from companion.web.errors import BadRequest

T = TypeVar("T")

UID = re.compile(r"^[0-9A-Fa-f]{2,20}$")
COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


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


def read(shape: type[T]) -> T:
    """The request's JSON object as ``shape``, one of the bodies declared in
    :mod:`companion.web.bodies` (the OpenAPI document describes the same types).

    :raises BadRequest: naming the first field that is missing or wrong.
    """
    try:
        return check_shape(json_body(), shape)
    except ShapeError as exc:
        raise BadRequest(str(exc)) from None


def check_uid(uid: str) -> str:
    """An upper-case tag uid. :raises BadRequest: not 2 to 20 hex digits."""
    if not UID.match(uid):
        raise BadRequest(f"{uid!r} is not a tag uid: write its hex digits, e.g. 04A1B2C3D4E5F6")
    return uid.upper()
