"""Nothing a client sends makes the league answer 500 or show a traceback: every refusal is
a 4xx with a JSON error that says what to do, and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.league.database import Connection
from companion.tape.strict import StrictJSONError
from companion.tape.strict import loads as strict_loads
from tests.league.games import push

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def raw(league_client: FlaskClient, key: str, data: bytes) -> Any:
    return league_client.post(
        "/api/v1/games",
        data=data,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{not json", "must be JSON"),
        (b"\xff\xfe", "must be JSON"),
        (b'{"id": NaN}', "NaN"),
        (b'{"id": 1e999}', "too large"),
        (json.dumps({"id": "a\u0000b"}).encode(), "NUL"),
        (b"[]", "JSON object"),
        (b"", "must be JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nested"),  # was a RecursionError: a 500
        (b'{"id": ' + b"9" * 5000 + b"}", "too long"),
    ],
)
def test_unreadable_bodies_are_refused_clearly(
    league_client: FlaskClient, table_key: str, data: bytes, message: str
) -> None:
    answer = raw(league_client, table_key, data)
    assert answer.status_code == 400
    assert message in answer.json["error"]


def test_a_body_too_large_is_413(league_client: FlaskClient, table_key: str) -> None:
    answer = raw(league_client, table_key, b" " * (9 * 1024 * 1024))
    assert answer.status_code == 413 and "MB" in answer.json["error"]


def test_wrong_paths_methods_and_parameters_answer_in_json(league_client: FlaskClient) -> None:
    assert league_client.get("/api/v1/nothing").status_code == 404
    assert "openapi" in league_client.get("/api/v1/nothing").json["error"]
    assert league_client.delete("/api/v1/games").status_code == 405
    assert league_client.get("/api/v1/games?limit=0").status_code == 400
    assert league_client.get("/api/v1/games?limit=ten").json["error"].startswith("?limit=")
    assert league_client.get("/api/v1/games/none").status_code == 404
    assert league_client.get("/api/v1/players/nobody").status_code == 404
    page = league_client.get("/games/none")
    assert page.status_code == 404 and b"there is no game" in page.data


def test_organiser_bodies_are_checked(league_client: FlaskClient, organiser: str) -> None:
    auth = {"Authorization": f"Bearer {organiser}"}
    assert (
        league_client.post("/api/v1/players/merge", json={"from": 1}, headers=auth).status_code
        == 400
    )
    assert league_client.post("/api/v1/seasons", json=[], headers=auth).status_code == 400
    assert (
        league_client.post("/api/v1/seasons", json={"name": " "}, headers=auth).status_code == 400
    )
    assert (
        league_client.post("/api/v1/games/x/void", json={"reason": 3}, headers=auth).status_code
        == 400
    )
    assert league_client.post("/api/v1/games/x/void", json={}, headers=auth).status_code == 404


FIELDS = ("id", "status", "tape", "claimed", "guests", "finished_at")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(field=st.sampled_from(FIELDS), value=JSON_VALUES)
def test_any_field_replaced_by_any_json_is_never_a_500(
    league_client: FlaskClient, table_key: str, field: str, value: Any
) -> None:
    body = {**push(1, "Ann", "Ben"), field: value}
    assert raw(league_client, table_key, json.dumps(body).encode()).status_code < 500


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    key=st.sampled_from(["factions", "zones", "tags", "game", "tape", "colours"]), value=JSON_VALUES
)
def test_any_header_field_replaced_is_never_a_500(
    league_client: FlaskClient, table_key: str, key: str, value: Any
) -> None:
    body = push(1, "Ann", "Ben")
    body["id"] = f"h-{abs(hash((key, json.dumps(value)))) % 10**9}"
    body["tape"][0] = {**body["tape"][0], key: value}
    assert raw(league_client, table_key, json.dumps(body).encode()).status_code < 500


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(line=st.dictionaries(st.sampled_from(["tap", "zone", "input", "tag", "player", "delta",
                                             "prompt", "option", "at", "count"]),
                            JSON_VALUES, max_size=4))  # fmt: skip
def test_any_event_line_is_never_a_500(
    league_client: FlaskClient, table_key: str, db: Connection, line: dict[str, Any]
) -> None:
    body = push(1, "Ann", "Ben")
    body["id"] = f"l-{abs(hash(json.dumps(line, sort_keys=True))) % 10**9}"
    body["tape"].insert(5, line)
    answer = raw(league_client, table_key, json.dumps(body).encode())
    if "\\u0000" in json.dumps(line):
        assert answer.status_code == 400  # PostgreSQL cannot keep NUL in text
    elif not _strict_json(json.dumps(line)):
        # the league reads bodies as the table reads lines: a 16-digit number is refused
        assert answer.status_code == 400 and "the body must be JSON" in answer.json["error"]
    else:
        assert answer.status_code in (200, 201, 409), answer.json


def _strict_json(text: str) -> bool:
    try:
        strict_loads(text)
    except StrictJSONError:
        return False
    return True
