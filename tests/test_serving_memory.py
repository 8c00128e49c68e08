"""What a table's serving process carries (issue 24): the ``companion`` command imports the
league server's packages (the PostgreSQL driver and gunicorn: 12 MB resident) only when a
``companion league`` command is run, never to serve a table."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from companion.cli.main import main

SERVER_PACKAGES = ("psycopg", "psycopg_pool", "gunicorn", "companion.league.server")


def test_the_command_loads_no_league_server_packages_until_asked() -> None:
    probe = (
        "import sys; import companion.cli.main; "
        f"print(sorted(m for m in {SERVER_PACKAGES!r} if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"


def test_the_league_server_commands_are_there_once_asked_for() -> None:
    result = CliRunner().invoke(main, ["league", "--help"])
    assert result.exit_code == 0, result.output
    for command in ("serve", "migrate", "organiser-token", "outbox"):
        assert f"  {command} " in result.output
    served = CliRunner().invoke(main, ["league", "serve", "--help"])
    assert served.exit_code == 0 and "--workers" in served.output
