"""The table's state and its inputs: ``GET /api/state``, ``POST /api/input``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.service import TableService
from web import ApiError, json_body, table

bp = Blueprint("api", __name__, url_prefix="/api")


def state_payload(service: TableService, simulated: bool) -> dict[str, Any]:
    version, document = service.snapshot()
    return {"version": version, "state": document, "simulated": simulated}


@bp.get("/state")
def state() -> Any:
    return jsonify(state_payload(table(), bool(current_app.config["SIMULATED"])))


@bp.post("/input")
def submit() -> Any:
    body = json_body()
    line, version = body.get("line"), body.get("version")
    if not isinstance(line, dict):
        raise ApiError(400, '"line" must be a tape event object, e.g. {"input": "end-turn"}')
    if not isinstance(version, int) or isinstance(version, bool):
        raise ApiError(400, '"version" must be the state version you saw (a whole number)')
    outcome = table().submit(line, seen_version=version)
    return jsonify(version=table().version, events=list(outcome.events), changed=outcome.changed)
