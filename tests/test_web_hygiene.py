"""HTTP hygiene on the real server: security headers, a Host allow-list against DNS
rebinding, a body size limit, and no control token in any log line."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
from collections.abc import Iterator

import pytest

from companion.table.service import TableService
from companion.web.hygiene import requested_host
from companion.web.server import Dashboard
from tests.conftest import AUTH, TOKEN


@pytest.fixture
def dashboard(service: TableService) -> Iterator[Dashboard]:
    served = Dashboard(service, host="127.0.0.1", port=0, token=TOKEN, simulated=False)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.close()
    thread.join(timeout=5)


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


@pytest.mark.parametrize("path", ["/", "/api/state", "/static/js/api.js", "/setup"])
def test_every_answer_carries_the_security_headers(dashboard: Dashboard, path: str) -> None:
    status, headers, _ = fetch(dashboard.port, path)
    assert status == 200
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


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


def test_the_token_of_a_qr_address_is_in_no_log(
    dashboard: Dashboard, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        assert fetch(dashboard.port, f"/?token={TOKEN}")[0] == 200
        assert fetch(dashboard.port, f"/api/state?token={TOKEN}")[0] == 200
    assert all(TOKEN not in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize(
    ("header", "name"),
    [("table.local:8080", "table.local"), ("[::1]:8080", "::1"), ("LOCALHOST", "localhost")],
)
def test_host_names_are_read_without_their_port(header: str, name: str) -> None:
    assert requested_host(header) == name
