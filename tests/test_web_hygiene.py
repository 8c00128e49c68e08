"""HTTP hygiene (issue 15, 6): security headers on every answer, a Host allow-list against
DNS rebinding, a body size limit, the control token in no log line, and event streams that do
not keep what they sent. Through the test client for the rules, and on the real server (waitress)
for what only a served dashboard does."""

from __future__ import annotations

import http.client
import json
import logging
import socket
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from companion.table.network import interface_addresses, local_name, table_address
from companion.web.accesslog import AccessLog, redact
from companion.web.hygiene import requested_host
from companion.web.server import STREAM_BUFFER, STREAM_OVERFLOW, Dashboard
from tests.conftest import AUTH, TOKEN


def fetch(
    port: int,
    path: str,
    *,
    host: str | None = None,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    sent = dict(headers or {})
    if host is not None:
        sent["Host"] = host
    try:
        connection.request(method, path, body=body, headers=sent)
        answer = connection.getresponse()
        data = answer.read()
    finally:
        connection.close()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/", 200),
        ("/setup", 200),
        ("/api/state", 200),
        ("/static/js/api.js", 200),
        ("/nowhere", 404),
    ],
)
def test_every_answer_carries_the_security_headers(
    dashboard: Dashboard, path: str, status: int
) -> None:
    answered, headers, _ = fetch(dashboard.port, path)
    assert answered == status
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(
    "host", ["localhost", "127.0.0.1:8080", "[::1]:8080", f"{local_name()}:8080", "LOCALHOST."]
)
def test_the_served_names_are_answered(client: FlaskClient, host: str) -> None:
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "192.0.2.77", "10.0.0.1"])
def test_any_other_host_is_refused_with_421(client: FlaskClient, host: str) -> None:
    """A page of another site whose name now points at the table (DNS rebinding) cannot use
    a tablet's browser to read or change it."""
    for answer in (
        client.get("/api/state", headers={"Host": host}),
        client.post("/api/input", json={}, headers={**AUTH, "Host": host}),
    ):
        assert answer.status_code == 421
        assert "not served as" in answer.get_json()["error"]


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("Table.Local.:8080", "table.local"),
        ("[::1]:8080", "::1"),
        ("[fd00::2]:80", "fd00::2"),
        ("LOCALHOST", "localhost"),
        ("192.0.2.2", "192.0.2.2"),
    ],
)
def test_host_names_are_read_without_port_case_or_final_dot(header: str, name: str) -> None:
    assert requested_host(header) == name


def test_a_dashboard_on_every_interface_answers_to_each_address() -> None:
    names = table_address("0.0.0.0", 8080).served_names()
    assert interface_addresses() <= names
    assert local_name() in names and "127.0.0.1" in names
    assert "evil.example" not in names


def test_a_host_the_table_does_not_serve_is_refused(dashboard: Dashboard) -> None:
    port = dashboard.port
    assert fetch(port, "/api/state", host=f"127.0.0.1:{port}")[0] == 200
    assert fetch(port, "/api/state", host=f"localhost:{port}")[0] == 200
    status, _, data = fetch(port, "/api/state", host="attacker.example")
    assert status == 421
    assert "open it by one of its names" in json.loads(data)["error"]
    status, _, _ = fetch(port, "/", host="rebound.attacker.example:8080")
    assert status == 421


def test_a_body_over_the_limit_is_refused_with_413(dashboard: Dashboard) -> None:
    """Refused from its declared length, before a byte of it is read (a client still sending a
    megabyte would only meet a closed socket)."""
    token = AUTH["X-Companion-Token"]
    head = (
        "POST /api/input HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"X-Companion-Token: {token}\r\nContent-Length: {1 << 20}\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", dashboard.port), timeout=10) as client:
        client.sendall(head.encode())
        answer = b""
        while b"\r\n" not in answer:
            chunk = client.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert answer.split(b"\r\n", 1)[0].split()[1] == b"413"


def test_the_served_dashboards_logs_never_hold_the_token(
    dashboard: Dashboard, caplog: pytest.LogCaptureFixture
) -> None:
    """The QR code's address carries the token; journald on a Pi keeps every log line."""
    with caplog.at_level(logging.DEBUG):
        assert fetch(dashboard.port, f"/?token={TOKEN}")[0] == 200
        assert fetch(dashboard.port, f"/api/state?x=1&token={TOKEN}")[0] == 200
    logged = [r.getMessage() for r in caplog.records if r.name == "companion.access"]
    assert len(logged) == 2 and all("token=[redacted]" in line for line in logged)
    assert '"GET /api/state?x=1&token=[redacted]" 200' in logged[1]
    assert all(TOKEN not in record.getMessage() for record in caplog.records)


def test_the_token_is_redacted_from_queries() -> None:
    assert redact("token=s3cret") == "token=[redacted]"
    assert redact("last=4&TOKEN=s3cret&x=1") == "last=4&TOKEN=[redacted]&x=1"
    assert redact("notatoken=1") == "notatoken=1"


def test_access_log_wraps_any_wsgi_app(caplog: pytest.LogCaptureFixture) -> None:
    def app(environ: dict, start_response):  # type: ignore[no-untyped-def,type-arg]
        start_response("204 No Content", [])
        return [b""]

    logger = logging.getLogger("companion.access.test")
    with caplog.at_level(logging.INFO, logger=logger.name):
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "QUERY_STRING": "token=abc"}
        AccessLog(app, logger)(environ, lambda status, headers: None)
    assert caplog.records[-1].getMessage().endswith('"GET /?token=[redacted]" 204 0.000')


def test_event_streams_do_not_keep_what_they_sent(dashboard: Dashboard) -> None:
    """waitress keeps a stream's bytes until its buffer is full (16 MB by default): each of 20
    streams held megabytes of states already sent (issue 15, 8); at 128 KiB the 20 streams
    still came and went together by 2.5 MB every few seconds (issue 24). A buffer is moved
    to a temporary file only past a few states' worth."""
    assert dashboard.server.adj.outbuf_high_watermark == STREAM_BUFFER <= 32 * 1024
    assert dashboard.server.adj.outbuf_overflow == STREAM_OVERFLOW >= 4 * STREAM_BUFFER


def test_the_access_log_keeps_the_pages_own_files_quiet(caplog: pytest.LogCaptureFixture) -> None:
    """One page load asks for some twenty files: each at DEBUG, unless it fails."""

    def app(environ: dict, start_response: Callable[..., object]) -> list[bytes]:
        missing = environ["PATH_INFO"].endswith("gone.js")
        start_response("404 NOT FOUND" if missing else "200 OK", [])
        return [b""]

    logger = logging.getLogger("companion.access.quiet")
    with caplog.at_level(logging.INFO, logger=logger.name):
        for path in ("/static/js/table.js", "/icons/192.png", "/", "/static/js/gone.js"):
            environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": ""}
            AccessLog(app, logger)(environ, lambda status, headers: None)
    logged = [r.getMessage() for r in caplog.records if r.name == logger.name]
    assert [line.split('"')[1] for line in logged] == ["GET /", "GET /static/js/gone.js"]
