"""The ``companion`` command: a thin shell over the library."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from companion.cards import Card, load_catalogue
from companion.catalogue_view import card_details, card_table
from companion.document import render_text, state_document
from companion.errors import CompanionError, TapeError
from companion.examples import example_tape
from companion.tape import dump_line, parse_header, read_lines
from companion.tracker import replay_lines

DEFAULT_DB = "companion.db"


@click.group()
def main() -> None:
    """Companion for tabletop card games played with NFC-tagged cards."""


def _register_commands() -> None:
    from companion.cli_demo import demo
    from companion.cli_enrol import enrol
    from companion.cli_table import new_game, serve, token
    from companion.league.cli import league

    main.add_command(demo)
    main.add_command(enrol)
    main.add_command(league)
    main.add_command(new_game)
    main.add_command(serve)
    main.add_command(token)


@main.group()
def cards() -> None:
    """Browse the card catalogue."""


@cards.command("list")
@click.option(
    "--set", "set_id", help="Set id: core, monster-smash, oops, munchkin, munchkin-cthulhu."
)
@click.option("--faction", help="Faction id (munchkin/orcs) or name (Orcs).")
@click.option(
    "--type",
    "card_type",
    type=click.Choice(["minion", "action", "base", "monster", "treasure"]),
    help="Card type.",
)
def cards_list(set_id: str | None, faction: str | None, card_type: str | None) -> None:
    """List cards as a table."""
    catalogue = _catalogue()
    if set_id == "munchkin-cthulhu":
        from companion.cthulhu.cards import card_table as cthulhu_table

        click.echo(cthulhu_table(list(catalogue.cthulhu)))
        return
    if set_id is not None and set_id not in catalogue.sets:
        raise click.UsageError(f"unknown set {set_id!r}; sets: {', '.join(catalogue.sets)}")
    chosen: list[Card] = catalogue.select(set_id=set_id, faction=faction, card_type=card_type)
    if not chosen:
        raise click.ClickException("no cards match; try `companion cards list` without filters")
    click.echo(card_table(chosen, catalogue))


@cards.command("show")
@click.argument("card_id")
def cards_show(card_id: str) -> None:
    """Show one card with every known fact and its encoded effects."""
    catalogue = _catalogue()
    if card_id not in catalogue:
        matches = [c.id for c in catalogue if card_id.lower() in c.id][:8]
        hint = f"; did you mean {', '.join(matches)}?" if matches else ""
        raise click.ClickException(f"no card {card_id!r}{hint}")
    click.echo(card_details(catalogue[card_id], catalogue))


@main.command()
@click.argument("tape", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the state document as JSON.")
def replay(tape: Path, as_json: bool) -> None:
    """Replay a tape and print the resulting state."""
    catalogue = _catalogue()
    try:
        document = _replay(tape.read_text(encoding="utf-8").splitlines(), catalogue)
    except OSError as exc:
        _fail(f"{tape}: cannot read the tape: {exc.strerror}")
    except TapeError as exc:
        _fail(f"{tape}: {exc}")
    if as_json:
        click.echo(json.dumps(document, ensure_ascii=False, indent=2))
    else:
        click.echo(render_text(document, catalogue))


def _replay(lines: list[str], catalogue: Any) -> dict[str, Any]:
    numbered = iter(read_lines(lines))
    first = next(numbered, None)
    if first is None:
        raise TapeError("the tape is empty: its first line must be the header", 1)
    header = parse_header(first.event, catalogue, first.number)
    game = replay_lines(header, numbered, catalogue)
    return state_document(game.state, catalogue)


@main.command("import")
@click.argument("tape", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
def import_tape(tape: Path, db: str) -> None:
    """Record a tape as a stored game (each line stored durably, as at the table)."""
    from companion.session import LiveGame
    from companion.store import EventStore
    from companion.tracker import Rejected

    catalogue = _catalogue()
    lines = iter(read_lines(tape.read_text(encoding="utf-8").splitlines()))
    try:
        first = next(lines)
        with EventStore.open(db) as store:
            live = LiveGame.start(store, first.event, catalogue)
            for line in lines:
                try:
                    live.submit(line.event)
                except Rejected as exc:
                    raise TapeError(str(exc), line.number) from None
    except StopIteration:
        _fail(f"{tape}: the tape is empty")
    except CompanionError as exc:
        _fail(f"{tape}: {exc}")
    click.echo(f"stored as game {live.game_id} in {db}")


@main.command()
@click.argument("game_id", type=int)
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
def export(game_id: int, db: str) -> None:
    """Write a stored game as a tape (JSON Lines) to standard output."""
    from companion.store import EventStore

    try:
        with EventStore.open(db) as store:
            record = store.game(game_id)
            click.echo(dump_line(record.header))
            for line in store.lines(game_id):
                click.echo(dump_line(line))
    except CompanionError as exc:
        _fail(str(exc))


@main.command()
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
def games(db: str) -> None:
    """List stored games, newest first."""
    from companion.store import EventStore

    try:
        with EventStore.open(db) as store:
            records = store.games()
    except CompanionError as exc:
        _fail(str(exc))
    if not records:
        click.echo("no games stored yet")
    for record in records:
        state = f"won by {', '.join(record.winners or [])}" if record.ended else "in progress"
        click.echo(f"{record.id:>4}  {record.game:<16} {', '.join(record.players):<30} {state}")


@main.command()
@click.option(
    "--tape",
    "name",
    default="munchkin-3p",
    show_default=True,
    help="Bundled example game: munchkin-3p, mixed-4p, oops-2p or cthulhu-3p.",
)
def example(name: str) -> None:
    """Replay a bundled example game and print the table as it ends."""
    catalogue = _catalogue()
    try:
        text = example_tape(name)
    except KeyError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(render_text(_replay(text.splitlines(), catalogue), catalogue))


@main.command()
@click.option(
    "--player",
    "players",
    multiple=True,
    required=True,
    help="NAME=FACTION,FACTION (faction ids), once per player in seat order.",
)
@click.option("--zones", default=5, show_default=True, help="Number of base zones.")
@click.option("--seed", default=1, show_default=True, help="Random seed (same seed, same game).")
def simulate(players: tuple[str, ...], zones: int, seed: int) -> None:
    """Write a plausible whole game as a tape to standard output."""
    import random

    from companion.cli_table import parse_players
    from companion.simulate import make_header, plausible_lines

    catalogue = _catalogue()
    factions = parse_players(players, catalogue)
    header = make_header(list(factions), factions, catalogue, zones)
    click.echo(dump_line(header))
    for line in plausible_lines(random.Random(seed), header, catalogue):
        click.echo(dump_line(line))


_register_commands()


def _catalogue() -> Any:
    try:
        return load_catalogue()
    except CompanionError as exc:
        _fail(str(exc))


def _fail(message: str) -> Any:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)
