"""A simulated table with the demo players' game running, as the benchmarks need it: the same
path as a tablet's "New game" on `companion serve --simulate` (the game's tags simulated)."""

from __future__ import annotations

from companion.cli.table import open_table
from companion.table.config import TableConfig
from companion.table.games import DEMO_PLAYERS, game_header, simulated_tags
from companion.table.live import LiveGame
from companion.table.service import TableService


def simulated_table(config: TableConfig, db: str) -> TableService:
    """The table of ``config`` (simulated readers) with a new demo game on it, not started."""
    service = open_table(config, db)
    zones = [zone for zone in service.readers if zone != "discard"]
    header = game_header(DEMO_PLAYERS, list(service.readers), service.store, service.catalogue)
    header = simulated_tags(header, DEMO_PLAYERS, service.catalogue)
    service.replace_game(LiveGame.start(service.store, header, service.catalogue))
    assert zones
    return service
