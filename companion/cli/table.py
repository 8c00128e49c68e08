"""``companion new-game`` and ``companion serve``: start a game and run a table."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click
import segno

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.errors import CompanionError, Rejected
from companion.hardware.config import TableConfig, load_table_config
from companion.hardware.feedback import open_feedback
from companion.league.shipper import Shipper
from companion.simulation.plausible import make_header
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.table.games import DEMO_PLAYERS, game_header
from companion.table.service import Change, TableService
from companion.web.server import Dashboard
from companion.web.tokens import load_or_create_token


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


def open_table(config: TableConfig, db: str | None, *, simulate: bool) -> TableService:
    """The service for a table config: the latest open game resumed (a simulated table with
    no game starts the demo players' game)."""
    catalogue = load_catalogue()
    store = EventStore.open(db or config.db)
    store.league_outbox = config.league is not None  # before a resume may finish a game
    record = store.latest_open_game()
    if record is not None:
        live = LiveGame.resume(store, record.id, catalogue)
    elif simulate:  # the demo players, and a simulated tag on every card they play with
        header = game_header(DEMO_PLAYERS, list(config.zone_names), store, catalogue)
        made = make_header(list(DEMO_PLAYERS), DEMO_PLAYERS, catalogue, len(config.zone_names))
        header["tags"] = {**made["tags"], **header["tags"]}
        live = LiveGame.start(store, header, catalogue)
    else:
        store.close()
        raise CompanionError(
            "no game in progress: start one with `companion new-game --player NAME=F1,F2 ...`"
        )
    feedback = open_feedback(config)
    service = TableService(live, config.readers, clock=time.monotonic, feedback=feedback)

    def press(line: dict[str, Any]) -> None:
        try:
            service.submit(line)
        except Rejected:
            feedback.ignored()

    if hasattr(feedback, "on_end_turn"):
        feedback.on_end_turn = lambda: press({"input": "end-turn"})
        feedback.on_undo = lambda: press({"input": "undo"})
    return service


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
    """Run the table: readers, tracker, store and the dashboard, until stopped (Ctrl-C)."""
    if (table_file is None) == (not simulate):
        raise click.UsageError("give --table FILE for a real table, or --simulate")
    try:
        config = load_table_config(table_file) if table_file else TableConfig.simulated()
        service = open_table(config, db, simulate=simulate)
    except CompanionError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    token = load_or_create_token(token_path(db or config.db))
    service.listen(lambda change: _say(change))
    service.start()
    shipper = None
    if config.league is not None:
        league = config.league
        shipper = Shipper(service.live.store, league.url, league.table_key, settle=league.settle_s)
        shipper.start()
        click.echo(f"finished games are shipped to the league at {league.url}")
    dashboard = Dashboard(
        service,
        host=config.bind,
        port=config.port if port is None else port,
        token=token,
        simulated=simulate,
    )
    click.echo(
        f"table running with zones {', '.join(service.readers)}; "
        f"dashboard on http://{config.bind}:{dashboard.port}/ ; Ctrl-C stops it",
    )
    try:
        dashboard.run_until_stopped()
    finally:
        if shipper is not None:
            shipper.stop()
        service.stop()
        service.live.store.close()


def token_path(db: str) -> Path:
    """The table's control token lives beside its database, readable by its owner only."""
    return Path(f"{db}.token")


@click.command()
@click.option("--db", default="companion.db", show_default=True, help="SQLite file of games.")
def token(db: str) -> None:
    """Print the table's control token (the tablet needs it to change anything), as text and
    as a QR code of the dashboard address carrying it."""
    value = load_or_create_token(token_path(db))
    click.echo(value)
    segno.make(f"http://companion.local:8080/?token={value}").terminal(compact=True)


def _say(change: Change) -> None:
    for event in change.events:
        text = event.get("text") or event.get("message") or event.get("event")
        click.echo(f"[{change.version}] {text}")
