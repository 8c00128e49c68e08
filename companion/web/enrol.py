"""Enrolment: what is this tag, bind one tag, or bind a whole faction by tapping at a zone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify, render_template

from companion.errors import StoreError
from companion.web.auth import require_token
from companion.web.bodies import BindingAnswer, BindingBody, EnrolStart, EnrolStarted, EnrolStopped
from companion.web.body import check_uid, read
from companion.web.errors import BadRequest, NotFound
from companion.web.table import table

if TYPE_CHECKING:  # mypy holds the views to them; only /api/openapi.json loads them
    from companion.web.answers import EnrolmentAnswer, TagAnswer

bp = Blueprint("enrol", __name__)


@bp.get("/enrol")
def page() -> str:
    return render_template("enrol.html")


@bp.get("/api/bindings/<uid>")
def what_is(uid: str) -> Response:
    """The card a tag is: its stored binding, else the running game's. Needs the control
    token: a tag names its card, and a buried card is known to viewers only by its tag."""
    require_token()
    uid = check_uid(uid)
    service = table().service
    catalogue, live = service.catalogue, service.live
    stored = service.store.bindings.get(uid)
    in_game = live.game.state.header.tags.get(uid) if live is not None else None
    source = stored or in_game
    if source is None:
        unknown: TagAnswer = {
            "uid": uid,
            "bound": False,
            "text": f"Tag {uid} is not enrolled: bind it to a card.",
        }
        return jsonify(unknown)
    card, owner = source.card, source.owner
    known = catalogue.get(card)
    name = known.name if known else card
    answer: TagAnswer = {
        "uid": uid,
        "bound": True,
        "card": card,
        "name": name,
        "type": known.type if known else None,
        "faction": known.faction if known else None,
        "owner": owner,
        "bound_at": stored.bound if stored is not None else None,
        "stored": stored is not None,
        "in_game": in_game is not None,
        "text": f"Tag {uid} is {name}" + (f" ({owner}'s)." if owner else "."),
    }
    return jsonify(answer)


@bp.post("/api/bindings")
def bind() -> tuple[Response, int]:
    """Bind a tag in the store (refused if it is another card, unless ``rebind``) and in the
    running game."""
    body = read(BindingBody)
    uid = check_uid(body["uid"])
    card, owner, rebind = body["card"], body.get("owner"), bool(body.get("rebind"))
    service = table().service
    if card not in service.catalogue:
        raise BadRequest(f"unknown card id {card!r}; see /api/cards")
    try:
        binding = service.store.bindings.bind(uid, card, owner, rebind=rebind)
    except StoreError as exc:
        raise BadRequest(f'{exc} (send "rebind": true to change it)') from None
    live = service.live
    version = service.version
    if live is not None:  # the running game knows the tag at once
        line: dict[str, Any] = {"input": "bind", "tag": binding.uid, "card": card}
        if owner in live.game.state.header.players:
            line["owner"] = owner
        version = service.submit(line).state.version
    answer: BindingAnswer = {
        "uid": binding.uid,
        "card": binding.card,
        "owner": binding.owner,
        "bound_at": binding.bound,
        "version": version,
    }
    return jsonify(answer), 201


@bp.get("/api/enrol")
def enrolment() -> Response:
    service = table().service
    current = service.enrolment
    answer: EnrolmentAnswer = {
        "active": current is not None,
        "zone": current[0] if current else None,
        "messages": list(service.enrolment_messages),
    }
    return jsonify(answer)


@bp.post("/api/enrol/start")
def start() -> Response:
    """Taps at ``zone`` bind the faction's cards in printed order until stopped."""
    body = read(EnrolStart)
    zone, faction, owner = body["zone"], body["faction"], body.get("owner")
    service = table().service
    if zone not in service.readers:
        raise NotFound(f"unknown zone {zone!r}; zones: {', '.join(service.readers)}")
    prompt = service.start_enrolment(zone, faction, owner)
    answer: EnrolStarted = {"zone": zone, "faction": faction, "owner": owner, "next": prompt}
    return jsonify(answer)


@bp.post("/api/enrol/stop")
def stop() -> Response:
    service = table().service
    service.stop_enrolment()
    answer: EnrolStopped = {"active": False, "messages": list(service.enrolment_messages)}
    return jsonify(answer)
