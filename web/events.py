"""Live state over Server-Sent Events (``GET /api/events``).

Each message carries the state version as its id. A tablet that slept reconnects with
``Last-Event-ID`` (or ``?last=``); if the table moved on meanwhile it gets the current state at
once, so it never misses the latest state (states are whole, not deltas).
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request

from web import table
from web.api import state_payload

bp = Blueprint("events", __name__, url_prefix="/api")


@bp.get("/events")
def stream() -> Response:
    service = table()
    simulated = bool(current_app.config["SIMULATED"])
    ping = float(current_app.config["SSE_PING_SECONDS"])
    last = request.headers.get("Last-Event-ID") or request.args.get("last")
    seen = int(last) if last is not None and last.isdigit() else None
    changes: queue.Queue[int] = queue.Queue()
    stop = service.listen(lambda change: changes.put(change.version))

    def messages() -> Iterator[str]:
        sent = seen
        try:
            while True:
                if sent != service.version:
                    payload = state_payload(service, simulated)
                    sent = payload["version"]
                    data = json.dumps(payload, separators=(",", ":"))
                    yield f"id: {sent}\nevent: state\ndata: {data}\n\n"
                try:
                    changes.get(timeout=ping)
                except queue.Empty:
                    yield ": ping\n\n"
                while not changes.empty():  # a burst of changes: send the newest state once
                    changes.get_nowait()
        finally:
            stop()

    return Response(
        messages(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
