"""``companion demo``: the dashboard on a simulated NFC table, with a game that plays itself.

Everything is real but the cards: the simulated tags are read by the real nfcpy reader
threads, the taps go through the tap filter, tracker and a real SQLite file, and the page is
the real dashboard. People can pause the game and tap cards themselves on the virtual table.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import click
import segno

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.table import token_path
from companion.errors import CompanionError
from companion.hardware.config import TableConfig
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.table.demo import DemoPlayer, demo_header
from companion.table.service import TableService
from companion.web import setup_cthulhu
from companion.web.server import Dashboard, lan_address
from companion.web.tokens import load_or_create_token


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
    help="Munchkin Cthulhu has seats, a combat pad and a discard pad; you tap its cards yourself.",
)
def demo(port: int, lan: bool, db: str, zones: int, still: bool, game: str) -> None:
    """Start the dashboard on a simulated table with a demo game (Ctrl-C stops it)."""
    if not 1 <= zones <= 5:
        raise click.UsageError("--zones is 1 to 5")
    catalogue = load_catalogue()
    try:
        store = EventStore.open(db)
    except CompanionError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if game == "munchkin-cthulhu":
        header = cthulhu_header(catalogue, store)
        readers = {zone: "sim:" for zone in header["zones"]}
    else:
        header = demo_header(catalogue, zones)
        readers = TableConfig.simulated(zones).readers
    live = LiveGame.start(store, header, catalogue)
    service = TableService(live, readers, clock=time.monotonic)
    player = None if still or game != "smashup" else DemoPlayer(service)
    host = "0.0.0.0" if lan else "127.0.0.1"
    token = load_or_create_token(token_path(db))
    service.start()
    try:
        dashboard = Dashboard(
            service, host=host, port=port, token=token, simulated=True, demo=player
        )
    except OSError as exc:
        service.stop()
        store.close()
        click.echo(f"error: cannot serve on port {port} ({exc}); try --port 0", err=True)
        sys.exit(1)
    shown = lan_address(host) if lan else "127.0.0.1"
    address = f"http://{shown}:{dashboard.port}/"
    click.echo(f"demo game {live.game_id} on a simulated table (zones {', '.join(readers)})")
    click.echo(f"open {address} (this address carries the control token: {address}?token={token})")
    _print_qr(f"{address}?token={token}")
    click.echo("Ctrl-C stops it; the game is kept in " + db)
    try:
        dashboard.run_until_stopped()
    finally:
        service.stop()
        store.close()


def cthulhu_header(catalogue: Catalogue, store: EventStore) -> dict[str, Any]:
    """Three players at seats 1-3, with a simulated tag on every Munchkin Cthulhu card."""
    names = ["Ann", "Ben", "Cat"]
    colours = dict(zip(names, ("#d62728", "#1f77b4", "#2ca02c"), strict=True))
    sex = {"Ann": "female", "Ben": "male", "Cat": "female"}
    return setup_cthulhu.header(names, colours, sex, [], store, catalogue, simulated=True)


def _print_qr(text: str) -> None:
    segno.make(text).terminal(compact=True)
