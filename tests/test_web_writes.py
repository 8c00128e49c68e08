"""Only JSON changes the table: every state-changing route (found in the app's url_map, so a
new one cannot be missed) refuses any other body type with a 415 in JSON, and every field of
every route has its type checked. Also: a request no route takes is a 404 or 405, not a 401.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.service import TableService
from companion.web.app import create_app
from companion.web.writes import SAFE_METHODS
from tests.conftest import AUTH, TOKEN

PLAYERS = [
    {"name": "Ann", "colour": "#e53935", "factions": ["munchkin/orcs", "core/ninjas"]},
    {"name": "Ben", "colour": "#1e88e5", "factions": ["oops/cowboys", "core/robots"]},
]
#: every state-changing route: a body it takes, and for each field a value of the wrong type
FIELDS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "/api/input": (
        {"line": {"input": "end-turn"}, "version": 0},
        {"line": "end-turn", "version": "0"},
    ),
    "/api/games": (
        {"players": PLAYERS},
        {"game": 1, "players": {"Ann": 1}, "zones": "3", "printings": ["current"]},
    ),
    "/api/bindings": (
        {"uid": "04AA", "card": "munchkin/treehouse"},
        {"uid": 4, "card": ["munchkin/treehouse"], "owner": 1, "rebind": "yes"},
    ),
    "/api/enrol/start": (
        {"zone": "base-1", "faction": "core/ninjas"},
        {"zone": 1, "faction": None, "owner": 2},
    ),
    "/api/enrol/stop": ({}, {}),
    "/api/readers/<zone>/reopen": ({}, {}),
    "/api/sim/<zone>/place": ({"uid": "B1"}, {"uid": 2}),
    "/api/sim/<zone>/lift": ({}, {"uid": 2}),
    "/api/demo/pause": ({}, {}),
    "/api/demo/resume": ({}, {}),
    "/api/pairing": ({}, {}),
    "/api/pairing/claim": ({"pairing": "x"}, {"pairing": 1}),
    "/api/pairing/cancel": ({"pairing": "x"}, {"pairing": ["x"]}),
}


@pytest.fixture
def app(service: TableService) -> Flask:
    return create_app(service=service, token=TOKEN, simulated=True)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def writes(app: Flask) -> dict[str, str]:
    """Every route that takes a method other than GET, HEAD, OPTIONS: rule -> method."""
    found: dict[str, str] = {}
    for rule in app.url_map.iter_rules():
        changing = sorted((rule.methods or set()) - SAFE_METHODS)
        if changing:
            assert changing == ["POST"], f"{rule.rule} takes {changing}: add it to FIELDS"
            found[rule.rule] = changing[0]
    return found


def address(rule: str) -> str:
    return re.sub(r"<[^>]+>", "base-1", rule)


def test_every_state_changing_route_is_listed(app: Flask) -> None:
    assert set(writes(app)) == set(FIELDS)


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
    ],
)
def test_only_json_bodies_change_state(
    app: Flask, client: FlaskClient, service: TableService, content_type: str | None
) -> None:
    """Was: JSON sent as text/plain created a game (what a page on another site can send)."""
    games = len(service.store.log.games())
    for rule in writes(app):
        body, _ = FIELDS[rule]
        headers = dict(AUTH) if content_type is None else {**AUTH, "Content-Type": content_type}
        answer = client.post(address(rule), data=json.dumps(body), headers=headers)
        assert answer.status_code == 415, (rule, answer.status_code)
        assert answer.is_json and "Content-Type: application/json" in answer.get_json()["error"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert service.version == 0 and len(service.store.log.games()) == games


def test_every_field_has_its_type_checked(app: Flask, client: FlaskClient) -> None:
    """Was: lift took {"uid": 2}."""
    for rule in writes(app):
        body, wrong = FIELDS[rule]
        for field, value in wrong.items():
            answer = client.post(address(rule), json={**body, field: value}, headers=AUTH)
            assert answer.status_code == 400, (rule, field, answer.get_json())
            assert f'"{field}"' in answer.get_json()["error"], (rule, field)


def test_every_body_is_a_json_object(app: Flask, client: FlaskClient) -> None:
    for rule in writes(app):
        for data in (b"[1]", b'"text"', b"3", b"{oops"):
            answer = client.post(
                address(rule), data=data, headers={**AUTH, "Content-Type": "application/json"}
            )
            assert answer.status_code == 400, (rule, data)
            assert "JSON object" in answer.get_json()["error"]


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE", "PATCH", "BREW"])
def test_a_method_no_route_takes_is_405_not_401(client: FlaskClient, method: str) -> None:
    for path in ("/api/input", "/api/state", "/"):
        answer = client.open(path, method=method)
        assert answer.status_code == 405, (method, path, answer.status_code)
        assert answer.headers["X-Frame-Options"] == "DENY"
        if path.startswith("/api/"):
            assert answer.get_json()["error"]


def test_an_unknown_path_is_404_not_401(client: FlaskClient) -> None:
    answer = client.post("/api/nothing-here", json={})
    assert answer.status_code == 404 and answer.get_json()["error"]
