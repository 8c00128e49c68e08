"""``companion league``: the table's side (always there) and the server's side (with the
``league`` extra installed: ``pip install 'table-companion[league]'``).

A table needs nothing beyond the standard library to ship its games, so the server's
commands are added only when their packages import.
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.cli.common import DEFAULT_DB, fail
from companion.errors import CompanionError
from companion.storage.store import EventStore

try:
    from companion.cli.league_server import COMMANDS as SERVER_COMMANDS

    SERVER_MISSING: str | None = None
except ImportError as exc:  # a table's install: no PostgreSQL driver, no gunicorn (or no libpq)
    SERVER_COMMANDS = ()
    SERVER_MISSING = exc.name or str(exc)

SERVER_NAMES = ("serve", "migrate", "table", "organiser-token", "season", "void", "merge", "demo")
INSTALL = "sudo apt-get install libpq5; pip install 'table-companion[league]'"


class LeagueGroup(click.Group):
    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and SERVER_MISSING is not None and cmd_name in SERVER_NAMES:
            raise click.UsageError(
                f"`companion league {cmd_name}` is the league server's: it needs the league "
                f"extra and Debian's libpq5 ({SERVER_MISSING} is missing): {INSTALL}"
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
            entries = store.outbox(limit=limit)
            names, fetched = store.league_players()
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


for _command in SERVER_COMMANDS:
    league.add_command(_command)
