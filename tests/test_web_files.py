"""The dashboard's own files are sent with types of its own (companion/web/files.py): the
system's MIME database, 0.35 MB the serving process would keep, is never read for them."""

from __future__ import annotations

import mimetypes

import pytest
from flask.testing import FlaskClient

from companion.web.files import FOLDER, TYPES


def test_every_shipped_file_has_a_type() -> None:
    shipped = [path for path in FOLDER.rglob("*") if path.is_file()]
    assert shipped and all(path.suffix in TYPES for path in shipped)


def test_each_file_is_sent_with_its_type_without_asking_the_system(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the system's MIME database was asked")

    monkeypatch.setattr(mimetypes, "guess_type", refuse)
    monkeypatch.setattr(mimetypes, "init", refuse)
    for name, kind in (("js/table.js", "text/javascript"), ("css/app.css", "text/css")):
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200, name
        assert answer.mimetype == kind
        assert answer.data == (FOLDER / name).read_bytes()
        answer.close()


def test_a_file_not_shipped_is_not_found(client: FlaskClient) -> None:
    assert client.get("/static/js/gone.js").status_code == 404
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/js/table.py").status_code == 404
