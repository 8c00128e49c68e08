"""The readers screen: each zone's health, and reopening a reader that went quiet."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from companion.hardware.readers.base import HealthSnapshot
from companion.web.auth import has_token
from companion.web.errors import NotFound
from companion.web.table import table

bp = Blueprint("readers", __name__)


def health_document(snapshot: HealthSnapshot) -> dict[str, Any]:
    return asdict(snapshot)


@bp.get("/readers")
def page() -> str:
    return render_template("readers.html")


@bp.get("/api/readers")
def health() -> Response:
    """Each zone's health, the store the reads go to (a reader can be fine while its reads
    cannot be stored), and the last taps' stage times (seconds on the table's monotonic clock:
    reader activation, read handed over, taken as a tap, stored and announced). A tap's uid
    only to a holder of a token: a viewer is never given one (:mod:`companion.tracker.public`)."""
    service = table().service
    taps = [asdict(timing) for timing in list(service.timings)]
    if not has_token():
        taps = [{**tap, "uid": None} for tap in taps]
    return jsonify(
        readers=[health_document(h) for h in service.health()],
        store=service.store_snapshot().document(),
        taps=taps,
    )


@bp.post("/api/readers/<zone>/reopen")
def reopen(zone: str) -> Response:
    readers = table().service.readers
    reader = readers.get(zone)
    if reader is None:
        raise NotFound(f"unknown zone {zone!r}; zones: {', '.join(readers)}")
    reader.reopen()
    return jsonify(health_document(reader.health.snapshot()))
