"""Why a card has its power: what the tablet shows when someone taps a minion (its printed
power, its counters, and each effect in play that changes it, by the card that makes it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify

from companion.rules.reasons import power_reasons
from companion.tracker.state import TrackerState
from companion.tracker.words import card_name
from companion.web.auth import has_token
from companion.web.errors import NotFound
from companion.web.table import table

if TYPE_CHECKING:  # mypy holds the views to them; only /api/openapi.json loads them
    from companion.web.answers import PowerAnswer

bp = Blueprint("reasons", __name__)


@bp.get("/api/power/<tag>")
def power(tag: str) -> Response:
    """The parts of the power of the minion with ``tag`` in the game in progress: its uid
    for a holder of a token, its handle for a viewer (who is never given a uid)."""
    service = table().service
    live = service.live
    state = None if live is None else live.game.state
    if live is None or not isinstance(state, TrackerState):
        raise NotFound("there is no Smash Up game in progress")
    catalogue = live.game.catalogue
    uid = tag.upper() if has_token() else service.view.uid_of(tag)
    found = None if uid is None else power_reasons(state.table, catalogue, uid)
    if found is None:
        raise NotFound(f"no minion in play has the tag {tag!r}")
    answer: PowerAnswer = {
        "tag": found.tag if has_token() else tag,
        "card": found.card,
        "name": card_name(catalogue, found.card),
        "printed": found.printed,
        "counters": found.counters,
        "reasons": [
            {"card": r.card, "name": card_name(catalogue, r.card), "amount": r.amount}
            for r in found.reasons
        ],
        "power": found.power,
    }
    return jsonify(answer)
