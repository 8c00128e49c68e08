"""``companion new-game``, ``serve`` and ``token``: start a game, run a table, pair tablets."""

from __future__ import annotations

import errno
import time
from pathlib import Path

import click

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.addresses import say_token, say_where
from companion.cli.common import DEFAULT_DB, EX_CONFIG, fail
from companion.errors import CompanionError, StoreError
from companion.hardware.config import TableConfig, load_table_config
from companion.hardware.feedback import open_feedback
from companion.hardware.network import LOOPBACK, table_address
from companion.league.shipper import Shipper
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.storage.tokens import TokenFile, load_or_create_token, token_path, write_new_token
from companion.table.games import game_header
from companion.table.service import Change, TableService
from companion.web.server import Dashboard


def parse_players(entries: tuple[str, ...], catalogue: Catalogue) -> dict[str, list[str]]:
    """``NAME=FACTION,FACTION`` options, in seat order: 2 to 4 players, two different
    factions each, ids from the catalogue."""
    players: dict[str, list[str]] = {}
    for entry in entries:
        name, _, chosen = entry.partition("=")
        factions = [f for f in chosen.split(",") if f]
        unknown = [f for f in factions if f not in catalogue.factions]
        if not name or name in players or len(set(factions)) != 2 or len(factions) != 2:
            raise click.UsageError(f"--player {entry!r}: write NAME=FACTION,FACTION once each")
        if unknown:
            raise click.UsageError(
                f"--player {entry!r}: unknown faction {unknown[0]!r}; see `companion cards list`"
            )
        players[name] = factions
    if not 2 <= len(players) <= 4:
        raise click.UsageError("Smash Up is for 2 to 4 players")
    return players


@click.command("new-game")
@click.option(
    "--player",
    "entries",
    multiple=True,
    required=True,
    help="NAME=FACTION,FACTION, once per player in seat order (clockwise).",
)
@click.option("--zones", default=5, show_default=True, help="Base zones on the table.")
@click.option("--db", default="companion.db", show_default=True, help="SQLite file of games.")
def new_game(entries: tuple[str, ...], zones: int, db: str) -> None:
    """Start a Smash Up game with the tags enrolled so far."""
    catalogue = load_catalogue()
    zone_names = [f"base-{n}" for n in range(1, zones + 1)] + ["discard"]
    with EventStore.open(db) as store:
        header = game_header(parse_players(entries, catalogue), zone_names, store, catalogue)
        live = LiveGame.start(store, header, catalogue)
    click.echo(f"game {live.game_id} started with {len(header['tags'])} enrolled tags")


def open_table(config: TableConfig, db: str | None) -> TableService:
    """The service for a table config: the latest open game resumed, else no game (the
    tablet starts one on /setup).

    :raises CompanionError: the store or the GPIO pins cannot be set up, a reader spec is wrong.
    """
    catalogue = load_catalogue()
    store = EventStore.open(db or config.db)
    store.league_outbox = config.league is not None  # before a resume may finish a game
    if store.migration_backup is not None:
        click.echo(
            f"the games database was updated; its copy from before: {store.migration_backup}"
        )
    try:
        feedback = open_feedback(config)
        live = resume_latest(store, catalogue)
        return TableService(
            live,
            config.readers,
            clock=time.monotonic,
            feedback=feedback,
            store=store,
            catalogue=catalogue,
        )
    except BaseException:
        store.close()
        raise


def resume_latest(store: EventStore, catalogue: Catalogue) -> LiveGame | None:
    """The latest open game, replayed; None if there is none or it no longer replays (it stays
    stored, and the table starts without a game rather than not at all)."""
    record = store.latest_open_game()
    if record is None:
        return None
    try:
        return LiveGame.resume(store, record.id, catalogue)
    except StoreError as exc:
        click.echo(
            f"warning: game {record.id} cannot be resumed ({exc}); it stays stored", err=True
        )
        return None


@click.command()
@click.option(
    "--table",
    "table_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Table config (see hardware/table.example.toml).",
)
@click.option("--simulate", is_flag=True, help="A simulated NFC table (no hardware).")
@click.option("--db", help="SQLite file of games (default: the config's).")
@click.option("--port", type=int, help="Dashboard port (default: the config's; 0 picks one).")
def serve(table_file: Path | None, simulate: bool, db: str | None, port: int | None) -> None:
    """Run the table: readers, tracker, store and the dashboard, until stopped (Ctrl-C or
    SIGTERM). A start-up failure a restart cannot fix exits with status 78 (EX_CONFIG)."""
    if (table_file is None) == (not simulate):
        raise click.UsageError("give --table FILE for a real table, or --simulate")
    try:
        config = load_table_config(table_file) if table_file else TableConfig.simulated()
        service = open_table(config, db)
    except CompanionError as exc:
        fail(str(exc), EX_CONFIG)
    dashboard = _dashboard(service, config, db, port, simulate)
    service.listen(_say)
    service.start()
    shipper = None
    if config.league is not None:
        league = config.league
        shipper = Shipper(service.store, league.url, league.table_key, settle=league.settle_s)
        shipper.start()
        click.echo(f"finished games are shipped to the league at {league.url}")
    _announce(service, dashboard)
    try:
        dashboard.run_until_stopped()
    finally:
        if shipper is not None:
            shipper.stop()
        service.stop()
        service.store.close()
    click.echo("table stopped; every game is stored")


def _dashboard(
    service: TableService, config: TableConfig, db: str | None, port: int | None, simulate: bool
) -> Dashboard:
    """The dashboard of a started table, or exit (the table stopped, its store closed)."""
    path = token_path(db or config.db)
    chosen = config.port if port is None else port
    try:
        control = TokenFile(path)
    except OSError as exc:
        service.stop()
        service.store.close()
        fail(f"cannot use the control token file {path} ({exc.strerror or exc})", EX_CONFIG)
    try:
        return Dashboard(service, host=config.bind, port=chosen, token=control, simulated=simulate)
    except OSError as exc:
        service.stop()
        service.store.close()
        fail(*cannot_serve(exc, config.bind, chosen))
        raise  # fail() exits


def cannot_serve(exc: OSError, bind: str, port: int) -> tuple[str, int]:
    """What to say when the dashboard cannot start, and the exit status: a taken port or a
    forbidden one is the config's to fix (78); an address not there yet (the network still
    coming up) is worth a restart (1)."""
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot serve on {bind}:{port}: no such address here (yet)", 1
    return (
        f"cannot serve the dashboard on {bind}:{port} ({exc.strerror or exc}); "
        "is another program using the port? choose another port in the table config"
    ), EX_CONFIG


def _announce(service: TableService, dashboard: Dashboard) -> None:
    zones = ", ".join(service.readers)
    if service.live is None:
        click.echo(
            f"table running with zones {zones}; no game in progress (start one on the tablet)"
        )
    else:
        click.echo(f"table running with zones {zones}; game {service.live.game_id} resumed")
    say_where(dashboard.address)
    click.echo("Ctrl-C stops it")


@click.command()
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
@click.option(
    "--table",
    "table_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Table config, for the dashboard's port.",
)
@click.option("--rotate", is_flag=True, help="A new token: every paired tablet must pair again.")
def token(db: str, table_file: Path | None, rotate: bool) -> None:
    """Print the table's control token (a tablet needs it, or to be paired with the End-turn
    button, to change anything), as text and as a QR code of the dashboard address carrying it."""
    try:
        config = load_table_config(table_file) if table_file else TableConfig.simulated()
        value, unpaired = rotate_token(db) if rotate else (load_or_create_token(token_path(db)), 0)
    except (CompanionError, OSError) as exc:
        fail(str(exc))
    bind = "0.0.0.0" if config.bind in LOOPBACK else config.bind  # a tablet is not this machine
    click.echo(value)
    if rotate:
        click.echo(f"a new control token: {unpaired} paired tablet(s) must pair again")
    say_token(table_address(bind, config.port), value)


def rotate_token(db: str) -> tuple[str, int]:
    """A new control token, and every paired tablet forgotten (a running table notices at
    once); returns the token and how many tablets were paired."""
    value = write_new_token(token_path(db))
    if not Path(db).exists():
        return value, 0
    with EventStore.open(db) as store:
        return value, store.forget_tablets()


def _say(change: Change) -> None:
    for event in change.events:
        text = event.get("text") or event.get("message") or event.get("event")
        click.echo(f"[{change.version}] {text}")
