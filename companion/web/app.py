"""The dashboard's application factory: a Flask app over one running table.

:func:`create_app` builds it with its services injected; :class:`companion.web.server.Dashboard`
serves it. The JSON API is the contract in ``web/README.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from companion.table.demo import DemoPlayer
from companion.table.service import TableService
from companion.web import api, auth, enrol, errors, history, league, live, readers, setup, sim
from companion.web.auth import HEADER as TOKEN_HEADER
from companion.web.table import EXTENSION, Table
from companion.web.tokens import load_or_create_token

__all__ = ["TOKEN_HEADER", "Table", "create_app", "load_or_create_token"]

DEFAULTS: dict[str, Any] = {
    "SSE_PING_SECONDS": 15.0,
    "JSON_SORT_KEYS": False,
    "MAX_CONTENT_LENGTH": 1 << 20,
}


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    service: TableService,
    token: str,
    simulated: bool = False,
    demo: DemoPlayer | None = None,
) -> Flask:
    """The dashboard for ``service``; POSTs need ``token`` in ``X-Companion-Token``."""
    if not token:
        raise ValueError("the dashboard needs a control token (see load_or_create_token)")
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    if config is not None:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[EXTENSION] = Table(service, token=token, simulated=simulated, demo=demo)

    errors.init_app(app)
    auth.init_app(app)
    for module in (live, api, setup, history, enrol, readers, sim, league):
        app.register_blueprint(module.bp)
    return app
