"""The dashboard's OpenAPI document is generated from the types its views check bodies with: it
has OpenAPI 3.0's structure, and for every POST a body its schema accepts gets past the view's
check while each body its schema refuses is refused with a 400 that names the field."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.table.demo import DemoPlayer
from companion.table.service import TableService
from companion.web.app import create_app
from companion.web.openapi import spec
from tests import openapi_bodies as bodies
from tests.conftest import AUTH, TOKEN

DOCUMENT = spec()
POSTS = sorted(path for path, item in DOCUMENT["paths"].items() if "post" in item)
#: values the test table needs in place of the document's examples (its zones and tags)
TABLE = {"{zone}": "base-1"}
OVERRIDES: dict[str, dict[str, Any]] = {"/api/sim/{zone}/place": {"uid": "B1"}}


@pytest.fixture
def sim_client(service: TableService) -> Iterator[FlaskClient]:
    demo = DemoPlayer(service)
    yield create_app(service=service, token=TOKEN, simulated=True, demo=demo).test_client()


def _url(path: str) -> str:
    for name, value in TABLE.items():
        path = path.replace(name, value)
    return path


def _body(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    schema = bodies.body_schema(DOCUMENT["paths"][path]["post"])
    return schema, {**bodies.example(schema), **OVERRIDES.get(path, {})}


def test_the_document_has_the_structure_of_openapi_3_0() -> None:
    assert bodies.problems(DOCUMENT) == []


def test_every_post_describes_its_body() -> None:
    assert POSTS and all("requestBody" in DOCUMENT["paths"][p]["post"] for p in POSTS)


@pytest.mark.parametrize("path", POSTS)
def test_a_body_the_schema_accepts_gets_past_the_check(sim_client: FlaskClient, path: str) -> None:
    _, body = _body(path)
    answer = sim_client.post(_url(path), json=body, headers=AUTH)
    # the table may still refuse it (409: a stale version; 404: nothing to pair), never as
    # malformed (400) or by failing (5xx)
    assert answer.status_code not in (400, 422) and answer.status_code < 500, answer.get_json()
    responses = DOCUMENT["paths"][path]["post"]["responses"]
    assert str(answer.status_code) in responses, f"document the {answer.status_code} answer"
    described = bodies.answer_schema(DOCUMENT["paths"][path]["post"], answer.status_code)
    if described is not None:  # what it answers is what the document says
        assert bodies.mismatches(answer.get_json(), described, strict=True) == []


@pytest.mark.parametrize("path", POSTS)
def test_each_body_the_schema_refuses_is_refused_naming_the_field(
    sim_client: FlaskClient, path: str
) -> None:
    schema, body = _body(path)
    cases = list(bodies.refused(schema, body))
    for key, wrong in cases:
        answer = sim_client.post(_url(path), json=wrong, headers=AUTH)
        assert answer.status_code == 400, (key, wrong, answer.get_json())
        assert key in answer.get_json()["error"], (key, answer.get_json())
    not_an_object = sim_client.post(_url(path), json=["a", "list"], headers=AUTH)
    assert not_an_object.status_code == 400


def test_the_refused_variants_cover_every_field() -> None:
    """The test above has something to send: every property of every body gets a variant."""
    for path in POSTS:
        schema, body = _body(path)
        varied = {key for key, _ in bodies.refused(schema, body)}
        assert varied == set(schema.get("properties", {})), path
