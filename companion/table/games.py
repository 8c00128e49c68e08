"""Starting a game on a table: a new game's header from the tags enrolled so far, and the
players of the demo game."""

from __future__ import annotations

from typing import Any

from companion.catalogue.cards import Catalogue
from companion.simulation.plausible import make_header
from companion.storage.store import EventStore

DEMO_PLAYERS = {
    "Ann": ["munchkin/orcs", "munchkin/elves"],
    "Ben": ["munchkin/thieves", "munchkin/mages"],
    "Cat": ["munchkin/warriors", "munchkin/halflings"],
}


def game_header(
    players: dict[str, list[str]], zones: list[str], store: EventStore, catalogue: Catalogue
) -> dict[str, Any]:
    """A new game's header: its tags are the bindings enrolled so far."""
    tags = {
        uid: {"card": b.card, "owner": b.owner} if b.owner in players else b.card
        for uid, b in store.bindings.all().items()
        if b.card in catalogue
    }
    return {
        "tape": 1,
        "game": "smashup",
        "players": list(players),
        "factions": players,
        "zones": zones,
        "tags": tags,
    }


def simulated_tags(
    header: dict[str, Any], players: dict[str, list[str]], catalogue: Catalogue
) -> dict[str, Any]:
    """``header`` with a simulated tag on every card of the players' factions (a simulated
    table has no real stickers); tags enrolled already keep their cards."""
    bases = sum(1 for zone in header["zones"] if zone != "discard")
    made = make_header(list(players), players, catalogue, bases)
    return {**header, "tags": {**made["tags"], **header["tags"]}}
