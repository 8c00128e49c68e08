"""``companion serve`` as the service runs it: first boot with no game, start-up failures that
say what to fix and exit 78 (EX_CONFIG, which the systemd unit does not restart), and a clean
stop on SIGTERM (readers stopped, dashboard closed, store closed)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli.common import EX_CONFIG
from companion.cli.main import main
from companion.storage import schema
from tests.installing import UNIT, unit_settings

COMPANION = Path(sys.executable).parent / "companion"
PLAYERS = [
    {"name": "Ann", "colour": "#e53935", "factions": ["munchkin/orcs", "core/ninjas"]},
    {"name": "Ben", "colour": "#1e88e5", "factions": ["oops/cowboys", "core/robots"]},
]
TABLE = """
[table]
db = "{db}"
bind = "127.0.0.1"
port = {port}

[zones.base-1]
reader = "sim:"

[zones.discard]
reader = "sim:"
"""


class Served:
    """A ``companion serve`` process and the address it printed."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [str(COMPANION), "serve", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.printed: list[str] = []
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.printed.append(line)
            found = re.search(r"dashboard on (http://127\.0\.0\.1:\d+/)", line)
            if found:
                self.url = found.group(1)
                return
        raise AssertionError("serve printed no address: " + "".join(self.printed))

    def get(self, path: str) -> tuple[int, bytes]:
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=10) as answer:
            return answer.status, answer.read()

    def post(self, path: str, body: object, token: str) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.url + path.lstrip("/"),
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-Companion-Token": token},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)

    def stop(self) -> str:
        """SIGTERM, as systemd stops it; the rest of what it printed."""
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(15) == 0
        assert self.process.stdout is not None
        rest = self.process.stdout.read()
        self.process.stdout.close()
        return rest

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    table = Served("--simulate", "--db", str(tmp_path / "first.db"), "--port", "0")
    yield table
    table.kill()


def test_first_boot_serves_a_table_with_no_game(served: Served, tmp_path: Path) -> None:
    assert "no game in progress" in "".join(served.printed)
    status, body = served.get("/api/state")
    state = json.loads(body)
    assert status == 200 and state["playing"] is False and state["state"] is None
    assert "No game in progress" in state["message"] and "/setup" in state["message"]
    assert state["zones"] == ["base-1", "base-2", "base-3", "base-4", "base-5", "discard"]
    for page in ("/", "/setup", "/enrol", "/readers", "/history", "/api/readers", "/api/games"):
        assert served.get(page)[0] == 200, page
    assert json.loads(served.get("/api/readers")[1])["readers"]  # the readers run


def test_a_game_started_from_the_tablet_then_a_clean_stop(served: Served, tmp_path: Path) -> None:
    token = (tmp_path / "first.db.token").read_text().strip()
    status, started = served.post("/api/games", {"players": PLAYERS, "zones": 2}, token)
    assert status == 201
    state = json.loads(served.get("/api/state")[1])
    assert state["playing"] is True and state["game_id"] == started["game_id"]
    rest = served.stop()
    assert "table stopped; every game is stored" in rest
    assert "Traceback" not in "".join(served.printed) + rest
    # the store was closed: SQLite folds its write-ahead log back in and removes it
    assert not (tmp_path / "first.db-wal").exists()


def test_a_stop_as_soon_as_the_address_is_out_is_clean(tmp_path: Path) -> None:
    # the address is the first thing a watcher can react to: the SIGTERM handler is in place by
    # then, so the stop is the clean one (status 0, the store closed), never the default kill
    table = Served("--simulate", "--db", str(tmp_path / "quick.db"), "--port", "0")
    try:
        rest = table.stop()
    finally:
        table.kill()
    assert "table stopped; every game is stored" in rest
    assert not (tmp_path / "quick.db-wal").exists()


def test_the_next_boot_resumes_the_game(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    runner = CliRunner()
    players = [
        "--player",
        "Ann=munchkin/orcs,core/ninjas",
        "--player",
        "Ben=core/robots,oops/cowboys",
    ]
    assert runner.invoke(main, ["new-game", *players, "--db", db]).exit_code == 0
    table = Served("--simulate", "--db", db, "--port", "0")
    try:
        assert "game 1 resumed" in "".join(table.printed)
        assert json.loads(table.get("/api/state")[1])["state"]["players"][0]["name"] == "Ann"
        table.stop()
    finally:
        table.kill()


def _serve(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["serve", *args])
    return result.exit_code, result.output


def test_no_database_folder_is_a_config_error(tmp_path: Path) -> None:
    status, said = _serve(["--simulate", "--db", str(tmp_path / "missing" / "c.db")])
    assert status == EX_CONFIG
    assert "missing for the games database does not exist" in said and "Traceback" not in said


def test_an_unwritable_folder_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o500)
    real = os.access
    monkeypatch.setattr(  # as the service user sees it (root writes anyway)
        schema.os, "access", lambda path, mode: False if Path(path) == folder else real(path, mode)
    )
    status, said = _serve(["--simulate", "--db", str(folder / "c.db")])
    assert status == EX_CONFIG and "does not let this user" in said


def test_a_bad_table_config_is_a_config_error(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[table]\nport = "eighty"\n')
    status, said = _serve(["--table", str(config)])
    assert status == EX_CONFIG and "table.port" in said and "Traceback" not in said
    status, said = _serve(["--table", str(tmp_path / "absent.toml")])
    assert status == EX_CONFIG and "absent.toml" in said


def test_a_taken_port_is_a_config_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "table.toml"
        config.write_text(TABLE.format(db=tmp_path / "c.db", port=port))
        status, said = _serve(["--table", str(config)])
    assert status == EX_CONFIG and f"127.0.0.1:{port}" in said and "another program" in said


def test_the_service_unit_does_not_restart_a_config_error() -> None:
    settings = unit_settings(UNIT.read_text())
    assert str(EX_CONFIG) in settings["Service.RestartPreventExitStatus"][0].split()


def test_serve_says_how_to_get_control_and_token_finds_its_address(tmp_path: Path) -> None:
    db = tmp_path / "first.db"
    table = Served("--simulate", "--db", str(db), "--port", "0")
    try:
        assert table.process.stdout is not None
        printed = [table.process.stdout.readline() for _ in range(2)]
        assert "to control the table from the page" in printed[0]
        assert f"open the link `companion token --db {db}` prints" in printed[0]
        result = CliRunner().invoke(main, ["token", "--db", str(db)])
        value = result.output.splitlines()[0]
        assert f"takes control with {table.url}?token={value}" in result.output  # its real port
        table.stop()
    finally:
        table.kill()
    assert not Path(f"{db}.serving").exists()


def test_a_taken_port_given_as_an_option_says_to_choose_another_option(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, said = _serve(["--simulate", "--db", str(tmp_path / "c.db"), "--port", str(port)])
    assert status == EX_CONFIG and "choose another --port (--port 0 picks a free one)" in said
    assert "table config" not in said
