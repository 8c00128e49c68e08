"""The server side of ``companion league``: run the league server, manage table keys, seasons
and the organiser token, void games, merge names, and the demo. The database is named by
``--db`` (a libpq connection string or URL) or the ``COMPANION_LEAGUE_DB`` environment variable.

These need the ``league`` extra (PostgreSQL driver, openskill, gunicorn);
:mod:`companion.cli.league` adds them to the group when it is installed.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from companion.errors import CompanionError
from companion.league import admin, ledger
from companion.league.database import Connection, connect, open_pool
from companion.league.demo import run_demo
from companion.league.server import prepare, serve

F = TypeVar("F", bound=Callable[..., Any])


def db_option(command: F) -> F:
    return click.option(
        "--db",
        envvar="COMPANION_LEAGUE_DB",
        required=True,
        help="PostgreSQL connection (postgresql://user@host/league); or $COMPANION_LEAGUE_DB.",
    )(command)


@contextmanager
def _refusals() -> Iterator[None]:
    """Our errors end the command with their message, never a traceback."""
    try:
        yield
    except CompanionError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


@contextmanager
def _database(db: str) -> Iterator[Connection]:
    with _refusals(), connect(db) as conn:
        yield conn


@click.command("serve")
@db_option
@click.option(
    "--bind", default="127.0.0.1", show_default=True, help="0.0.0.0: reachable on the LAN."
)
@click.option("--port", default=8700, show_default=True)
@click.option("--workers", default=2, show_default=True, help="Worker processes.")
@click.option("--access-log", is_flag=True, help="Log every request.")
def serve_command(db: str, bind: str, port: int, workers: int, access_log: bool) -> None:
    """Run the league server (migrates the database first) until stopped."""
    if not 1 <= workers <= 32:
        raise click.UsageError("--workers is 1 to 32")
    with _refusals():
        serve(db, bind=bind, port=port, workers=workers, access_log=access_log)


@click.command()
@db_option
def migrate(db: str) -> None:
    """Bring the database's schema up to date."""
    with _refusals():
        applied = prepare(db)
    click.echo(f"applied {', '.join(applied)}" if applied else "the schema is up to date")


@click.group()
def table() -> None:
    """Table keys: each table pushes its games with its own key."""


@table.command("add")
@db_option
@click.argument("name")
def table_add(db: str, name: str) -> None:
    """Register a table and print its key (put it in that table's config)."""
    with _database(db) as conn:
        key = admin.add_table(conn, name)
    click.echo(f'[league]\nurl = "http://LEAGUE-SERVER:8700"\ntable_key = "{key}"')


@table.command("rekey")
@db_option
@click.argument("name")
def table_rekey(db: str, name: str) -> None:
    """Give a table a new key (the old one stops working)."""
    with _database(db) as conn:
        click.echo(admin.rekey_table(conn, name))


@table.command("revoke")
@db_option
@click.argument("name")
def table_revoke(db: str, name: str) -> None:
    """Stop a table's key from working (its games stay)."""
    with _database(db) as conn:
        admin.revoke_table(conn, name)
    click.echo(f"table {name}: key revoked")


@table.command("list")
@db_option
def table_list(db: str) -> None:
    """The registered tables."""
    with _database(db) as conn:
        for row in admin.tables(conn):
            state = f"revoked {row.revoked:%Y-%m-%d}" if row.revoked else "active"
            click.echo(f"{row.name}\t{state}\tadded {row.created:%Y-%m-%d}")


@click.command("organiser-token")
@db_option
def organiser_token(db: str) -> None:
    """Make a new organiser token and print it (the previous one stops working)."""
    with _database(db) as conn:
        click.echo(admin.new_organiser_token(conn))


@click.command()
@db_option
@click.argument("name")
def season(db: str, name: str) -> None:
    """Start a new season: games go there from now on, ratings start afresh."""
    with _database(db) as conn:
        started = admin.start_season(conn, name)
    click.echo(f"season {started.name} started")


@click.command()
@db_option
@click.argument("game")
@click.option("--reason", default="", help="Why it does not count (shown with the game).")
def void(db: str, game: str, reason: str) -> None:
    """Void a game: it stops counting and the season's ratings are recomputed."""
    with _refusals():
        pool = open_pool(db, size=1)
        try:
            was = ledger.void_game(pool, game, reason)
        finally:
            pool.close()
    click.echo(f"game {game} is void (it was {was})")


@click.command()
@db_option
@click.argument("source")
@click.argument("target")
def merge(db: str, source: str, target: str) -> None:
    """Merge player SOURCE into TARGET (one person, two spellings); ratings are recomputed."""
    with _refusals():
        pool = open_pool(db, size=1)
        try:
            kept = ledger.merge_players(pool, source, target)
        finally:
            pool.close()
    click.echo(f"{source} is now {kept}")


@click.command()
@click.option("--tables", default=4, show_default=True, help="Simulated tables.")
@click.option("--port", default=8700, show_default=True, help="The board's port (loopback).")
@click.option("--workers", default=2, show_default=True, help="Server worker processes.")
@click.option("--pace", default=6.0, show_default=True, help="Seconds between a table's games.")
@click.option("--games", type=int, help="Stop after this many games per table.")
def demo(tables: int, port: int, workers: int, pace: float, games: int | None) -> None:
    """A league night on this machine: a throwaway PostgreSQL, the server, simulated tables."""
    if not 1 <= tables <= 20:
        raise click.UsageError("--tables is 1 to 20")
    stop_on_signals()
    try:
        with _refusals():
            final = run_demo(
                click.echo, tables=tables, port=port, workers=workers, pace=pace, games=games
            )
    except KeyboardInterrupt:  # stopped before the tables played: everything is cleaned up
        click.echo("league demo stopped: its server, database and temporary folders are gone")
        return
    click.echo(f"final standings ({final.get('season', '?')}):")
    for row in final.get("standings", []):
        rating = row["rating"]
        click.echo(
            f"{row['rank']:>3}. {row['player']:<12} rating {rating['ordinal']:6.1f} "
            f"± {rating['sigma']:.1f}  games {row['games']:>3}  wins {row['wins']:>3}  "
            f"VP {row['vp']:>4}"
        )


def stop_on_signals() -> None:
    """Ctrl-C and SIGTERM both stop the demo through every cleanup (gunicorn, the PostgreSQL
    cluster, the temporary folders): Python's default SIGTERM ends it without running them,
    and a shell script starts its background jobs with SIGINT ignored."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.default_int_handler)


COMMANDS: tuple[click.Command, ...] = (
    serve_command,
    migrate,
    table,
    organiser_token,
    season,
    void,
    merge,
    demo,
)
