"""The live stream on a real threaded server: resume, pings, many clients, clean unsubscribe."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from companion.table.service import TableService
from companion.web.openapi import spec
from companion.web.palette import PALETTE
from companion.web.server import UNACKNOWLEDGED_MS, Dashboard
from companion.web.stream import events
from companion.web.table import EXTENSION, Table, View
from tests.conftest import AUTH, serving
from tests.openapi_bodies import mismatches
from tests.sse import next_event
from tests.waiting import eventually

PLAYERS = [
    {"name": "Ann", "colour": "#e53935", "factions": ["munchkin/orcs", "core/ninjas"]},
    {"name": "Ben", "colour": "#1e88e5", "factions": ["oops/cowboys", "core/robots"]},
]


@pytest.fixture
def dashboard(service: TableService) -> Iterator[Dashboard]:
    with serving(service, SSE_PING_SECONDS=0.2) as served:
        yield served


@pytest.fixture
def app(dashboard: Dashboard) -> Flask:
    return dashboard.app


@pytest.fixture
def port(dashboard: Dashboard) -> int:
    return dashboard.port


class Stream:
    """One EventSource-like client with a socket deadline."""

    def __init__(
        self, port: int, path: str = "/api/events", source: str = "127.0.0.1", **headers: str
    ) -> None:
        # ``source``: the client's loopback address (the table caps streams per address)
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=5, source_address=(source, 0)
        )
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        assert self.response.getheader("Cache-Control") == "no-cache"

    def line(self) -> str:
        return self.response.readline().decode()

    def event(self, *, pings: list[str] | None = None) -> dict[str, str]:
        return next_event(self.response.readline, pings)

    def state(self) -> tuple[int, dict[str, Any]]:
        event = self.event()
        assert event["event"] == "state"
        return int(event["id"]), json.loads(event["data"])

    def close(self) -> None:
        self.response.close()  # the response holds the socket open too
        self.connection.close()


def test_every_message_is_id_event_and_the_state_json(port: int, service: TableService) -> None:
    stream = Stream(port)
    version, data = stream.state()
    assert version == 0 and data["version"] == 0 and data["simulated"] is False
    assert set(data) >= {"version", "state", "simulated", "colours", "game_id"}
    assert data["colours"] == dict(zip(["Ann", "Ben", "Cat"], PALETTE, strict=False))
    stream.close()


def test_resume_by_query_string_for_eventsource_reconnects(
    port: int, service: TableService
) -> None:
    service.submit({"tap": "B1", "zone": "base-1"})
    service.submit({"tap": "TC", "zone": "base-1"})
    stale = Stream(port, "/api/events?last=1")
    assert stale.state()[0] == 2  # at once: it missed version 2
    stale.close()
    current = Stream(port, "/api/events?last=2")
    service.submit({"input": "end-turn"})
    version, data = current.state()
    assert version == 3 and data["state"]["current_player"] == "Ben"
    current.close()


def test_the_header_wins_over_the_query_and_garbage_is_a_fresh_start(port: int) -> None:
    fresh = Stream(port, "/api/events?last=0", **{"Last-Event-ID": "nonsense"})
    assert fresh.state()[0] == 0
    fresh.close()


def test_quiet_tables_ping(port: int) -> None:
    stream = Stream(port, "/api/events?last=0")
    pings: list[str] = []
    deadline = time.monotonic() + 3
    while ": ping" not in pings:
        assert time.monotonic() < deadline
        line = stream.line().rstrip("\n")
        if line.startswith(":"):
            pings.append(line)
    stream.close()


def test_a_client_that_goes_away_is_unsubscribed(port: int, service: TableService) -> None:
    before = len(service._listeners)
    stream = Stream(port)
    stream.state()
    assert len(service._listeners) == before + 1
    stream.close()
    eventually(  # noticed at the next ping
        lambda: len(service._listeners) == before, what="the server dropping the closed stream"
    )


def test_many_clients_each_get_every_change(app: Flask, port: int, service: TableService) -> None:
    streams = [Stream(port, source=f"127.0.0.{n + 2}") for n in range(app.config["MAX_STREAMS"])]
    assert {s.state()[0] for s in streams} == {0}
    service.submit({"tap": "B1", "zone": "base-1"})
    service.submit({"tap": "TC", "zone": "base-1"})
    for stream in streams:
        seen = [stream.state()[0]]
        if seen[-1] != 2:  # a slow client may have both changes coalesced into one message
            seen.append(stream.state()[0])
        assert seen[-1] == 2
        stream.close()
    eventually(lambda: len(service._listeners) == 0, what="the server dropping every stream")


def test_streams_beyond_the_limit_are_refused_and_requests_still_answer(
    app: Flask, port: int
) -> None:
    """Each stream holds one of the server's threads: past the limit a stream is refused (503,
    saying why) instead of taking the threads every other request needs."""
    streams = [Stream(port, source=f"127.0.0.{n + 2}") for n in range(app.config["MAX_STREAMS"])]
    for stream in streams:
        stream.state()
    extra = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    extra.request("GET", "/api/events")
    refused = extra.getresponse()
    assert refused.status == 503
    assert refused.getheader("Connection") == "close"  # it gives its connection back
    assert refused.getheader("X-Companion-Close") is None  # the app's signal stays inside
    assert "screens already follow this table" in json.loads(refused.read())["error"]
    for path in ("/api/state", "/api/readers", "/"):
        extra.request("GET", path)
        answer = extra.getresponse()
        answer.read()
        assert answer.status == 200, path
    streams.pop().close()
    eventually(lambda: _stream_status(port) == 200, what="the server freeing a stream's thread")
    for stream in streams:
        stream.close()
    extra.close()


def _stream_status(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/api/events")
    status = connection.getresponse().status
    connection.close()
    return status


def test_closing_the_table_ends_every_stream(app: Flask, port: int) -> None:
    streams = [Stream(port) for _ in range(3)]
    for stream in streams:
        stream.state()
    table: Table = app.extensions[EXTENSION]
    table.close()
    for stream in streams:
        with pytest.raises(EOFError):
            stream.event()
        stream.close()


def test_a_new_game_reaches_the_stream(port: int, service: TableService) -> None:
    service.submit({"tap": "B1", "zone": "base-1"})
    stream = Stream(port, **{"Last-Event-ID": "1"})
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    body = json.dumps({"players": PLAYERS, "zones": 2, "replace": service.live.game_id})
    headers = {**AUTH, "Content-Type": "application/json"}
    connection.request("POST", "/api/games", body=body, headers=headers)
    answer = connection.getresponse()
    assert answer.status == 201
    game_id = json.loads(answer.read())["game_id"]
    version, data = stream.state()
    assert version == 0 and data["game_id"] == game_id
    assert data["colours"] == {"Ann": "#e53935", "Ben": "#1e88e5"}
    assert [p["name"] for p in data["state"]["players"]] == ["Ann", "Ben"]
    stream.close()
    connection.close()


def test_two_tablets_over_http_award_once(port: int, service: TableService) -> None:
    for line in (
        {"tap": "B3", "zone": "base-3"},
        *[{"tap": t, "zone": "base-3"} for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
        {"input": "counter", "tag": "TP", "delta": 3},
        {"input": "score", "zone": "base-3"},
    ):
        service.submit(line)
    seen = service.version
    statuses: list[int] = []
    start = threading.Barrier(4)

    def press() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        body = json.dumps({"line": {"input": "award"}, "version": seen})
        start.wait()
        connection.request(
            "POST", "/api/input", body=body, headers={**AUTH, "Content-Type": "application/json"}
        )
        statuses.append(connection.getresponse().status)
        connection.close()

    threads = [threading.Thread(target=press) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=5)
    assert sorted(statuses) == [200, 409, 409, 409]
    assert len(service.document()["scorings"]) == 1


class QuietTable:
    """Just enough of web.table.Table for the stream: a fixed state and a listener slot."""

    def __init__(self) -> None:
        self.closed = threading.Event()
        self.listeners: list[Any] = []
        self.state = (1, b"{}")

    def listen(self, listener: Any) -> Any:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def view(self, *, full: bool = False) -> View:
        version, data = self.state
        return View(None, version, data[:-1], b"}", b"{}")

    def on_close(self, callback: Any) -> None:
        pass

    def forget_on_close(self, callback: Any) -> None:
        pass


def test_a_state_is_never_sent_twice() -> None:
    """A change heard after its state already went out is not sent again (the listener is
    called under the service's lock, the stream reads the state later)."""
    quiet = QuietTable()
    stream = events(quiet, None, ping=0.05)  # type: ignore[arg-type]
    assert next(stream) == b"retry: 1000\n: connected\n\n"
    assert next(stream).startswith(b"id: 1\n")
    # the payload every stream shares, its health and pairing, the end
    assert [next(stream), next(stream), next(stream)] == [b"{", b"}", b"\n\n"]
    quiet.listeners[0](SimpleNamespace(version=1))  # heard late: version 1 already went out
    assert next(stream) == b": ping\n\n"
    quiet.state = (2, b'{"v":2}')
    quiet.listeners[0](SimpleNamespace(version=2))
    assert next(stream).startswith(b"id: 2\n")
    stream.close()
    assert quiet.listeners == []


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="Linux only")
def test_a_stream_whose_tablet_vanished_is_dropped_by_the_kernel(dashboard: Dashboard) -> None:
    """A tablet off the Wi-Fi never closes its stream: every accepted connection carries
    TCP_USER_TIMEOUT, so the ping nobody acknowledges ends it (and frees its thread) in 30 s."""
    stream = Stream(dashboard.port)
    stream.state()
    accepted = [
        channel.socket
        for channel in list(dashboard._map.values())
        if getattr(channel, "addr", None) and hasattr(channel, "requests")
    ]
    assert accepted
    for sock in accepted:
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == UNACKNOWLEDGED_MS
    stream.close()


def test_each_version_is_sent_once_and_health_between_versions_comes_on_its_own(
    port: int, service: TableService
) -> None:
    """Was: a change of the store's health (or of the count of waiting reads) sent the whole
    state again under the same version, so a client saw one version twice."""
    stream = Stream(port)
    assert stream.state()[0] == 0
    service.store_health.failed("disk I/O error", 0.0)
    service._health_changed()
    health = stream.event()
    assert health["event"] == "health" and "id" not in health  # Last-Event-ID stays a version
    status = json.loads(health["data"])
    assert status["version"] == 0 and status["health"]["store"]["state"] == "failing"
    assert mismatches(status, spec()["components"]["schemas"]["healthEvent"], strict=True) == []
    service._health_changed()  # nothing new: nothing sent
    service.store_health.succeeded()
    service._health_changed()
    recovered = stream.event()
    assert recovered["event"] == "health"
    assert json.loads(recovered["data"])["health"]["store"]["state"] == "ok"
    service.submit({"input": "end-turn"})
    assert stream.state()[0] == 1
    service._health_changed()  # woken with no change at all: the state is not sent again
    pings: list[str] = []
    service.submit({"input": "end-turn"})
    assert stream.event(pings=pings)["id"] == "2"
    stream.close()


def test_each_version_is_sent_once_to_every_client_while_taps_and_health_change(
    app: Flask, port: int, service: TableService
) -> None:
    """Counts the ``state`` frames of each version on several clients while lines are stored
    and the store's health flips between them: none is sent twice (issue 26: the payload cache
    left out what changes without a version, and a client saw one version twice)."""
    streams = [Stream(port, source=f"127.0.0.{n + 2}") for n in range(4)]
    lines: list[dict[str, Any]] = [{"tap": "B1", "zone": "base-1"}]
    lines += [{"tap": uid, "zone": "base-1"} for uid in ("TC", "SL", "MT")]
    lines += [{"input": "undo"}, {"input": "end-turn"}, {"input": "end-turn"}]
    for line in lines:
        service.submit(line)
        service.store_health.failed("disk I/O error", 0.0)
        service._health_changed()
        service.store_health.succeeded()
        service._health_changed()
        service.pairing.tick()
    last = service.version
    for stream in streams:
        sent: dict[int, int] = {}
        while True:
            event = stream.event()
            if event["event"] == "state":
                version = int(event["id"])
                sent[version] = sent.get(version, 0) + 1
                assert json.loads(event["data"])["version"] == version
                if version == last:
                    break
        assert set(sent.values()) == {1}, sent
        assert max(sent) == last
        stream.close()


def test_the_stream_reads_the_published_view_without_the_tables_lock(
    port: int, service: TableService
) -> None:
    """While the table's lock is held (a slow write), a stream still says the store's health
    and a new client still connects: the stream path takes no lock of the table's and reads
    nothing from the store."""
    stream = Stream(port)
    assert stream.state()[0] == 0
    view = service.view
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with service._lock:
            held.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        service.store_health.failed("disk I/O error", 0.0)
        service._health_changed()
        health = stream.event()
        assert health["event"] == "health"
        assert json.loads(health["data"])["health"]["store"]["state"] == "failing"
        assert service.view is view  # a health change rebuilt nothing
        late = Stream(port)  # a client connecting meanwhile subscribes and gets the state
        assert late.state()[0] == 0
        late.close()
    finally:
        release.set()
        holder.join(5)
        stream.close()
