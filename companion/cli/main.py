"""The ``companion`` command: a thin shell over the library, one module per command group."""

from __future__ import annotations

import click

from companion.cli.backup import backup
from companion.cli.cards import cards
from companion.cli.control import token
from companion.cli.demo import demo
from companion.cli.doctor import doctor
from companion.cli.enrol import enrol
from companion.cli.install import install
from companion.cli.league import league
from companion.cli.table import new_game, serve
from companion.cli.tapes import example, export, games, import_tape, replay, simulate


@click.group()
def main() -> None:
    """Companion for tabletop card games played with NFC-tagged cards."""


for command in (cards, replay, import_tape, export, games, example, simulate, backup):
    main.add_command(command)
for command in (demo, doctor, enrol, install, league, new_game, serve, token):
    main.add_command(command)
