"""The table's league, as its tablet sees it: whether finished games are shipped to a league,
how the outbox stands, and the league's player names (cached on the table for offline nights)
to pick at setup; seats may also play as guests.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.web.errors import BadRequest
from companion.web.table import table

bp = Blueprint("league", __name__)


@bp.get("/api/league")
def league() -> Response:
    store = table().service.store
    names, fetched = store.outbox.league_players()
    entries = store.outbox.newest(limit=200)
    counts = {
        state: sum(e.state == state for e in entries)
        for state in ("pending", "sent", "refused", "too-large")
    }
    refused = [
        {"game": e.uid, "error": e.last_error}
        for e in entries
        if e.state in ("refused", "too-large")
    ]
    return jsonify(
        league=store.log.league_outbox,
        players=names,
        fetched=fetched,
        outbox=counts,
        refused=refused[:10],
    )


def guests_of(entries: list[Any], players: dict[str, list[str]]) -> list[str]:
    """The seats playing without a league name (``"guest": true`` in their entry)."""
    guests = []
    for entry, name in zip(entries, players, strict=True):
        guest = entry.get("guest", False) if isinstance(entry, dict) else False
        if not isinstance(guest, bool):
            raise BadRequest(f'{name}: "guest" is true or false, not {guest!r}')
        if guest:
            guests.append(name)
    return guests
