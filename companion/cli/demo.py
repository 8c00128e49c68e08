"""``companion demo``: the dashboard on a simulated NFC table, with a game that plays itself.

Everything is real but the cards: the simulated tags are read by the real nfcpy reader
threads, the taps go through the tap filter, tracker and a real SQLite file, and the page is
the real dashboard. People can pause the game and tap cards themselves on the virtual table.
"""

from __future__ import annotations

import time
from typing import Any

import click

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.addresses import say_token, say_where
from companion.cli.common import fail
from companion.cli.table import cannot_serve
from companion.errors import CompanionError
from companion.hardware.config import TableConfig
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.storage.tokens import TokenFile, token_path
from companion.table.demo import DemoPlayer, demo_header
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
    try:
        store = EventStore.open(db)
        control = TokenFile(token_path(db))
    except (CompanionError, OSError) as exc:
        fail(str(exc))
    if game == "munchkin-cthulhu":
        header = cthulhu_header(catalogue, store)
        readers = {zone: "sim:" for zone in header["zones"]}
    else:
        header = demo_header(catalogue, zones)
        readers = TableConfig.simulated(zones).readers
    live = LiveGame.start(store, header, catalogue)
    service = TableService(live, readers, clock=time.monotonic)
    player = None if still else DemoPlayer(service)
    host = "0.0.0.0" if lan else "127.0.0.1"
    service.start()
    try:
        dashboard = Dashboard(
            service, host=host, port=port, token=control, simulated=True, demo=player
        )
    except OSError as exc:
        service.stop()
        store.close()
        message, _ = cannot_serve(exc, host, port)
        fail(f"{message} (--port 0 picks a free one)")
    click.echo(f"demo game {live.game_id} on a simulated table (zones {', '.join(readers)})")
    _say_how_to_open(dashboard, control.current())
    click.echo("Ctrl-C stops it; the game is kept in " + db)
    try:
        dashboard.run_until_stopped()
    finally:
        service.stop()
        store.close()


def _say_how_to_open(dashboard: Dashboard, token: str) -> None:
    address = dashboard.address
    say_where(address)
    if address.on_lan:
        say_token(address, token)
        return
    click.echo(f"this browser takes control with {address.url}?token={token}")
    click.echo(
        "a tablet cannot reach 127.0.0.1 (that is the tablet itself): to play from a tablet on "
        "this network, run `companion demo --lan` and scan the QR code it prints"
    )


def cthulhu_header(catalogue: Catalogue, store: EventStore) -> dict[str, Any]:
    """Three players at seats 1-3, with a simulated tag on every Munchkin Cthulhu card."""
    names = ["Ann", "Ben", "Cat"]
    colours = dict(zip(names, PALETTE, strict=False))
    sex = {"Ann": "female", "Ben": "male", "Cat": "female"}
    return setup_cthulhu.header(names, colours, sex, [], store, catalogue, simulated=True)
