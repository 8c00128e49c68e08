"""The dashboard's own files (``static/``: ES modules and a style sheet), each sent with its
type from :data:`TYPES`.

Flask's static view asks :mod:`mimetypes` for a file's type, and its first question reads
the system's MIME database (``/etc/mime.types``: some 1,200 types, 0.35 MB the serving
process then keeps, issue 24) to name the two types the dashboard ships.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, current_app, send_from_directory

from companion.web.errors import NotFound

FOLDER = Path(__file__).parent / "static"
#: the type of each kind of file in ``static/`` (a test holds every file there to one)
TYPES = {".js": "text/javascript", ".css": "text/css"}


def send(filename: str) -> Response:
    """``static/<filename>`` with its type; a kind of file the dashboard does not ship is not
    found, like a missing one."""
    kind = TYPES.get(Path(filename).suffix)
    if kind is None:
        raise NotFound(f"there is no file /static/{filename}")
    max_age = current_app.get_send_file_max_age(filename)
    return send_from_directory(FOLDER, filename, mimetype=kind, max_age=max_age)


def init_app(app: Flask) -> None:
    """Serve ``static/`` at ``/static/`` as the endpoint ``static`` (the templates' ``url_for``);
    ``app`` was made with ``static_folder=None``."""
    app.add_url_rule("/static/<path:filename>", endpoint="static", view_func=send)
