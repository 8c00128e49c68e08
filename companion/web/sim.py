"""The simulated table's cards (placed and lifted from the tablet) and the self-playing demo.

Only a simulated table has these: on a real table they answer 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify

from companion.cthulhu.state import MCState
from companion.rules.game import where_is
from companion.table.demo import DemoPlayer
from companion.table.virtual import NoSimZone, VirtualTable
from companion.tracker.common import owner_candidates
from companion.tracker.games import GameState
from companion.tracker.public import buried_tags
from companion.tracker.state import TrackerState
from companion.tracker.words import FACE_DOWN, card_name
from companion.web.auth import has_token
from companion.web.bodies import SimLift, SimLifted, SimPlace, SimPlaced
from companion.web.body import check_uid, read
from companion.web.errors import BadRequest, NotFound
from companion.web.table import Table, table

if TYPE_CHECKING:  # mypy holds the views to them; only /api/openapi.json loads them
    from companion.web.answers import SimCard, SimCardsAnswer

bp = Blueprint("sim", __name__, url_prefix="/api")


def virtual() -> VirtualTable:
    running = table()
    if not running.simulated:
        raise NotFound("this table has real readers, not simulated ones: place real cards")
    return VirtualTable(running.service)


@bp.get("/sim/cards")
def cards() -> Response:
    """The running game's tags, with their cards and owners and where each lies now. Without
    a token no uid is given (each card's handle instead, :mod:`companion.tracker.public`), only
    the cards anyone at the table sees are listed (in play, or lying on a reader: not a hand),
    and a buried card is only a face-down card: no handle, card, name, type or owner. (A hand
    card listed by its handle, gone from the list when a face-down card appears, would say
    which card was buried.)"""
    board = virtual()
    live = board.service.live
    if live is None:
        nothing: SimCardsAnswer = {"cards": []}
        return jsonify(nothing)
    catalogue = live.game.catalogue
    lying = board.where()
    state = live.game.state
    full = has_token()
    hidden = frozenset() if full else buried_tags(state)
    shown = board.service.view.shown
    found: list[SimCard] = []
    for uid, binding in state.header.tags.items():
        if uid.upper() in hidden:
            found.append(face_down(lying.get(uid)))
            continue
        kind: str | None
        card = catalogue.get(binding.card)
        if card is None or not isinstance(state, TrackerState):  # a Munchkin Cthulhu card
            other = catalogue.cthulhu.get(binding.card)
            kind = other.kind if other is not None else None
            name, owner, in_play = card_name(catalogue, binding.card), None, uid in held(state)
        else:
            personal = card.type not in ("base", "monster")
            owners = owner_candidates(state, card, binding) if personal else []
            kind, name = card.type, card.name
            owner = owners[0] if len(owners) == 1 else None
            in_play = where_is(state.table, uid) is not None
        if not full and not in_play and lying.get(uid) is None:
            continue
        found.append(
            {
                "uid": uid if full else shown.get(uid.upper()),
                "card": binding.card,
                "name": name,
                "type": kind,
                "owner": owner,
                "zone": lying.get(uid),
                "in_play": in_play,
            }
        )
    answer: SimCardsAnswer = {"cards": found}
    return jsonify(answer)


def face_down(zone: str | None) -> SimCard:
    return {
        "uid": None,
        "card": None,
        "name": FACE_DOWN,
        "type": None,
        "owner": None,
        "zone": zone,
        "in_play": True,
        "face_down": True,
    }


@bp.post("/sim/<zone>/place")
def place(zone: str) -> Response:
    board = virtual()
    uid = check_uid(read(SimPlace)["uid"])
    try:
        card = board.place(zone, uid)
    except NoSimZone as exc:
        raise NotFound(str(exc)) from None
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    placed: SimPlaced = {"zone": zone, "uid": uid, "card": card}
    return jsonify(placed)


@bp.post("/sim/<zone>/lift")
def lift(zone: str) -> Response:
    board = virtual()
    given = read(SimLift).get("uid")
    # lift only this card (another may have been put there since)
    only = check_uid(given) if given is not None else None
    try:
        if only is not None and board.present(zone) != only:
            return jsonify(_lifted(zone, None))
        uid = board.lift(zone)
    except NoSimZone as exc:
        raise NotFound(str(exc)) from None
    return jsonify(_lifted(zone, uid))


def _lifted(zone: str, uid: str | None) -> SimLifted:
    return {"zone": zone, "lifted": uid}


def held(state: GameState) -> set[str]:
    """Tags in play in a Munchkin Cthulhu game: in front of players or in the fight."""
    found: set[str] = set()
    if not isinstance(state, MCState):
        return found
    for player in state.table.players:
        found |= {h.tag for h in (*player.classes, *player.items, *player.kept)}
    combat = state.table.combat
    if combat is not None:
        found |= {m.tag for m in combat.monsters} | {o.tag for o in combat.one_shots}
        found |= {e.tag for m in combat.monsters for e in m.enhancers}
    return found


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
