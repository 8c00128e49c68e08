"""What every league view needs: the database pool, a strictly read JSON body, checked query
parameters, and who is asking (a table by its key, the organiser by the token).

Keys come as ``Authorization: Bearer <key>``.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from flask import current_app, request

from companion.league.admin import TableRow, is_organiser, table_for_key
from companion.league.database import Pool, using
from companion.league.engine import ShapeError, StrictJSONError, check, check_query, strict_json
from companion.league.errors import BadRequest, LeagueError

POOL = "league.pool"
T = TypeVar("T")


def pool() -> Pool:
    found: Pool = current_app.extensions[POOL]
    return found


def json_body() -> Any:
    """The request body as JSON, read by the same strict reader as tapes and the table's
    requests (no NaN, bounded numbers and nesting, UTF-8). Refuses too what PostgreSQL could
    not keep as it is: NUL characters in text."""
    try:
        body = strict_json(request.get_data(cache=False))
    except StrictJSONError as exc:
        raise BadRequest(f"the body must be JSON in UTF-8 ({exc})") from None
    if "\\u0000" in json.dumps(body):
        raise BadRequest("the body must not contain NUL characters (\\u0000)")
    return body


def read(shape: type[T], refused: str) -> T:
    """The request body as ``shape`` (declared in :mod:`companion.league.bodies`, which the
    OpenAPI document describes). :raises BadRequest: ``refused`` (what the body must be)."""
    try:
        return check(json_body(), shape)
    except ShapeError:
        raise BadRequest(refused) from None


def query(shape: type[T]) -> T:
    """The query parameters as ``shape`` (declared in :mod:`companion.league.bodies`, which
    the OpenAPI document describes). :raises BadRequest: naming the parameter."""
    try:
        return check_query(request.args, shape)
    except ShapeError as exc:
        raise BadRequest(str(exc)) from None


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def require_table() -> TableRow:
    """The pushing table. :raises LeagueError: 401 without a key, or with an unknown one."""
    key = _bearer()
    if key is None:
        raise LeagueError(
            "a table sends its key as 'Authorization: Bearer <table key>' (from "
            "`companion league table add NAME`, in the table config's [league] section)",
            401,
        )
    with using(pool()) as conn:
        table = table_for_key(conn, key)
    if table is None:
        raise LeagueError("this table key is not known to the league (or was revoked)", 401)
    return table


def require_organiser() -> None:
    """:raises LeagueError: 401 unless the organiser token is given."""
    token = _bearer()
    if token is None:
        raise LeagueError(
            "this needs the organiser token as 'Authorization: Bearer <token>' "
            "(`companion league organiser-token` makes one)",
            401,
        )
    with using(pool()) as conn:
        allowed = is_organiser(conn, token)
    if not allowed:
        raise LeagueError("that is not the organiser token", 403)
