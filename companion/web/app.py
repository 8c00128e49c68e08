"""The dashboard's application factory: a Flask app over one running table.

:func:`create_app` builds it with its services injected; :class:`companion.web.server.Dashboard`
serves it. The JSON API is the contract in ``web/README.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from companion.storage.tokens import TokenFile
from companion.table.demo import DemoPlayer
from companion.table.network import table_address
from companion.table.service import TableService
from companion.web import (
    api,
    auth,
    enrol,
    errors,
    files,
    history,
    hygiene,
    league,
    live,
    pairing,
    readers,
    reasons,
    setup,
    shell,
    sim,
    writes,
)
from companion.web.auth import HEADER as TOKEN_HEADER
from companion.web.table import EXTENSION, Table

__all__ = ["TOKEN_HEADER", "Table", "create_app"]

DEFAULTS: dict[str, Any] = {
    "SSE_PING_SECONDS": 15.0,
    "JSON_SORT_KEYS": False,
    "MAX_CONTENT_LENGTH": 1 << 20,
    #: event streams served at once (the server's threads are sized for them): a few tablets,
    #: players' phones, a TV, and streams of tablets that went away not yet noticed (the load
    #: test holds 20)
    "MAX_STREAMS": 24,
    #: the host names requests may carry (the Dashboard sets its own: table.network)
    "ALLOWED_HOSTS": table_address("127.0.0.1", 0).served_names(),
}


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    service: TableService,
    token: str | TokenFile,
    simulated: bool = False,
    demo: DemoPlayer | None = None,
) -> Flask:
    """The dashboard for ``service``; POSTs need ``token`` (or a paired tablet's) in
    ``X-Companion-Token``."""
    if not token:
        raise ValueError("the dashboard needs a control token (see storage.tokens)")
    app = Flask(__name__, static_folder=None)  # static/ is files.py's: types of its own
    app.config.update(DEFAULTS)
    if config is not None:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[EXTENSION] = Table(service, token=token, simulated=simulated, demo=demo)

    errors.init_app(app)
    hygiene.init_app(app)
    writes.init_app(app)
    auth.init_app(app)
    files.init_app(app)
    for module in (live, api, setup, history, enrol, readers, sim, league, pairing, shell):
        app.register_blueprint(module.bp)
    app.register_blueprint(reasons.bp)
    return app
