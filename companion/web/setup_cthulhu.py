"""A new Munchkin Cthulhu game from the setup page: 3 to 6 players with names, colours and
sex; a seat zone each, the combat pad and the discard pad. Readers named otherwise (a table
with fewer readers) become shared pads: the tablet then says where each card went."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.catalogue.cards import CTHULHU, Catalogue
from companion.storage.store import EventStore
from companion.web.bodies import CthulhuSeat
from companion.web.body import COLOUR
from companion.web.errors import BadRequest

MIN_PLAYERS, MAX_PLAYERS = 3, 6


def parse_players(entries: list[CthulhuSeat]) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """Names in seat order, colours, and sex (their types checked by
    :class:`~companion.web.bodies.NewCthulhuGame`). :raises BadRequest: naming the player."""
    if not MIN_PLAYERS <= len(entries) <= MAX_PLAYERS:
        raise BadRequest(f"Munchkin Cthulhu is for 3 to 6 players, not {len(entries)}")
    names: list[str] = []
    colours: dict[str, str] = {}
    sex: dict[str, str] = {}
    for seat, entry in enumerate(entries, start=1):
        where = f"player {seat}"
        name = entry["name"].strip()
        if not name or name in names:
            raise BadRequest(f"{where} needs a name of their own")
        colour = entry["colour"]
        if not COLOUR.match(colour):
            raise BadRequest(f"{name}: the colour {colour!r} must be written #rrggbb")
        chosen = entry["sex"]
        if chosen not in ("female", "male"):
            raise BadRequest(f'{name}: "sex" is "female" or "male" (some monsters care)')
        names.append(name)
        colours[name] = colour.lower()
        sex[name] = chosen
    return names, colours, sex


def header(
    names: list[str],
    colours: dict[str, str],
    sex: dict[str, str],
    readers: Iterable[str],
    store: EventStore,
    catalogue: Catalogue,
    *,
    simulated: bool,
) -> dict[str, Any]:
    seats = [f"seat-{n}" for n in range(1, len(names) + 1)]
    logical = [*seats, "combat", "discard"]
    pads = [zone for zone in readers if zone not in logical]
    tags: dict[str, Any] = {
        uid: b.card for uid, b in store.bindings.all().items() if b.card in catalogue.cthulhu
    }
    if simulated:
        tags = {**simulated_tags(catalogue), **tags}
    return {
        "tape": 1,
        "game": CTHULHU,
        "players": names,
        "sex": sex,
        "colours": colours,
        "zones": [*logical, *pads],
        "tags": tags,
    }


def simulated_tags(catalogue: Catalogue) -> dict[str, str]:
    """A simulated tag on every physical Munchkin Cthulhu card."""
    tags: dict[str, str] = {}
    serial = 0
    for card in catalogue.cthulhu:
        for _ in range(card.copies or 1):
            serial += 1
            tags[f"04C7{serial:010X}"] = card.id
    return tags
