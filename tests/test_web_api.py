"""The dashboard's JSON API through Flask's test client, and its live stream through a real
threaded server."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.table.service import TableService
from companion.web.app import TOKEN_HEADER
from tests.conftest import AUTH, serving
from tests.sse import next_event
from tests.tapes import HEADER


def post_input(client: FlaskClient, line: dict[str, Any], version: int, **headers: str) -> Any:
    return client.post(
        "/api/input", json={"line": line, "version": version}, headers={**AUTH, **headers}
    )


def test_state_is_open_to_view(client: FlaskClient) -> None:
    answer = client.get("/api/state")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["version"] == 0 and body["state"]["players"][0]["name"] == "Ann"
    assert body["simulated"] is False


def test_input_applies_and_bumps_the_version(client: FlaskClient) -> None:
    answer = post_input(client, {"tap": "B1", "zone": "base-1"}, 0)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["version"] == 1
    assert answer.get_json()["events"][0]["event"] == "base-entered"
    assert client.get("/api/state").get_json()["state"]["bases"][0]["card"] == "munchkin/treehouse"


@pytest.mark.parametrize(
    ("headers", "message"),
    [({}, "control token"), ({TOKEN_HEADER: "nope"}, "control token is not, or no longer, valid")],
)
def test_changes_need_the_token(client: FlaskClient, headers: dict[str, str], message: str) -> None:
    answer = client.post(
        "/api/input", json={"line": {"input": "end-turn"}, "version": 0}, headers=headers
    )
    assert answer.status_code == 401 and message in answer.get_json()["error"]
    assert client.get("/api/state").get_json()["version"] == 0


def test_stale_version_is_refused_with_a_clear_message(client: FlaskClient) -> None:
    assert post_input(client, {"input": "end-turn"}, 0).status_code == 200
    stale = post_input(client, {"input": "end-turn"}, 0)
    assert stale.status_code == 409
    assert "changed since you looked" in stale.get_json()["error"]


def test_two_tablets_award_at_once_only_one_wins(
    client: FlaskClient, service: TableService
) -> None:
    for line in (
        {"tap": "B3", "zone": "base-3"},
        *[{"tap": t, "zone": "base-3"} for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
        {"input": "counter", "tag": "TP", "delta": 3},
        {"input": "score", "zone": "base-3"},
    ):
        service.submit(line)
    seen = service.version
    codes: list[int] = []
    app = client.application

    def press() -> None:
        codes.append(
            app.test_client()
            .post("/api/input", json={"line": {"input": "award"}, "version": seen}, headers=AUTH)
            .status_code
        )

    presses = [threading.Thread(target=press) for _ in range(2)]
    for thread in presses:
        thread.start()
    for thread in presses:
        thread.join()
    assert sorted(codes) == [200, 409]
    assert len(service.document()["scorings"]) == 1


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"{not json", 400, "JSON object"),
        (json.dumps({"line": "end-turn", "version": 0}).encode(), 400, '"line"'),
        (json.dumps({"line": {"input": "end-turn"}}).encode(), 400, '"version"'),
        (json.dumps({"line": {"input": "award"}, "version": 0}).encode(), 409, "chosen to score"),
        (json.dumps({"line": {"input": "fly"}, "version": 0}).encode(), 409, "unknown input"),
    ],
)
def test_bad_requests_say_what_is_wrong(
    client: FlaskClient, body: bytes, status: int, message: str
) -> None:
    answer = client.post(
        "/api/input", data=body, headers={**AUTH, "Content-Type": "application/json"}
    )
    assert answer.status_code == status and message in answer.get_json()["error"]


def test_readers_health_and_reopen(client: FlaskClient) -> None:
    readers = client.get("/api/readers").get_json()["readers"]
    assert [r["zone"] for r in readers] == HEADER["zones"]
    assert client.post("/api/readers/base-1/reopen", json={}, headers=AUTH).status_code == 200
    missing = client.post("/api/readers/base-9/reopen", json={}, headers=AUTH)
    assert missing.status_code == 404 and "zones:" in missing.get_json()["error"]


def test_virtual_table_is_refused_on_real_readers(client: FlaskClient) -> None:
    answer = client.get("/api/sim/cards")
    assert answer.status_code == 404 and "real readers" in answer.get_json()["error"]


def test_unknown_paths_answer_json(client: FlaskClient) -> None:
    answer = client.get("/api/nothing-here")
    assert answer.status_code == 404 and "error" in answer.get_json()


@pytest.fixture
def server(service: TableService) -> Iterator[int]:
    """The dashboard on the real server (waitress); yields its port."""
    with serving(service, SSE_PING_SECONDS=0.2) as dashboard:
        yield dashboard.port


def open_stream(port: int, last: int | None = None) -> tuple[http.client.HTTPConnection, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    headers = {"Last-Event-ID": str(last)} if last is not None else {}
    connection.request("GET", "/api/events", headers=headers)
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    return connection, response


def test_stream_sends_the_state_then_each_change(server: int, service: TableService) -> None:
    connection, response = open_stream(server)
    first = next_event(response.readline)
    assert first["id"] == "0" and first["event"] == "state"
    service.submit({"tap": "B1", "zone": "base-1"})
    second = next_event(response.readline)
    assert second["id"] == "1"
    assert json.loads(second["data"])["state"]["bases"][0]["card"] == "munchkin/treehouse"
    connection.close()


def test_a_tablet_that_slept_resumes_from_last_event_id(server: int, service: TableService) -> None:
    service.submit({"tap": "B1", "zone": "base-1"})
    connection, response = open_stream(server, last=1)  # up to date: nothing until a change
    service.submit({"tap": "TC", "zone": "base-1"})
    assert next_event(response.readline)["id"] == "2"
    connection.close()
    service.submit({"input": "end-turn"})  # while it slept
    connection, response = open_stream(server, last=2)
    caught_up = next_event(response.readline)
    assert caught_up["id"] == "3"
    assert json.loads(caught_up["data"])["state"]["current_player"] == "Ben"
    connection.close()
