"""What makes the dashboard an installable app: the web app manifest and its icons."""

from __future__ import annotations

import json

from flask import Blueprint, Response

from companion.web import icons
from companion.web.errors import NotFound

bp = Blueprint("shell", __name__)

#: icons change only with a new version of the package: let the browser keep them a day
ICON_MAX_AGE = 86400


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return Response(json.dumps(icons.manifest()), mimetype="application/manifest+json")


@bp.get("/icons/<int:size>.png")
def png(size: int) -> Response:
    if size not in icons.SIZES:
        sizes = ", ".join(f"/icons/{s}.png" for s in icons.SIZES)
        raise NotFound(f"there is no {size} px icon; the icons are {sizes}")
    response = Response(icons.png(size), mimetype="image/png")
    response.headers["Cache-Control"] = f"max-age={ICON_MAX_AGE}"
    return response


@bp.get("/icons/icon.svg")
def svg() -> Response:
    response = Response(icons.svg(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = f"max-age={ICON_MAX_AGE}"
    return response
