"""The live table screen: the state, the tablet's inputs, and the event stream."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from companion.web.auth import HEADER, has_token
from companion.web.bodies import InputAnswer, InputBody
from companion.web.body import read
from companion.web.channel import CLOSE_AFTER
from companion.web.errors import error_response
from companion.web.slots import StreamRefused
from companion.web.stream import events, parse_last_id
from companion.web.table import table

bp = Blueprint("table", __name__)


@bp.get("/")
def page() -> str:
    return render_template("table.html", simulated=table().simulated)


@bp.get("/api/state")
def state() -> Response:
    _, data = table().payload(full=has_token())
    return Response(data, mimetype="application/json")


@bp.post("/api/input")
def submit() -> tuple[Response, int]:
    """One tape line from the tablet, refused (409) if the table changed since ``version``."""
    body = read(InputBody)
    outcome = table().service.submit(body["line"], seen_version=body["version"])
    answer: InputAnswer = {"version": outcome.state.version, "events": list(outcome.events)}
    return jsonify(answer), 200


@bp.get("/api/events")
def stream() -> Response | tuple[Response, int]:
    last = request.headers.get("Last-Event-ID") or request.args.get("last")
    ping = float(current_app.config["SSE_PING_SECONDS"])
    running = table()
    # EventSource sends no headers of ours: a controlling tablet names its token in the query
    given = request.headers.get(HEADER) or request.args.get("token", "")
    controlling = bool(given) and running.allows(given)
    try:  # each stream holds a server thread while open
        slot = running.streams.enter(
            request.remote_addr or "",
            controlling=controlling,
            limit=int(current_app.config["MAX_STREAMS"]),
        )
    except StreamRefused as exc:
        refused, status = error_response(str(exc), 503)
        # a screen turned away gives its connection back rather than idle on it
        refused.headers[CLOSE_AFTER] = "1"
        return refused, status
    response = Response(
        events(running, parse_last_id(last), ping=ping, slot=slot, full=controlling),
        mimetype="text/event-stream",
    )
    response.call_on_close(slot.leave)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
