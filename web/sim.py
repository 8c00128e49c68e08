"""The simulated table's cards (placed and lifted from the tablet) and the self-playing demo.

Only a simulated table has these: on a real table they answer 404.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.body import json_body, uid_field
from web.demo import DemoPlayer
from web.errors import BadRequest, NotFound
from web.table import Table, table
from web.virtual import NoSimZone, VirtualTable

bp = Blueprint("sim", __name__, url_prefix="/api")


def virtual() -> VirtualTable:
    running = table()
    if not running.simulated:
        raise NotFound("this table has real readers, not simulated ones: place real cards")
    return VirtualTable(running.service)


@bp.get("/sim/cards")
def cards() -> Response:
    """The running game's tags, with their cards and owners and where each lies now."""
    board = virtual()
    live = board.service.live
    catalogue = live.game.catalogue
    lying = board.where()
    return jsonify(
        cards=[
            {
                "uid": uid,
                "card": binding.card,
                "name": catalogue[binding.card].name if binding.card in catalogue else None,
                "type": catalogue[binding.card].type if binding.card in catalogue else None,
                "owner": binding.owner,
                "zone": lying.get(uid),
            }
            for uid, binding in live.game.state.header.tags.items()
        ]
    )


@bp.post("/sim/<zone>/place")
def place(zone: str) -> Response:
    board = virtual()
    uid = uid_field(json_body())
    try:
        card = board.place(zone, uid)
    except NoSimZone as exc:
        raise NotFound(str(exc)) from None
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    return jsonify(zone=zone, uid=uid, card=card)


@bp.post("/sim/<zone>/lift")
def lift(zone: str) -> Response:
    board = virtual()
    json_body()
    try:
        uid = board.lift(zone)
    except NoSimZone as exc:
        raise NotFound(str(exc)) from None
    return jsonify(zone=zone, lifted=uid)


def demo_of(running: Table) -> DemoPlayer:
    if running.demo is None:
        raise NotFound("no demo game is playing on this table (start one with `companion demo`)")
    return running.demo


@bp.get("/demo")
def demo_status() -> Response:
    return jsonify(demo_of(table()).status())


@bp.post("/demo/pause")
def pause() -> Response:
    demo = demo_of(table())
    demo.pause()
    return jsonify(demo.status())


@bp.post("/demo/resume")
def resume() -> Response:
    demo = demo_of(table())
    demo.resume()
    return jsonify(demo.status())
