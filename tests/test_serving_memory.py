"""What a table's serving process carries (issue 24): the ``companion`` command imports the
league server's packages (the PostgreSQL driver and gunicorn: 12 MB resident) only when a
``companion league`` command is run, never to serve a table, and the mDNS announcer (zeroconf
and asyncio: 5 MB) only when a table on the LAN announces itself; a command imports its own
modules only, so ``serve`` and ``demo`` hold no other command's (the cards' coverage tables,
the tapes' tools), no league shipper without a league, no QR code drawer on loopback and no
gpiozero without pins; the store's page cache stays small."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from companion.cli.main import main
from companion.storage.schema import PAGE_CACHE_KB
from companion.storage.store import EventStore

SERVER_PACKAGES = ("psycopg", "psycopg_pool", "gunicorn", "companion.league.server")


def _loaded_by_the_command(packages: tuple[str, ...], running: str = "") -> list[str]:
    """Which of ``packages`` a fresh process has loaded once it imported the command (and
    looked up its ``running`` subcommand, as running it does)."""
    probe = (
        "import json, sys, click; from companion.cli.main import main; "
        f"{running!r} and main.get_command(click.Context(main), {running!r}); "
        f"print(json.dumps(sorted(m for m in {list(packages)!r} if m in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout))


def test_the_command_loads_no_league_server_packages_until_asked() -> None:
    assert _loaded_by_the_command(SERVER_PACKAGES) == []


def test_the_command_loads_no_mdns_until_a_table_announces_itself() -> None:
    assert _loaded_by_the_command(("zeroconf", "asyncio", "companion.web.mdns")) == []


def test_serving_a_table_loads_no_other_commands_modules() -> None:
    others = ("companion.cli.cards", "companion.rules.coverage", "companion.cli.tapes")
    # a league's table, a code for a tablet, a table with pins (LEDs, buzzer, buttons)
    lazily = ("companion.league.shipper", "segno", "gpiozero")
    for command in ("serve", "demo"):
        assert _loaded_by_the_command(others + lazily, running=command) == []
    assert _loaded_by_the_command(others, running="cards") == ["companion.cli.cards"] + [
        "companion.rules.coverage"
    ]


def test_every_command_is_found_by_its_name() -> None:
    context = click.Context(main)
    names = main.list_commands(context)
    assert {"serve", "demo", "import", "new-game", "league", "token"} <= set(names)
    for name in names:
        command = main.get_command(context, name)
        assert command is not None and command.name == name
    assert main.get_command(context, "nonsense") is None
    assert "No such command 'nonsense'" in CliRunner().invoke(main, ["nonsense"]).output


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
