"""The virtual table of a simulated table: its cards, placed on and lifted from the simulated
antennas, so the taps go through the real nfcpy reader path (``/api/sim``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from web import ApiError, json_body, table

bp = Blueprint("sim", __name__, url_prefix="/api/sim")


@bp.before_request
def simulated_only() -> None:
    if not current_app.config["SIMULATED"]:
        raise ApiError(
            404,
            "this table has real readers: the virtual table is only for "
            "`companion demo` and `companion serve --simulate`",
        )


@bp.get("/cards")
def cards() -> Any:
    service = table()
    catalogue = service.live.game.catalogue
    tags = service.live.game.state.header.tags
    return jsonify(
        cards=[
            {
                "uid": uid,
                "card": binding.card,
                "name": catalogue[binding.card].name,
                "type": catalogue[binding.card].type,
                "owner": binding.owner,
            }
            for uid, binding in sorted(tags.items())
        ]
    )


def _antenna(zone: str) -> Any:
    service = table()
    if zone not in service.readers:
        raise ApiError(404, f"no zone {zone!r}; zones: {', '.join(service.readers)}")
    simulator = service.context.simulator
    if zone not in simulator.zones:
        raise ApiError(404, f"zone {zone!r} has a real reader, not a simulated one")
    return simulator.zone(zone)


@bp.post("/<zone>/place")
def place(zone: str) -> Any:
    from companion.readers.ntag_sim import NtagCard

    antenna = _antenna(zone)
    uid = json_body().get("uid")
    tags = table().live.game.state.header.tags
    if not isinstance(uid, str) or uid.upper() not in tags:
        raise ApiError(400, '"uid" must be the tag of one of the virtual table\'s cards')
    antenna.place(NtagCard.for_card(uid.upper(), tags[uid.upper()].card))
    return jsonify(zone=zone, placed=uid.upper())


@bp.post("/<zone>/lift")
def lift(zone: str) -> Any:
    card = _antenna(zone).lift()
    return jsonify(zone=zone, lifted=card.uid_hex if card is not None else None)
