"""The catalogue and the API's own description."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, request

from companion.catalogue.cards import CARD_TYPES, CTHULHU, Card, slug
from companion.catalogue.cthulhu import MCCard
from companion.catalogue.printings import offered
from companion.tape.shapes import check_query
from companion.web.bodies import CardsQuery
from companion.web.errors import BadRequest
from companion.web.table import table

if TYPE_CHECKING:  # mypy holds the views to them; only /api/openapi.json loads them
    from companion.web.answers import CardsAnswer, CardSummary, CthulhuCardSummary, FactionsAnswer

bp = Blueprint("api", __name__, url_prefix="/api")


def card_summary(card: Card) -> CardSummary:
    return {
        "id": card.id,
        "name": card.name,
        "type": card.type,
        "faction": card.faction,
        "power": card.power,
        "copies": card.copies,
        "set": card.set,
        "breakpoint": card.breakpoint,
        "vp": list(card.vp) if card.vp is not None else None,
        "treasures": card.treasures,
        "text": card.text,
    }


def cthulhu_summary(card: MCCard) -> CthulhuCardSummary:
    return {
        "id": card.id,
        "name": card.name,
        "type": card.kind,
        "faction": None,
        "power": None,
        "copies": card.copies,
        "set": CTHULHU,
        "level": card.level,
        "bonus": card.bonus,
        "gold": card.gold,
        "slot": card.slot,
        "treasures": card.treasures,
        "text": card.text,
    }


@bp.get("/cards")
def cards() -> Response:
    catalogue = table().service.catalogue
    asked = check_query(request.args, CardsQuery)
    set_id = asked.get("set") or None
    if set_id == CTHULHU:
        only: CardsAnswer = {"cards": [cthulhu_summary(card) for card in catalogue.cthulhu]}
        return jsonify(only)
    faction = asked.get("faction") or None
    card_type = asked.get("type") or None
    if set_id is not None and set_id not in catalogue.sets:
        raise BadRequest(f"unknown set {set_id!r}; sets: {', '.join(catalogue.sets)}")
    if card_type is not None and card_type not in CARD_TYPES:
        raise BadRequest(f"unknown type {card_type!r}; types: {', '.join(CARD_TYPES)}")
    if faction is not None and not any(
        faction in (f.id, f.name) or slug(f.name) == slug(faction)
        for f in catalogue.factions.values()
    ):
        raise BadRequest(f"unknown faction {faction!r}; see /api/factions")
    chosen = catalogue.select(set_id=set_id, faction=faction, card_type=card_type)
    found: list[CardSummary | CthulhuCardSummary] = [card_summary(card) for card in chosen]
    if set_id is None and faction is None and card_type is None:
        found += [cthulhu_summary(card) for card in catalogue.cthulhu]
    answer: CardsAnswer = {"cards": found}
    return jsonify(answer)


@bp.get("/factions")
def factions() -> Response:
    """The factions, and the printings each set offers (the first is the default)."""
    catalogue = table().service.catalogue
    answer: FactionsAnswer = {
        "printings": {
            set_id: {"name": catalogue.sets[set_id].name, "printings": list(names)}
            for set_id, names in offered(catalogue).items()
            if len(names) > 1
        },
        "factions": [
            {
                "id": f.id,
                "name": f.name,
                "set": f.set,
                "set_name": catalogue.sets[f.set].name,
                "bases": list(f.bases),
            }
            for f in catalogue.factions.values()
        ],
    }
    return jsonify(answer)


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API's description, built from its types when asked (:mod:`.openapi`): a table
    serving its tablet never loads the answers' types nor writes their schemas."""
    return jsonify(import_module("companion.web.openapi").spec())
