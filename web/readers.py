"""Reader health per zone, and reopening a reader (``/api/readers``)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import Blueprint, jsonify

from web import ApiError, table

bp = Blueprint("readers", __name__, url_prefix="/api/readers")


@bp.get("")
def health() -> Any:
    return jsonify(readers=[asdict(snapshot) for snapshot in table().health()])


@bp.post("/<zone>/reopen")
def reopen(zone: str) -> Any:
    reader = table().readers.get(zone)
    if reader is None:
        raise ApiError(404, f"no reader at zone {zone!r}; zones: {', '.join(table().readers)}")
    reader.reopen()
    return jsonify(zone=zone, reopening=True)
