"""``companion token`` finds the table it is for or says why not, and prints a link that table
serves; ``serve`` says how to get control."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import control
from companion.cli.main import main
from companion.storage.serving import clear_serving, read_serving, write_serving
from companion.storage.store import EventStore


@pytest.fixture(autouse=True)
def no_installed_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """This machine's own /etc/companion (if any) plays no part."""
    monkeypatch.setattr(control, "INSTALLED_CONFIG", tmp_path / "no-such-table.toml")


def test_token_refuses_a_database_that_does_not_exist_and_makes_no_token(tmp_path: Path) -> None:
    db = tmp_path / "typo.db"
    result = CliRunner().invoke(main, ["token", "--db", str(db)])
    assert result.exit_code == 1
    assert f"there is no games database at {db}; no token was made" in result.output
    assert "companion serve" in result.output
    assert not (tmp_path / "typo.db.token").exists() and not db.exists()


def test_token_by_default_is_for_the_database_serve_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    missing = runner.invoke(main, ["token"])
    assert missing.exit_code == 1
    assert "no games database at companion.db (the default table's)" in missing.output
    Path("demo.db").touch()
    hinted = runner.invoke(main, ["token"])
    assert "`companion token --db demo.db`" in hinted.output
    EventStore.open("companion.db").close()
    found = runner.invoke(main, ["token"])
    assert found.exit_code == 0, found.output
    assert found.output.splitlines()[0] == Path("companion.db.token").read_text().strip()


def test_token_prints_the_address_the_running_table_serves(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    EventStore.open(db).close()
    stopped = CliRunner().invoke(main, ["token", "--db", str(db)])
    assert "is not running now; this link works once it is" in stopped.output
    assert "http://127.0.0.1:8080/?token=" in stopped.output  # the config's port
    write_serving(db, "127.0.0.1", 8123)  # as `serve --port 8123` notes it
    running = CliRunner().invoke(main, ["token", "--db", str(db)])
    value = running.output.splitlines()[0]
    assert f"this browser takes control with http://127.0.0.1:8123/?token={value}" in running.output
    assert "not running" not in running.output
    assert "a tablet cannot reach 127.0.0.1" in running.output
    clear_serving(db)
    assert read_serving(db) is None and not Path(f"{db}.serving").exists()


def test_a_note_left_by_a_table_that_died_is_ignored(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    EventStore.open(db).close()
    gone = subprocess.Popen(["true"])
    gone.wait()
    Path(f"{db}.serving").write_text(f'{{"bind": "127.0.0.1", "port": 9, "pid": {gone.pid}}}')
    assert read_serving(db) is None
    result = CliRunner().invoke(main, ["token", "--db", str(db)])
    assert "127.0.0.1:9/" not in result.output and "not running now" in result.output
    Path(f"{db}.serving").write_text("not json")
    assert read_serving(db) is None


def test_rotating_refuses_a_missing_database_too(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["token", "--db", str(tmp_path / "x.db"), "--rotate"])
    assert result.exit_code == 1 and "no token was made" in result.output
    assert list(tmp_path.iterdir()) == []
