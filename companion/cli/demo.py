"""``companion demo``: the dashboard on a simulated NFC table, with a game that plays itself.

Everything is real but the cards: the simulated tags are read by the real nfcpy reader
threads, the taps go through the tap filter, tracker and a real SQLite file, and the page is
the real dashboard. People can pause the game and tap cards themselves on the virtual table.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import click

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.addresses import say_token, say_where
from companion.cli.common import fail
from companion.cli.table import cannot_serve, note_serving
from companion.errors import CompanionError
from companion.storage.serving import clear_serving
from companion.storage.store import EventStore
from companion.storage.tokens import TokenFile, token_path
from companion.table.config import TableConfig
from companion.table.demo import DemoPlayer, demo_header
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.web import setup_cthulhu
from companion.web.palette import PALETTE
from companion.web.server import Dashboard


@click.command()
@click.option("--port", default=8080, show_default=True, help="Dashboard port (0 picks one).")
@click.option("--lan", is_flag=True, help="Serve to the LAN too (and announce it over mDNS).")
@click.option("--db", default="demo.db", show_default=True, help="SQLite file for demo games.")
@click.option("--zones", default=3, show_default=True, help="Base zones on the virtual table.")
@click.option("--still", is_flag=True, help="No self-playing game: tap the cards yourself.")
@click.option(
    "--game",
    type=click.Choice(["smashup", "munchkin-cthulhu"]),
    default="smashup",
    show_default=True,
    help="Munchkin Cthulhu has seats, a combat pad and a discard pad; it plays itself too.",
)
def demo(port: int, lan: bool, db: str, zones: int, still: bool, game: str) -> None:
    """Start the dashboard on a simulated table with a demo game (Ctrl-C stops it)."""
    if not 1 <= zones <= 5:
        raise click.UsageError("--zones is 1 to 5")
    catalogue = load_catalogue()
    host = "0.0.0.0" if lan else "127.0.0.1"
    try:
        port_is_free(host, port)
        store = EventStore.open(db)
        control = TokenFile(token_path(db))
    except OSError as exc:
        message, _ = cannot_serve(exc, host, port)
        fail(f"{message} (--port 0 picks a free one)")
    except CompanionError as exc:
        fail(str(exc))
    if game == "munchkin-cthulhu":
        header = cthulhu_header(catalogue, store)
    else:
        header = demo_header(catalogue, zones)
    live = own_game(store, header, catalogue)
    readers = (
        {zone: "sim:" for zone in header["zones"]}
        if game == "munchkin-cthulhu"
        else TableConfig.simulated(zones).hardware.readers
    )
    service = TableService(live, readers, clock=time.monotonic)
    player = None if still else DemoPlayer(service)
    service.start()
    dashboard = _serve(service, host, port, control, player)
    click.echo(f"demo game {live.game_id} on a simulated table (zones {', '.join(readers)})")
    _say_how_to_open(dashboard, control.current())
    note_serving(db, dashboard)
    click.echo("Ctrl-C stops it; the game is kept in " + db)
    try:
        dashboard.run_until_stopped()
    finally:
        clear_serving(db)
        service.stop()
        store.close()


def port_is_free(host: str, port: int) -> None:
    """:raises OSError: ``host``:``port`` cannot be served (taken, or not an address here),
    found before a game is started for a demo that cannot run."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress binds
        probe.bind((host, port))


def own_game(store: EventStore, header: dict[str, Any], catalogue: Catalogue) -> LiveGame:
    """The demo's game: the unfinished one in its database if it is the same kind of game (the
    same players, cards and zones), so that starting the demo again does not add a game; else a
    new one (a game of another kind left unfinished there becomes void)."""
    record = store.log.latest_open_game()
    if record is not None and _same_game(record.header, header):
        try:
            return LiveGame.resume(store, record.id, catalogue)
        except CompanionError as exc:
            click.echo(f"warning: demo game {record.id} cannot be resumed ({exc})", err=True)
    if record is not None:
        store.log.void_game(record.id)
    return LiveGame.start(store, header, catalogue)


def _same_game(stored: dict[str, Any], fresh: dict[str, Any]) -> bool:
    keys = ("game", "players", "factions", "zones", "tags")
    return all(stored.get(key) == fresh.get(key) for key in keys)


def _serve(
    service: TableService, host: str, port: int, control: TokenFile, player: DemoPlayer | None
) -> Dashboard:
    """The demo's dashboard, stopped by SIGTERM or Ctrl-C from now on (before anything is
    said: a stop right after start is clean), or exit (the table stopped, its store closed)."""
    try:
        dashboard = Dashboard(
            service, host=host, port=port, token=control, simulated=True, demo=player
        )
    except OSError as exc:
        service.stop()
        service.store.close()
        message, _ = cannot_serve(exc, host, port)
        fail(f"{message} (--port 0 picks a free one)")
    dashboard.stop_on_signals()
    return dashboard


def _say_how_to_open(dashboard: Dashboard, token: str) -> None:
    address = dashboard.address
    say_where(address)
    say_token(address, token)


def cthulhu_header(catalogue: Catalogue, store: EventStore) -> dict[str, Any]:
    """Three players at seats 1-3, with a simulated tag on every Munchkin Cthulhu card."""
    names = ["Ann", "Ben", "Cat"]
    colours = dict(zip(names, PALETTE, strict=False))
    sex = {"Ann": "female", "Ben": "male", "Cat": "female"}
    return setup_cthulhu.header(names, colours, sex, [], store, catalogue, simulated=True)
