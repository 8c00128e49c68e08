"""What a table's serving process carries (issue 24): the ``companion`` command imports the
league server's packages (the PostgreSQL driver and gunicorn: 12 MB resident) only when a
``companion league`` command is run, never to serve a table, and the mDNS announcer (zeroconf
and asyncio: 5 MB) only when a table on the LAN announces itself; the store's page cache stays
small."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from companion.cli.main import main
from companion.storage.schema import PAGE_CACHE_KB
from companion.storage.store import EventStore

SERVER_PACKAGES = ("psycopg", "psycopg_pool", "gunicorn", "companion.league.server")


def _loaded_by_the_command(packages: tuple[str, ...]) -> list[str]:
    """Which of ``packages`` a fresh process has loaded once it imported the command."""
    probe = (
        "import json, sys; import companion.cli.main; "
        f"print(json.dumps(sorted(m for m in {list(packages)!r} if m in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout))


def test_the_command_loads_no_league_server_packages_until_asked() -> None:
    assert _loaded_by_the_command(SERVER_PACKAGES) == []


def test_the_command_loads_no_mdns_until_a_table_announces_itself() -> None:
    assert _loaded_by_the_command(("zeroconf", "asyncio", "companion.web.mdns")) == []


def test_the_league_server_commands_are_there_once_asked_for() -> None:
    result = CliRunner().invoke(main, ["league", "--help"])
    assert result.exit_code == 0, result.output
    for command in ("serve", "migrate", "organiser-token", "outbox"):
        assert f"  {command} " in result.output
    served = CliRunner().invoke(main, ["league", "serve", "--help"])
    assert served.exit_code == 0 and "--workers" in served.output


def test_the_store_keeps_a_small_page_cache(tmp_path: Path) -> None:
    """SQLite's default 2 MB page cache filled up over a night of appends and stayed."""
    with EventStore.open(tmp_path / "table.db") as store:
        kib = -store.db.execute("PRAGMA cache_size").fetchone()[0]
    assert kib == PAGE_CACHE_KB <= 256
