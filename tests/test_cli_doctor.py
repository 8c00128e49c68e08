"""``companion doctor`` as a person and a script run it: on a simulated table (whose zones lay
and lift their own cards), with a reader that is missing, and with wrong options."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli.main import main
from companion.table.network_checks import table_running
from companion.table.service import TableService
from companion.web.server import Dashboard
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parent.parent
MISSING = "nfc-zone9"  # no such device on a test machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_simulated_table_passes_and_says_so_in_json(tmp_path: Path) -> None:
    args = ["doctor", "--simulate", "--json", "--tries", "20", "--taps", "1", "--zone", "base-1"]
    args += ["--db", str(tmp_path / "g.db"), "--port", str(free_port())]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["counts"]["fail"] == 0
    lines = {(c["subject"], c["check"]): c for c in report["checks"]}
    assert {subject for subject, _ in lines} == {"base-1", "table"}  # --zone: that zone only
    place = lines[("base-1", "place -> event")]
    assert place["verdict"] == "ok" and place["value"] > 0 and place["expected"].endswith("p50")
    assert lines[("table", "games database")]["verdict"] == "ok"
    assert lines[("table", "dashboard port")]["verdict"] == "ok"


@pytest.mark.skipif(Path("/dev", MISSING).exists(), reason=f"this machine has /dev/{MISSING}")
def test_a_missing_reader_fails_with_the_fix_and_exit_status_1(tmp_path: Path) -> None:
    table = tmp_path / "table.toml"
    table.write_text(
        f'[table]\ndb = "{tmp_path / "g.db"}"\nport = {free_port()}\n'
        '[zones.base-1]\nreader = "sim:"\n'
        f'[zones.base-2]\nreader = "nfc:tty:{MISSING}:pn532"\n'
    )
    result = CliRunner().invoke(main, ["doctor", "--table", str(table), "--no-cards"])
    assert result.exit_code == 1, result.output
    assert f"[FAIL] reader found: /dev/{MISSING} does not exist" in result.output
    assert "fix: No reader is plugged in under the name" in result.output
    assert "[ -- ] resting-card READ: --no-cards" in result.output
    assert result.output.rstrip().splitlines()[-1].startswith("FAILED: ")


def test_wrong_options_and_configs_get_a_message_not_a_traceback(tmp_path: Path) -> None:
    runner = CliRunner()
    neither = runner.invoke(main, ["doctor"])
    assert neither.exit_code == 2 and "give --table FILE" in neither.output
    zone = runner.invoke(main, ["doctor", "--simulate", "--zone", "base-7"])
    assert zone.exit_code == 2 and "no zone 'base-7'" in zone.output
    bad = tmp_path / "bad.toml"
    bad.write_text('[zones.base-1]\nreader = "pn532"\n')
    config = runner.invoke(main, ["doctor", "--table", str(bad)])
    assert config.exit_code == 78 and "unknown reader 'pn532'" in config.output
    assert runner.invoke(main, ["doctor", "--simulate", "--tries", "0"]).exit_code == 2
    profile = runner.invoke(main, ["doctor", "--table", str(bad), "--profile", "ideal"])
    assert profile.exit_code == 2 and "--profile is for --simulate" in profile.output


def test_a_simulated_ftdi_link_fails_the_doctor(tmp_path: Path) -> None:
    """--profile emulates a link: what a real board's figures are compared with."""
    args = ["doctor", "--simulate", "--profile", "ftdi-default", "--zone", "base-1", "--json"]
    args += ["--no-cards", "--tries", "10", "--db", str(tmp_path / "g.db"), "--port", "0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    lines = {c["check"]: c for c in json.loads(result.stdout)["checks"] if c["subject"] == "base-1"}
    assert lines["link round trip"]["verdict"] == "fail" and lines["link round trip"]["value"] > 8


def test_the_command_is_in_the_readme_command_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n| `companion doctor --table FILE" in readme


def test_a_running_table_is_left_alone(service: TableService, tmp_path: Path) -> None:
    """The real dashboard on waitress answers: the doctor does not touch the readers."""
    dashboard = Dashboard(service, host="127.0.0.1", port=0, token=TOKEN, simulated=False)
    thread = threading.Thread(target=dashboard.serve_forever, daemon=True)
    thread.start()
    try:
        assert table_running("0.0.0.0", dashboard.port)
        args = ["doctor", "--simulate", "--json", "--port", str(dashboard.port)]
        result = CliRunner().invoke(main, [*args, "--db", str(tmp_path / "g.db")])
    finally:
        dashboard.close()
        thread.join(timeout=5)
    assert result.exit_code == 1, result.output
    checks = json.loads(result.stdout)["checks"]
    running = [c for c in checks if c["check"] == "table stopped"]
    assert running and running[0]["verdict"] == "fail" and "systemctl stop" in running[0]["fix"]
    readers = [c for c in checks if c["subject"] != "table"]
    assert {(c["check"], c["measured"]) for c in readers} == {("reader", "the table is running")}
    assert not table_running("127.0.0.1", free_port())
