"""Helpers to write small tapes inline in tests."""

from __future__ import annotations

import json
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.table.games import DEMO_PLAYERS, game_header, simulated_tags
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.tape.lines import parse_header, read_lines
from companion.tracker.document import state_document
from companion.tracker.game import Game, replay_lines

TAGS = {
    "B1": "munchkin/treehouse",
    "B2": "munchkin/the-mines",
    "B3": "core/the-central-brain",
    "H1": "munchkin/hippogriff",
    "H2": "munchkin/hippogriff",
    "H3": "munchkin/web-troll",
    "TC": "munchkin/topper-chopper",  # Orcs, Ann
    "SL": "munchkin/sword-lord",  # Orcs, Ann
    "DB": "munchkin/dumbbells",  # Warriors action on a minion, Cat
    "BH": "munchkin/big-hero",  # Warriors, Cat
    "TP": "munchkin/taunter",  # Warriors, Cat
    "SS": "munchkin/secret-stash",  # Thieves action on a base, Ben
    "MT": "munchkin/master-thief",  # Thieves, Ben
    "FE": "munchkin/fence",  # Thieves, Ben
    "CP": "munchkin/collection-plate",  # Clerics standard action: nobody plays Clerics
    "HH": "munchkin/halfling-hireling",  # treasure minion
    "CH": "munchkin/chainsaw-of-bloody-dismemberment",  # treasure on a minion
}
HEADER: dict[str, Any] = {
    "tape": 1,
    "game": "smashup",
    "players": ["Ann", "Ben", "Cat"],
    "factions": {
        "Ann": ["munchkin/orcs", "munchkin/elves"],
        "Ben": ["munchkin/thieves", "munchkin/mages"],
        "Cat": ["munchkin/warriors", "munchkin/dwarves"],
    },
    "zones": ["base-1", "base-2", "base-3", "discard"],
    "tags": TAGS,
}


def tape(*lines: dict[str, Any], header: dict[str, Any] | None = None) -> list[str]:
    return [json.dumps(header or HEADER)] + [json.dumps(line) for line in lines]


def run(catalogue: Catalogue, *lines: dict[str, Any], header: dict[str, Any] | None = None) -> Game:
    numbered = iter(read_lines(tape(*lines, header=header)))
    first = next(numbered)
    return replay_lines(parse_header(first.event, catalogue), numbered, catalogue)


def doc(
    catalogue: Catalogue, *lines: dict[str, Any], header: dict[str, Any] | None = None
) -> dict[str, Any]:
    game = run(catalogue, *lines, header=header)
    return state_document(game.state, game.catalogue)


def tap(uid: str, zone: str) -> dict[str, Any]:
    return {"tap": uid, "zone": zone}


def inp(kind: str, **fields: Any) -> dict[str, Any]:
    return {"input": kind, **fields}


def start_demo_players_game(service: TableService) -> LiveGame:
    """What a tablet's New game page does on a simulated table: the demo players' game, with a
    simulated tag on each of their cards, played on ``service`` from now on."""
    catalogue, store = service.catalogue, service.store
    header = game_header(DEMO_PLAYERS, list(service.readers), store, catalogue)
    live = LiveGame.start(store, simulated_tags(header, DEMO_PLAYERS, catalogue), catalogue)
    service.replace_game(live)
    return live
