"""``companion league``: the table's side (always there) and the server's side (with the
``league`` extra installed: ``pip install 'table-companion[league]'``).

A table needs nothing beyond the standard library to ship its games, so the server's
commands are added only when their packages import, and only imported when ``companion
league`` is run: a table serving its dashboard never loads the PostgreSQL driver and gunicorn
(12 MB of its memory).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from pathlib import Path

import click

from companion.cli.common import DEFAULT_DB, fail
from companion.errors import CompanionError
from companion.storage.store import EventStore

SERVER_NAMES = ("serve", "migrate", "table", "organiser-token", "season", "void", "merge", "demo")
INSTALL = "sudo apt-get install libpq5; pip install 'table-companion[league]'"


@cache
def server_commands() -> tuple[tuple[click.Command, ...], str | None]:
    """The league server's commands, and what is missing when they cannot be imported.

    Imported by name when first asked for (click's lazy subcommands); the architecture test
    counts this import like any other."""
    try:
        commands = import_module("companion.cli.league_server").COMMANDS
    except ImportError as exc:  # a table's install: no PostgreSQL driver, no gunicorn, no libpq
        return (), exc.name or str(exc)
    return tuple(commands), None


class LeagueGroup(click.Group):
    """The table's commands, and the server's once ``companion league`` is run."""

    def _add_server_commands(self) -> str | None:
        commands, missing = server_commands()
        for command in commands:
            if command.name not in self.commands:
                self.add_command(command)
        return missing

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_server_commands()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        missing = self._add_server_commands()
        found = super().get_command(ctx, cmd_name)
        if found is None and missing is not None and cmd_name in SERVER_NAMES:
            raise click.UsageError(
                f"`companion league {cmd_name}` is the league server's: it needs the league "
                f"extra and Debian's libpq5 ({missing} is missing): {INSTALL}"
            )
        return found


@click.group(cls=LeagueGroup)
def league() -> None:
    """The league: many tables, one standings board, on PostgreSQL."""


@league.command()
@click.option("--db", default=DEFAULT_DB, show_default=True, help="The table's SQLite file.")
@click.option("--limit", default=20, show_default=True, help="How many, newest first.")
def outbox(db: str, limit: int) -> None:
    """This table's games for the league: sent, waiting (and why) or refused (and why)."""
    if not Path(db).is_file():
        fail(f"there is no table database at {db}; give the table's file with --db")
    try:
        with EventStore.open_read_only(db) as store:  # safe beside a live table
            entries = store.outbox.newest(limit=limit)
            names, fetched = store.outbox.league_players()
    except CompanionError as exc:
        fail(str(exc))
    if not entries:
        click.echo("the outbox is empty (no game has ended with a [league] in the config)")
    for entry in entries:
        state = entry.state
        if entry.state == "pending" and entry.attempts:
            state = f"waiting, {entry.attempts} attempts"
        detail = entry.last_error if entry.state != "sent" else _answered(entry.answer or {})
        click.echo(f"{entry.uid}\t{entry.status}\t{state}\t{detail or ''}")
    if fetched is not None:
        click.echo(f"{len(names)} league player names cached")


def _answered(answer: dict[str, object]) -> str:
    """What the league made of a sent game, in a few words."""
    if answer.get("duplicate_of"):
        return f"{answer.get('status')}: a duplicate of game {answer['duplicate_of']}, counted once"
    return str(answer.get("status"))
