"""Staying up on a real waitress server on loopback: idle, half-sent and stream-hogging clients
give way to a controlling tablet, and what waitress answers itself is JSON with our headers.

Clients come from many loopback addresses (127.0.x.y), like many devices. Every socket has a
deadline, every wait a bound.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from companion.table.service import TableService
from companion.web import channel
from companion.web.hygiene import HEADERS
from companion.web.server import Dashboard
from companion.web.slots import CONTROL_STREAMS, PER_ADDRESS, StreamRefused, StreamSlots
from tests.conftest import TOKEN, serving

IDLE = 200
STREAMERS = 200
#: one address opens this many of the streams (a client trying to hold them all)
GREEDY = 50


@pytest.fixture
def dashboard(service: TableService) -> Iterator[Dashboard]:
    with serving(service, SSE_PING_SECONDS=0.5) as served:
        yield served


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def send(sock: socket.socket, method: str, path: str, body: bytes = b"", **headers: str) -> None:
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)


def head(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and whatever of the body has arrived with them."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection before answering"
        data += chunk
    top, _, rest = data.partition(b"\r\n\r\n")
    status_line, *header_lines = top.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, rest


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    status, headers, body = head(sock)
    while len(body) < int(headers.get("content-length", 0)):
        chunk = sock.recv(65536)
        assert chunk
        body += chunk
    return status, headers, body


def until_state(sock: socket.socket, seen: bytes, version: int) -> bytes:
    """Read the stream until it sends the state of ``version`` (within the socket deadline)."""
    while f"id: {version}\n".encode() not in seen:
        chunk = sock.recv(65536)
        assert chunk, "the stream ended"
        seen += chunk
    return seen


def test_idle_sockets_and_stream_hogs_do_not_stop_the_controlling_tablet(
    dashboard: Dashboard, service: TableService
) -> None:
    """Was: about 100 idle connections took the dashboard down, and any client could hold all
    24 stream slots so the real tablet got 503 on /api/events."""
    port = dashboard.port
    held: list[socket.socket] = []
    try:
        for n in range(IDLE):  # half send nothing, half a request they never finish
            sock = connect(port, f"127.0.2.{n % 250 + 1}")
            if n % 2:
                sock.sendall(b"GET / HTTP/1.1\r\nHo")
            held.append(sock)
        streamers = []
        for n in range(STREAMERS):
            source = "127.0.3.1" if n < GREEDY else f"127.0.4.{n % 250 + 1}"
            sock = connect(port, source)
            send(sock, "GET", "/api/events")
            streamers.append(sock)
            held.append(sock)
        statuses = [head(sock)[0] for sock in streamers]
        assert statuses.count(200) == dashboard.app.config["MAX_STREAMS"]
        assert statuses[:GREEDY].count(200) == PER_ADDRESS  # one device, a few pages at most
        assert set(statuses) == {200, 503}

        tablet = "127.0.9.9"
        page = connect(port, tablet)
        send(page, "GET", "/")
        assert answer(page)[0] == 200
        stream = connect(port, tablet)
        send(stream, "GET", f"/api/events?token={TOKEN}")
        status, _, seen = head(stream)
        assert status == 200
        seen = until_state(stream, seen, 0)
        body = json.dumps({"line": {"input": "end-turn"}, "version": 0}).encode()
        send(
            page,
            "POST",
            "/api/input",
            body,
            **{"Content-Type": "application/json", "X-Companion-Token": TOKEN},
        )
        assert answer(page)[0] == 200
        until_state(stream, seen, 1)  # the input came back on the tablet's stream
        assert service.version == 1
        page.close()
        stream.close()
    finally:
        for sock in held:
            sock.close()


def test_waitress_answers_an_oversized_body_in_json_with_the_headers(dashboard: Dashboard) -> None:
    """Was: waitress's own 413 was plain text without the security headers."""
    limit = int(dashboard.app.config["MAX_CONTENT_LENGTH"])
    sock = connect(dashboard.port)
    try:
        sock.sendall(
            b"POST /api/input HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {limit + 1}\r\n\r\n".encode()
        )
        status, headers, body = answer(sock)
    finally:
        sock.close()
    assert status == 413
    assert headers["content-type"] == "application/json"
    for name, value in HEADERS.items():
        assert headers[name.lower()] == value
    assert f"at most {limit} bytes" in json.loads(body)["error"]


@pytest.mark.parametrize("method", ["TRACE", "BREW"])
def test_trace_and_unknown_methods_are_405_on_the_server(dashboard: Dashboard, method: str) -> None:
    """Was: 401 (the token check ran before the routing's 405)."""
    sock = connect(dashboard.port)
    try:
        send(sock, method, "/api/state")
        status, headers, body = answer(sock)
    finally:
        sock.close()
    assert status == 405 and json.loads(body)["error"]
    assert headers["x-frame-options"] == "DENY"


def test_stream_slots_per_address_and_for_controlling_tablets() -> None:
    slots = StreamSlots(control=2, per_address=2)
    public = [slots.enter("a", controlling=False, limit=3) for _ in range(2)]
    with pytest.raises(StreamRefused, match="this device already follows"):
        slots.enter("a", controlling=False, limit=3)
    slots.enter("b", controlling=False, limit=3)
    with pytest.raises(StreamRefused, match="3 screens already follow"):
        slots.enter("c", controlling=False, limit=3)
    tablets = [slots.enter("a", controlling=True, limit=3) for _ in range(2)]  # public full
    woken: list[str] = []
    tablets[0].on_end(lambda: woken.append("first"))
    newest = slots.enter("d", controlling=True, limit=3)  # always let in: the oldest ends
    assert tablets[0].ended.is_set() and woken == ["first"] and not newest.ended.is_set()
    tablets[0].leave()  # its stream closing later gives nothing back twice
    assert slots.open == 5
    public[0].leave()
    slots.enter("c", controlling=False, limit=3)
    assert slots.open == 5


def test_a_controlling_tablet_is_always_let_in(dashboard: Dashboard) -> None:
    """Its slots full (a tablet reloading its page again and again), the oldest controlling
    stream ends at once, not at its next ping, and the new one is served."""
    dashboard.app.config["SSE_PING_SECONDS"] = 30.0
    streams = []
    try:
        for _ in range(CONTROL_STREAMS + 1):
            sock = connect(dashboard.port, "127.0.5.1")
            send(sock, "GET", f"/api/events?token={TOKEN}")
            status, _, seen = head(sock)
            assert status == 200
            until_state(sock, seen, 0)
            streams.append(sock)
        oldest = streams[0]
        oldest.settimeout(5)  # well before the 30 s ping
        while chunk := oldest.recv(65536):
            assert b"event: state" not in chunk
    finally:
        for sock in streams:
            sock.close()


def test_a_client_trickling_its_request_is_dropped(
    dashboard: Dashboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: a byte now and then kept a connection (and, 100 of them, the dashboard) forever."""
    monkeypatch.setattr(channel, "REQUEST_SECONDS", 0.5)
    sock = connect(dashboard.port)
    sock.settimeout(0.2)
    closed = False
    try:
        for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 40:  # 0.2 s a byte, 8 s at most
            try:
                sock.sendall(bytes([byte]))
                closed = sock.recv(1) == b""
            except TimeoutError:
                continue
            except OSError:  # reset by the server
                closed = True
            if closed:
                break
    finally:
        sock.close()
    assert closed, "the server kept a request that took seconds to arrive"


class FakeChannel:
    def __init__(self, last_activity: float, *, served: bool, idle: bool = True) -> None:
        self.last_activity = last_activity
        self.served = served
        self.idle = idle
        self.will_close = False


def test_new_connections_shed_squatters_first_and_never_a_tablet_between_two_requests() -> None:
    """Was: a tablet's keep-alive connection, answered a moment ago, was the only idle one and
    was closed for the next newcomer before its next request (its POST found it closed)."""
    now = 1000.0
    busy = [FakeChannel(now - 100, served=True, idle=False) for _ in range(channel.SHED_AT)]
    tablet = FakeChannel(now - 0.2, served=True)
    old_squatter, young_squatter = (
        FakeChannel(now - 50, served=False),
        FakeChannel(now - 1, served=False),
    )
    quiet_client = FakeChannel(now - channel.KEEP_ALIVE_GRACE - 1, served=True)
    everyone = [*busy, tablet, young_squatter, old_squatter, quiet_client]
    newcomer = FakeChannel(now, served=False)

    channel.make_room([*everyone, newcomer], keep=newcomer, now=now)
    assert [c for c in everyone if c.will_close] == [old_squatter]
    old_squatter.idle = False  # closing: no longer a candidate
    channel.make_room([*everyone, newcomer], keep=newcomer, now=now)
    assert young_squatter.will_close
    young_squatter.idle = False
    channel.make_room([*everyone, newcomer], keep=newcomer, now=now)
    assert quiet_client.will_close  # quiet past the grace: it may give way
    quiet_client.idle = False
    channel.make_room([*everyone, newcomer], keep=newcomer, now=now)
    assert not tablet.will_close and not any(c.will_close for c in busy)


def test_a_request_waiting_unread_is_not_taken_for_a_squatter() -> None:
    """Was: under load waitress accepted streams faster than it read them, and a stream whose
    whole request still waited in its socket was closed as a squatter before its answer."""
    now = 1000.0
    busy = [FakeChannel(now - 100, served=True, idle=False) for _ in range(channel.SHED_AT)]
    ends = [socket.socketpair() for _ in range(2)]
    try:
        waiting, silent = FakeChannel(now - 50, served=False), FakeChannel(now - 1, served=False)
        waiting.socket, silent.socket = ends[0][0], ends[1][0]  # type: ignore[attr-defined]
        ends[0][1].sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        newcomer = FakeChannel(now, served=False)
        channel.make_room([*busy, waiting, silent, newcomer], keep=newcomer, now=now)
        assert silent.will_close and not waiting.will_close  # the older, but its request waits
        assert ends[0][0].recv(100).startswith(b"GET /api/events")  # peeked at, never taken
    finally:
        for pair in ends:
            for end in pair:
                end.close()


def test_below_the_threshold_nothing_is_shed() -> None:
    squatter = FakeChannel(0.0, served=False)
    channel.make_room([squatter], keep=None, now=100.0)
    assert not squatter.will_close
