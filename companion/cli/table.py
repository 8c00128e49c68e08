"""``companion new-game``, ``serve`` and ``token``: start a game, run a table, pair tablets."""

from __future__ import annotations

import errno
import time
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

import click

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.addresses import say_where
from companion.cli.common import EX_CONFIG, fail
from companion.cli.control import say_how_to_control
from companion.errors import CompanionError, StoreError
from companion.hardware.feedback import open_feedback
from companion.storage.serving import clear_serving, write_serving
from companion.storage.store import EventStore
from companion.storage.tokens import TokenFile, token_path
from companion.table.config import TableConfig, load_table_config
from companion.table.games import game_header
from companion.table.live import LiveGame
from companion.table.service import Change, TableService
from companion.web.server import Dashboard

if TYPE_CHECKING:
    from companion.league.shipper import Shipper


def _start_shipping(config: TableConfig, service: TableService) -> Shipper | None:
    """The league shipper, for a table in a league: imported by name only then (the league
    client and its payload checks are 1 MB resident a table without a league never uses)."""
    if config.league is None:
        return None
    league = config.league
    shipper: Shipper = import_module("companion.league.shipper").Shipper(
        service.store, league.url, league.table_key, settle=league.settle_s
    )
    shipper.start()
    click.echo(f"finished games are shipped to the league at {league.url}")
    return shipper


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
    store.log.league_outbox = config.league is not None  # before a resume may finish a game
    if store.migration_backup is not None:
        click.echo(
            f"the games database was updated; its copy from before: {store.migration_backup}"
        )
    try:
        feedback = open_feedback(config.hardware)
        live = resume_latest(store, catalogue)
        return TableService(
            live,
            config.hardware.readers,
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
    record = store.log.latest_open_game()
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
    dashboard.stop_on_signals()  # before anything is said: a stop right after start is clean
    service.listen(_say)
    service.start()
    shipper = _start_shipping(config, service)
    db_path = db or config.db
    _announce(service, dashboard, db_path)
    try:
        dashboard.run_until_stopped()
    finally:
        clear_serving(db_path)
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
        remedy = (
            "choose another port in the table config"
            if port is None
            else "choose another --port (--port 0 picks a free one)"
        )
        fail(*cannot_serve(exc, config.bind, chosen, remedy))
        raise  # fail() exits


def cannot_serve(
    exc: OSError, bind: str, port: int, remedy: str = "choose another port in the table config"
) -> tuple[str, int]:
    """What to say when the dashboard cannot start, and the exit status: a taken port or a
    forbidden one is the config's (or the option's) to fix (78), as ``remedy`` says; an address
    not there yet (the network still coming up) is worth a restart (1)."""
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot serve on {bind}:{port}: no such address here (yet)", 1
    return (
        f"cannot serve the dashboard on {bind}:{port} ({exc.strerror or exc}); "
        f"is another program using the port? {remedy}"
    ), EX_CONFIG


def _announce(service: TableService, dashboard: Dashboard, db: str) -> None:
    zones = ", ".join(service.readers)
    if service.live is None:
        click.echo(
            f"table running with zones {zones}; no game in progress (start one on the tablet)"
        )
    else:
        click.echo(f"table running with zones {zones}; game {service.live.game_id} resumed")
    address = dashboard.address
    say_where(address)
    note_serving(db, dashboard)
    say_how_to_control(address, db, button="end-turn" in service.feedback.buttons)
    click.echo("Ctrl-C stops it")


def note_serving(db: str, dashboard: Dashboard) -> None:
    """Leave the note ``companion token`` reads for the address this table serves (a table
    that cannot write it still serves: ``token`` then uses the config's address)."""
    try:
        write_serving(db, dashboard.address.bind, dashboard.port)
    except OSError as exc:
        click.echo(f"warning: cannot note where the table serves ({exc})", err=True)


def _say(change: Change) -> None:
    for event in change.events:
        text = event.get("text") or event.get("message") or event.get("event")
        click.echo(f"[{change.version}] {text}")
