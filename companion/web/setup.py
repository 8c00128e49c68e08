"""Game setup: a new game on the running table (players, colours, factions, zones)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from companion.catalogue.cards import CTHULHU, Catalogue
from companion.simulation.plausible import make_header
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.table.games import game_header
from companion.web import setup_cthulhu as cthulhu
from companion.web.body import COLOUR, check, json_body, maybe, need
from companion.web.errors import BadRequest
from companion.web.league import guests_of
from companion.web.table import table

bp = Blueprint("setup", __name__)

MAX_ZONES = 5


@bp.get("/setup")
def page() -> str:
    return render_template("setup.html")


@bp.post("/api/games")
def new_game() -> tuple[Response, int]:
    """Start a game with the tags enrolled so far and play it on this table from now on."""
    running = table()
    live = running.service.live
    catalogue = live.game.catalogue
    body = json_body()
    game = maybe(body, "game", str) or "smashup"
    if game == CTHULHU:
        names, colours, sex = cthulhu.parse_players(need(body, "players", list))
        header = cthulhu.header(
            names,
            colours,
            sex,
            running.service.readers,
            live.store,
            catalogue,
            simulated=running.simulated,
        )
        started = LiveGame.start(live.store, header, catalogue)
        running.replace_game(started)
        return jsonify(game_id=started.game_id, base_deck=[], zones=header["zones"]), 201
    if game != "smashup":
        raise BadRequest(f'"game" is "smashup" or "{CTHULHU}", not {game!r}')
    entries = need(body, "players", list)
    players, colours = parse_players(entries, catalogue)
    zones = choose_zones(maybe(body, "zones", int), running.service.readers)
    header = new_header(players, colours, zones, live.store, catalogue)
    guests = guests_of(entries, players)
    if guests:  # played without a league name: the league does not rate them
        header["guests"] = guests
    if running.simulated:  # every card of the chosen factions gets a simulated tag
        made = make_header(list(players), players, catalogue, len(zones) - 1)
        header["tags"] = {**made["tags"], **header["tags"]}
    started = LiveGame.start(live.store, header, catalogue)
    running.replace_game(started)
    deck = base_deck(live.game.catalogue, (f for chosen in players.values() for f in chosen))
    return jsonify(game_id=started.game_id, base_deck=deck, zones=zones), 201


def parse_players(
    entries: list[Any], catalogue: Catalogue
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Seat order, factions and colours. :raises BadRequest: saying which player is wrong."""
    if not 2 <= len(entries) <= 4:
        raise BadRequest(f"Smash Up is for 2 to 4 players, not {len(entries)}")
    players: dict[str, list[str]] = {}
    colours: dict[str, str] = {}
    for seat, entry in enumerate(entries, start=1):
        where = f"player {seat}"
        entry = check(entry, where, dict, 'an object {"name", "colour", "factions"}')
        name = need(entry, "name", str).strip()
        if not name:
            raise BadRequest(f"{where} needs a name of their own")
        if name in players:
            raise BadRequest(f"{where} needs a name of their own: {name!r} is taken")
        factions = need(entry, "factions", list, "two faction ids")
        if len(factions) != 2 or not all(isinstance(f, str) for f in factions):
            raise BadRequest(f"{name}: choose exactly two factions (ids from /api/factions)")
        if factions[0] == factions[1]:
            raise BadRequest(f"{name} needs two different factions, not {factions[0]!r} twice")
        for faction in factions:
            if faction not in catalogue.factions:
                raise BadRequest(
                    f"{name} needs two different factions from /api/factions; "
                    f"{faction!r} is not one"
                )
        colour = need(entry, "colour", str, "a colour like #1f77b4")
        if not COLOUR.match(colour):
            raise BadRequest(f"{name}: the colour {colour!r} must be written #rrggbb")
        for faction in factions:
            taken = next((p for p, chosen in players.items() if faction in chosen), None)
            if taken is not None:
                raise BadRequest(
                    f"{name} cannot take {catalogue.factions[faction].name}: {taken} plays it "
                    "(each faction is one deck); choose another"
                )
        players[name] = list(factions)
        colours[name] = colour.lower()
    return players, colours


def choose_zones(count: int | None, readers: Iterable[str]) -> list[str]:
    """``base-1`` .. ``base-<count>`` and ``discard``: zones this table has readers for."""
    available = list(readers)
    if count is None:
        count = max(2, min(MAX_ZONES, sum(1 for z in available if z.startswith("base-"))))
    if not 2 <= count <= MAX_ZONES:
        raise BadRequest(f'"zones" is the number of bases in play, 2 to {MAX_ZONES}, not {count}')
    zones = [f"base-{n}" for n in range(1, count + 1)] + ["discard"]
    missing = [z for z in zones if z not in available]
    if missing:
        raise BadRequest(
            f"this table has no reader for {', '.join(missing)} (readers: "
            f"{', '.join(available)}); choose fewer zones"
        )
    return zones


def new_header(
    players: dict[str, list[str]],
    colours: dict[str, str],
    zones: list[str],
    store: EventStore,
    catalogue: Catalogue,
) -> dict[str, Any]:
    return {**game_header(players, zones, store, catalogue), "colours": colours}


def base_deck(catalogue: Catalogue, factions: Iterable[str]) -> list[str]:
    """The bases of the sets the chosen factions come from (the rulebook's base deck)."""
    sets = {catalogue.factions[f].set for f in factions}
    return [card.id for card in catalogue if card.type == "base" and card.set in sets]
