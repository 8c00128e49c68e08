"""Tapes and stored games: replay, import, export, games, example, simulate."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import click

from companion.catalogue.cards import Catalogue
from companion.cli.common import DEFAULT_DB, catalogue_or_fail, echo, fail
from companion.cli.table import parse_players
from companion.errors import CompanionError, Rejected, TapeError
from companion.simulation.plausible import make_header, plausible_lines
from companion.storage.store import EventStore, GameRecord
from companion.table.live import LiveGame
from companion.tape.documents import Document
from companion.tape.examples import example_tape
from companion.tape.lines import TapeLine, dump_line, parse_header, read_lines, read_tape
from companion.tracker.document import render_text, state_document
from companion.tracker.game import replay_lines


@click.command()
@click.argument("tape", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the state document as JSON.")
def replay(tape: Path, as_json: bool) -> None:
    """Replay a tape and print the resulting state."""
    catalogue = catalogue_or_fail()
    try:
        document = _replay(tape.read_bytes().split(b"\n"), catalogue)
    except OSError as exc:
        fail(f"{tape}: cannot read the tape: {exc.strerror}")
    except TapeError as exc:
        fail(f"{tape}: {exc}")
    if as_json:
        echo(json.dumps(document, ensure_ascii=False, indent=2))
    else:
        echo(render_text(document, catalogue))


def _replay(lines: list[str] | list[bytes], catalogue: Catalogue) -> Document:
    """The state document after ``lines``. :raises TapeError: naming the line that stopped it
    (also for a line the tracker failed on unexpectedly: a bug, said as one, not a traceback).
    """
    numbered = iter(read_lines(lines))
    first = next(numbered, None)
    if first is None:
        raise TapeError("the tape is empty: its first line must be the header", 1)
    header = parse_header(first.event, catalogue, first.number)
    last = Counted(numbered)
    try:
        game = replay_lines(header, last, catalogue)
        return state_document(game.state, game.catalogue)
    except (TapeError, CompanionError):
        raise
    except Exception as exc:  # a tracker bug must still name the line that found it
        raise TapeError(
            f"the tracker failed on this line ({type(exc).__name__}: {exc}); please report "
            "it with the tape",
            last.number,
        ) from None


class Counted:
    """Numbered lines, remembering the number of the last one handed out."""

    def __init__(self, lines: Iterator[TapeLine]) -> None:
        self.lines = lines
        self.number = 1

    def __iter__(self) -> Iterator[TapeLine]:
        for line in self.lines:
            self.number = line.number
            yield line


@click.command("import")
@click.argument("tape", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
def import_tape(tape: Path, db: str) -> None:
    """Record a tape as a stored game (each line stored durably, as at the table)."""
    catalogue = catalogue_or_fail()
    try:
        lines = iter(read_tape(tape.read_bytes()))
        first = next(lines)
        with EventStore.open(db) as store:
            live = LiveGame.start(store, first.event, catalogue)
            for line in lines:
                try:
                    live.submit(line.event)
                except Rejected as exc:
                    raise TapeError(str(exc), line.number) from None
    except StopIteration:
        fail(f"{tape}: the tape is empty")
    except OSError as exc:
        fail(f"{tape}: cannot read the tape: {exc.strerror}")
    except CompanionError as exc:
        fail(f"{tape}: {exc}")
    echo(f"stored as game {live.game_id} in {db}")


@click.command()
@click.argument("game_id", type=int)
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
def export(game_id: int, db: str) -> None:
    """Write a stored game as a tape (JSON Lines) to standard output."""
    try:
        with EventStore.open_read_only(db) as store:  # safe beside a live table
            record = store.log.game(game_id)
            click.echo(dump_line(record.header))
            for line in store.log.lines(game_id):
                click.echo(dump_line(line))
    except CompanionError as exc:
        fail(str(exc))


@click.command()
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
def games(db: str) -> None:
    """List stored games, newest first."""
    try:
        with EventStore.open_read_only(db) as store:  # safe beside a live table
            records = store.log.games()
    except CompanionError as exc:
        fail(str(exc))
    if not records:
        click.echo("no games stored yet")
    latest_open = next((record.id for record in records if record.ended is None), None)
    for record in records:
        state = game_state(record, latest_open)
        click.echo(f"{record.id:>4}  {record.game:<16} {', '.join(record.players):<30} {state}")


def game_state(record: GameRecord, latest_open: int | None) -> str:
    """How a stored game stands, in words: won, void (ended by another game: who, when),
    abandoned (left unfinished before a newer one), or in progress."""
    if record.void:
        when = _when(record.ended)
        return f"void: ended unfinished by {record.void_by or 'a new game'}{when}"
    if record.ended is not None:
        winners = " and ".join(record.winners or [])
        return f"won by {winners}" if winners else "ended with no winner"
    if record.id != latest_open:
        return "abandoned: left unfinished when a newer game started"
    return "in progress"


def _when(at: float | None) -> str:
    if at is None:
        return ""
    return time.strftime(" on %Y-%m-%d at %H:%M", time.localtime(at))


@click.command()
@click.option(
    "--tape",
    "name",
    default="munchkin-3p",
    show_default=True,
    help="Bundled example game: munchkin-3p, mixed-4p, oops-2p or cthulhu-3p.",
)
def example(name: str) -> None:
    """Replay a bundled example game and print the table as it ends."""
    catalogue = catalogue_or_fail()
    try:
        text = example_tape(name)
    except KeyError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(render_text(_replay(text.splitlines(), catalogue), catalogue))


@click.command()
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
    catalogue = catalogue_or_fail()
    factions = parse_players(players, catalogue)
    header = make_header(list(factions), factions, catalogue, zones)
    click.echo(dump_line(header))
    for line in plausible_lines(random.Random(seed), header, catalogue):
        click.echo(dump_line(line))
