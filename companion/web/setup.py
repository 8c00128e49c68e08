"""Game setup: a new game on the running table (players, colours, factions, zones)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from companion.catalogue.cards import CTHULHU, Catalogue
from companion.catalogue.printings import DEFAULT
from companion.catalogue.printings import check as check_printings
from companion.errors import CatalogueError
from companion.storage.store import EventStore
from companion.table.games import game_header, simulated_tags
from companion.table.live import LiveGame
from companion.web import setup_cthulhu as cthulhu
from companion.web.auth import HEADER
from companion.web.bodies import (
    GameChoice,
    GameStarted,
    NewCthulhuGame,
    NewSmashUpGame,
    SmashUpSeat,
)
from companion.web.body import COLOUR, read
from companion.web.errors import BadRequest, Conflict
from companion.web.league import guests_of
from companion.web.palette import PALETTE
from companion.web.table import table

bp = Blueprint("setup", __name__)

MAX_ZONES = 5


@bp.get("/setup")
def page() -> str:
    return render_template("setup.html", palette=PALETTE)


@bp.post("/api/games")
def new_game() -> tuple[Response, int]:
    """Start a game with the tags enrolled so far and play it on this table from now on."""
    running = table()
    store, catalogue = running.service.store, running.service.catalogue
    if read(GameChoice).get("game") == CTHULHU:
        mc = read(NewCthulhuGame)
        replace = mc.get("replace")
        names, colours, sex = cthulhu.parse_players(mc["players"])
        header = cthulhu.header(
            names,
            colours,
            sex,
            running.service.readers,
            store,
            catalogue,
            simulated=running.simulated,
        )
        by = check_replacing(running.service.live, replace)
        if running.simulated:  # the virtual table gets a simulated reader per seat and the fight
            running.service.open_zones(header["zones"])
        started = LiveGame.start(store, header, catalogue)
        running.replace_game(started, by)
        return jsonify(_started(started.game_id, [], header["zones"])), 201
    body = read(NewSmashUpGame)
    replace, entries = body.get("replace"), body["players"]
    players, colours = parse_players(entries, catalogue)
    zones = choose_zones(body.get("zones"), running.service.readers)
    header = new_header(players, colours, zones, store, catalogue)
    chosen = parse_printings(body.get("printings"), catalogue)
    if chosen:
        header["printings"] = chosen
    guests = guests_of(entries, players)
    if guests:  # played without a league name: the league does not rate them
        header["guests"] = guests
    if running.simulated:  # every card of the chosen factions gets a simulated tag
        header = simulated_tags(header, players, catalogue)
    by = check_replacing(running.service.live, replace)
    started = LiveGame.start(store, header, catalogue)
    running.replace_game(started, by)
    deck = base_deck(catalogue, (f for chosen in players.values() for f in chosen))
    return jsonify(_started(started.game_id, deck, zones)), 201


def _started(game_id: int, deck: list[str], zones: list[str]) -> GameStarted:
    return {"game_id": game_id, "base_deck": deck, "zones": zones}


def check_replacing(current: LiveGame | None, replace: int | None) -> str | None:
    """Starting a game while another is unfinished ends that one (void): only when the request
    says so (``"replace": <its id>``, after the page asked), else 409 with what is in progress.
    Returns who is starting it, for the record of the void game.

    :raises Conflict: a game is in progress and the request does not name it.
    """
    if current is None or current.finished:
        return None
    if replace != current.game_id:
        state = current.game.state
        players = list(state.header.players)
        raise Conflict(
            f"game {current.game_id} ({', '.join(players)}) is still being played: starting "
            f'a new game ends it unfinished (void); send "replace": {current.game_id} to do so',
            extra={"in_progress": {"game_id": current.game_id, "players": players}},
        )
    given = str(request.headers.get(HEADER, ""))
    how = "with the control token" if table().is_control_token(given) else "paired at the table"
    return f"a tablet at {request.remote_addr or 'an unknown address'} ({how})"


def parse_players(
    entries: list[SmashUpSeat], catalogue: Catalogue
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Seat order, factions and colours (their types checked by :class:`NewSmashUpGame`).

    :raises BadRequest: saying which player is wrong.
    """
    if not 2 <= len(entries) <= 4:
        raise BadRequest(f"Smash Up is for 2 to 4 players, not {len(entries)}")
    players: dict[str, list[str]] = {}
    colours: dict[str, str] = {}
    for seat, entry in enumerate(entries, start=1):
        where = f"player {seat}"
        name = entry["name"].strip()
        if not name:
            raise BadRequest(f"{where} needs a name of their own")
        if name in players:
            raise BadRequest(f"{where} needs a name of their own: {name!r} is taken")
        factions = entry["factions"]
        if len(factions) != 2:
            raise BadRequest(f"{name}: choose exactly two factions (ids from /api/factions)")
        if factions[0] == factions[1]:
            raise BadRequest(f"{name} needs two different factions, not {factions[0]!r} twice")
        for faction in factions:
            if faction not in catalogue.factions:
                raise BadRequest(
                    f"{name} needs two different factions from /api/factions; "
                    f"{faction!r} is not one"
                )
        colour = entry["colour"]
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


def parse_printings(raw: dict[str, str] | None, catalogue: Catalogue) -> dict[str, str]:
    """The printing each set is played in (``{"munchkin": "current"}``); the default
    (errata) is left out. :raises BadRequest: a set or printing the catalogue does not offer."""
    if raw is None:
        return {}
    try:
        check_printings(catalogue, raw)
    except CatalogueError as exc:
        raise BadRequest(str(exc)) from None
    return {set_id: name for set_id, name in raw.items() if name != DEFAULT}


def choose_zones(count: int | None, readers: Iterable[str]) -> list[str]:
    """``base-1`` .. ``base-<count>`` and ``discard``: zones this table has readers for."""
    available = list(readers)
    if not any(z.startswith("base-") for z in available):
        raise BadRequest(
            f"this table has no base zones (readers: {', '.join(available) or 'none'}): Smash Up "
            "needs a reader under each base, named base-1, base-2 ...; play Munchkin Cthulhu here"
        )
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
