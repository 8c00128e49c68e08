"""Request bodies are strict JSON within limits: a refusal names the field, with a 4xx."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import AUTH

JSON_HEADERS = {**AUTH, "Content-Type": "application/json"}


def post_raw(client: FlaskClient, path: str, body: bytes) -> Any:
    return client.post(path, data=body, headers=JSON_HEADERS)


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        (
            b'{"line": {"input": "madness", "player": "Ann", "delta": ' + b"9" * 4300 + b"}}",
            400,
            "too long",
        ),
        (
            b'{"line": {"input": "madness", "player": "Ann", "delta": 101}, "version": 0}',
            400,
            '"delta" must be from -100 to 100',
        ),
        (
            b'{"line": {"input": "madness", "player": "Ann", "delta": NaN}, "version": 0}',
            400,
            "NaN is not a JSON number",
        ),
        (
            b'{"line": {"tap": "B1", "zone": "base-1", "at": "soon"}, "version": 0}',
            400,
            '"at" must be a number',
        ),
        (b'{"line": {"tap": "B1", "zone": "\\ud800"}, "version": 0}', 400, "lone surrogate"),
        (b'{"line": {"tap": "B1", "zone": "base-\xff"}, "version": 0}', 400, "not valid UTF-8"),
        (b'{"line": ' * 2000 + b"1" + b"}" * 2000, 400, "nested more than"),
        (
            b'{"line": {"input": "bury", "zone": "base-1", "count": 5000}, "version": 0}',
            400,
            '"count" must be from 0 to 1000',
        ),
        (
            b'{"line": {"tap": "B1", "zone": "base-1"}, "version": ' + b"9" * 30 + b"}",
            400,
            "too long",
        ),
    ],
    ids=["huge-delta", "delta", "nan", "at", "surrogate", "utf8", "deep", "count", "version"],
)
def test_bad_input_bodies_are_refused_naming_the_field(
    client: FlaskClient, body: bytes, status: int, said: str
) -> None:
    answer = post_raw(client, "/api/input", body)
    assert answer.status_code == status, answer.get_json()
    assert said in answer.get_json()["error"]
    state = client.get("/api/state")
    assert state.status_code == 200 and state.get_json()["version"] == 0


def test_huge_madness_deltas_never_reach_the_state(client: FlaskClient) -> None:
    """Issue 15, 4: two 4,300-digit deltas made /api/state answer 500 until an undo."""
    for _ in range(2):
        body = b'{"line": {"input": "madness", "player": "Ann", "delta": 1' + b"0" * 4300
        answer = post_raw(client, "/api/input", body + b'}, "version": 0}')
        assert answer.status_code == 400
    state = client.get("/api/state")
    assert state.status_code == 200
    assert [p["madness"] for p in state.get_json()["state"]["players"]] == [0, 0, 0]


@pytest.mark.parametrize(
    "path", ["/api/input", "/api/bindings", "/api/enrol/stop", "/api/readers/base-1/reopen"]
)
def test_a_ten_megabyte_body_is_413_even_where_nothing_reads_it(
    client: FlaskClient, path: str
) -> None:
    answer = post_raw(client, path, b"{" + b" " * (10 << 20) + b"}")
    assert answer.status_code == 413
    assert "too large" in answer.get_json()["error"].lower()


@pytest.mark.parametrize(
    "path",
    ["/api/games/" + "9" * 30, "/history/" + "9" * 30, "/api/events?last=" + "9" * 5000],
)
def test_huge_numbers_in_addresses_are_not_a_500(client: FlaskClient, path: str) -> None:
    answer = client.get(path, buffered=False)
    assert answer.status_code in (200, 404)
    answer.close()
