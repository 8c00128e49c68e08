"""The league's OpenAPI document is generated from the types its views check bodies with and
build answers as: it has OpenAPI 3.0's structure, and for every POST a body its schema accepts
gets past the view's check while each body its schema refuses is refused with a 400 that
names the field."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.league.openapi import spec
from tests import openapi_bodies as bodies
from tests.league.conftest import League
from tests.league.games import push

DOCUMENT = spec()
POSTS = sorted(path for path, item in DOCUMENT["paths"].items() if "post" in item)
#: a real game in place of the document's examples (a tape has none: it is a whole game)
OVERRIDES: dict[str, dict[str, Any]] = {"/api/v1/games": push(1, "Ann", "Ben", "Cat")}


def _body(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    schema = bodies.body_schema(DOCUMENT["paths"][path]["post"])
    if path in OVERRIDES:
        return schema, OVERRIDES[path]
    return schema, bodies.example(schema)


def _headers(path: str, table_key: str, organiser: str) -> dict[str, str]:
    security = DOCUMENT["paths"][path]["post"]["security"][0]
    return {"Authorization": f"Bearer {table_key if 'table' in security else organiser}"}


def test_the_document_has_the_structure_of_openapi_3_0() -> None:
    assert bodies.problems(DOCUMENT) == []


def test_every_post_describes_its_body_and_the_push_its_answer() -> None:
    assert POSTS and all("requestBody" in DOCUMENT["paths"][p]["post"] for p in POSTS)
    stored = DOCUMENT["paths"]["/api/v1/games"]["post"]["responses"]["201"]
    receipt = stored["content"]["application/json"]["schema"]
    assert {"id", "status", "season", "duplicate", "dispute"} <= set(receipt["required"])


@pytest.mark.parametrize("path", POSTS)
def test_a_body_the_schema_accepts_gets_past_the_check(
    league_client: FlaskClient, table_key: str, organiser: str, path: str
) -> None:
    _, body = _body(path)
    url = path.replace("{uid}", "no-such-game")
    answer = league_client.post(url, json=body, headers=_headers(path, table_key, organiser))
    # the league may still refuse it (404: no such game or player), never as malformed
    assert answer.status_code not in (400, 422) and answer.status_code < 500, answer.get_json()
    responses = DOCUMENT["paths"][path]["post"]["responses"]
    assert str(answer.status_code) in responses, f"document the {answer.status_code} answer"
    described = bodies.answer_schema(DOCUMENT["paths"][path]["post"], answer.status_code)
    if described is not None:  # what it answers is what the document says
        assert bodies.mismatches(answer.get_json(), described, strict=True) == []


@pytest.mark.parametrize("path", POSTS)
def test_each_body_the_schema_refuses_is_refused_naming_the_field(
    league_client: FlaskClient, table_key: str, organiser: str, path: str
) -> None:
    schema, body = _body(path)
    url = path.replace("{uid}", "no-such-game")
    headers = _headers(path, table_key, organiser)
    for key, wrong in bodies.refused(schema, body):
        answer = league_client.post(url, json=wrong, headers=headers)
        assert answer.status_code == 400, (key, answer.get_json())
        assert key in answer.get_json()["error"], (key, answer.get_json())
    not_an_object = league_client.post(url, json=["a", "list"], headers=headers)
    assert not_an_object.status_code == 400


def test_the_refused_variants_cover_every_field() -> None:
    for path in POSTS:
        schema, body = _body(path)
        assert {key for key, _ in bodies.refused(schema, body)} == set(schema["properties"]), path


NUMBERS = [
    (path, parameter)
    for path, item in sorted(DOCUMENT["paths"].items())
    for parameter in item.get("get", {}).get("parameters", [])
    if parameter["in"] == "query" and parameter["schema"].get("type") == "integer"
]


@pytest.mark.parametrize(
    ("path", "parameter"), NUMBERS, ids=[f"{p}?{q['name']}" for p, q in NUMBERS]
)
def test_each_query_number_is_held_to_its_documented_bounds(
    league_client: FlaskClient, path: str, parameter: dict[str, Any]
) -> None:
    url, name = path.replace("{name}", "Ann"), parameter["name"]
    low, high = parameter["schema"]["minimum"], parameter["schema"]["maximum"]
    for wrong in ("many", str(low - 1), str(high + 1)):
        answer = league_client.get(f"{url}?{name}={wrong}")
        assert answer.status_code == 400, (wrong, answer.get_json())
        assert f"?{name}= is a whole number from {low} to {high}" in answer.get_json()["error"]
    for fine in (low, high):
        assert league_client.get(f"{url}?{name}={fine}").status_code != 400


GETS = sorted(path for path, item in DOCUMENT["paths"].items() if "get" in item)


def _call(url: str, body: dict[str, Any] | None = None, key: str = "") -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_every_get_answers_what_the_document_describes(league: League, table_key: str) -> None:
    played = push(2, "Ann", "Ben", "Cat")
    assert _call(f"{league.url}/api/v1/games", played, table_key)[0] == 201
    for path in GETS:
        url = path.replace("{uid}", played["id"]).replace("{name}", "Ann")
        status, answer = _call(league.url + url)
        assert status == 200, (path, answer)
        schema = bodies.answer_schema(DOCUMENT["paths"][path]["get"], 200)
        assert schema is not None, f"{path}: the document does not describe its answer"
        # strict: a key the document does not name is a mismatch too
        assert bodies.mismatches(answer, schema, strict=True) == [], path
