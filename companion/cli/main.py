"""The ``companion`` command: a thin shell over the library, one module per command group.

Each command's module is imported when that command is run (or listed by ``--help``), not
when the command starts: a table's serving process (``serve``, ``demo``) holds only what
serving imports, not every other command's modules (the cards' coverage tables, the tapes'
tools, the installer: about 1.3 MB resident, issue 24).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

import click

#: command name -> its click command, imported by name when asked for (counted by the
#: architecture test like any other import)
COMMANDS: dict[str, Callable[[], click.Command]] = {
    "backup": lambda: import_module("companion.cli.backup").backup,
    "cards": lambda: import_module("companion.cli.cards").cards,
    "demo": lambda: import_module("companion.cli.demo").demo,
    "doctor": lambda: import_module("companion.cli.doctor").doctor,
    "enrol": lambda: import_module("companion.cli.enrol").enrol,
    "example": lambda: import_module("companion.cli.tapes").example,
    "export": lambda: import_module("companion.cli.tapes").export,
    "games": lambda: import_module("companion.cli.tapes").games,
    "import": lambda: import_module("companion.cli.tapes").import_tape,
    "install": lambda: import_module("companion.cli.install").install,
    "league": lambda: import_module("companion.cli.league").league,
    "new-game": lambda: import_module("companion.cli.table").new_game,
    "replay": lambda: import_module("companion.cli.tapes").replay,
    "serve": lambda: import_module("companion.cli.table").serve,
    "simulate": lambda: import_module("companion.cli.tapes").simulate,
    "token": lambda: import_module("companion.cli.control").token,
}


class Commands(click.Group):
    """A group whose commands are imported by name, on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = COMMANDS.get(cmd_name)
        return found() if found is not None else None


@click.group(cls=Commands)
def main() -> None:
    """Companion for tabletop card games played with NFC-tagged cards."""
