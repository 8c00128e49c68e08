"""HTTP hygiene (issue 15, 6) through the test client and the served dashboard: security
headers, the Host allow-list, the token never in the access log (our own log, whatever server
runs the app)."""

from __future__ import annotations

import http.client
import logging
import threading
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from companion.hardware.network import interface_addresses, local_name, table_address
from companion.table.service import TableService
from companion.web.accesslog import AccessLog, redact
from companion.web.hygiene import requested_host
from companion.web.server import STREAM_BUFFER, Dashboard
from tests.conftest import AUTH, TOKEN


@pytest.mark.parametrize("path", ["/", "/setup", "/api/state", "/static/js/api.js", "/nowhere"])
def test_every_answer_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    headers = answer.headers
    answer.close()
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"


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


def test_host_names_are_read_without_port_case_or_final_dot() -> None:
    assert requested_host("Table.Local.:8080") == "table.local"
    assert requested_host("[fd00::2]:80") == "fd00::2"
    assert requested_host("192.0.2.2") == "192.0.2.2"


def test_a_dashboard_on_every_interface_answers_to_each_address() -> None:
    names = table_address("0.0.0.0", 8080).served_names()
    assert interface_addresses() <= names
    assert local_name() in names and "127.0.0.1" in names
    assert "evil.example" not in names


def test_the_token_is_redacted_from_queries() -> None:
    assert redact("token=s3cret") == "token=[redacted]"
    assert redact("last=4&TOKEN=s3cret&x=1") == "last=4&TOKEN=[redacted]&x=1"
    assert redact("notatoken=1") == "notatoken=1"


@pytest.fixture
def served(service: TableService) -> Iterator[Dashboard]:
    dashboard = Dashboard(service, host="127.0.0.1", port=0, token=TOKEN, simulated=False)
    thread = threading.Thread(target=dashboard.serve_forever, daemon=True)
    thread.start()
    yield dashboard
    dashboard.shutdown()
    dashboard.close()
    thread.join(5)


def test_the_served_dashboards_access_log_never_holds_the_token(
    served: Dashboard, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="companion.access"):
        for path in (f"/?token={TOKEN}", f"/api/state?x=1&token={TOKEN}"):
            connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
            connection.request("GET", path)
            assert connection.getresponse().status == 200
            connection.close()
    logged = [r.getMessage() for r in caplog.records if r.name == "companion.access"]
    assert len(logged) == 2 and all("token=[redacted]" in line for line in logged)
    assert all(TOKEN not in record.getMessage() for record in caplog.records)
    assert '"GET /api/state?x=1&token=[redacted]" 200' in logged[1]


def test_access_log_wraps_any_wsgi_app(caplog: pytest.LogCaptureFixture) -> None:
    def app(environ: dict, start_response):  # type: ignore[no-untyped-def,type-arg]
        start_response("204 No Content", [])
        return [b""]

    logger = logging.getLogger("companion.access.test")
    with caplog.at_level(logging.INFO, logger=logger.name):
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "QUERY_STRING": "token=abc"}
        AccessLog(app, logger)(environ, lambda status, headers: None)
    assert caplog.records[-1].getMessage().endswith('"GET /?token=[redacted]" 204 0.000')


def test_event_streams_do_not_keep_what_they_sent(served: Dashboard) -> None:
    """waitress keeps a stream's bytes until its buffer is full (16 MB by default): each of 20
    streams held megabytes of states already sent (issue 15, 8)."""
    assert served.server.adj.outbuf_high_watermark == STREAM_BUFFER <= 256 * 1024
