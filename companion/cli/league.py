"""``companion league``: the table's side (always there) and the server's side (with the
``league`` extra installed: ``pip install 'table-companion[league]'``).

A table needs nothing beyond the standard library to ship its games, so the server's
commands are added only when their packages import.
"""

from __future__ import annotations

import click

try:
    from companion.cli.league_server import COMMANDS as SERVER_COMMANDS

    SERVER_MISSING: str | None = None
except ModuleNotFoundError as exc:  # the table's install: no PostgreSQL driver, no gunicorn
    SERVER_COMMANDS = ()
    SERVER_MISSING = exc.name or "a package of the league extra"

SERVER_NAMES = ("serve", "migrate", "table", "organiser-token", "season", "void", "merge", "demo")
INSTALL = "pip install 'table-companion[league]'"


class LeagueGroup(click.Group):
    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and SERVER_MISSING is not None and cmd_name in SERVER_NAMES:
            raise click.UsageError(
                f"`companion league {cmd_name}` is the league server's: it needs the league "
                f"extra ({SERVER_MISSING} is missing): {INSTALL}"
            )
        return found


@click.group(cls=LeagueGroup)
def league() -> None:
    """The league: many tables, one standings board, on PostgreSQL."""


for _command in SERVER_COMMANDS:
    league.add_command(_command)
