"""The table's view (companion.table.view): built once per stored line, when the change is
announced, never by a reader; immutable; serialised once per audience; the store's health and
pairing kept apart, so a change of either rebuilds nothing."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion.table.service import TableService
from companion.table.view import TableView, Views
from companion.web.app import create_app
from tests.conftest import AUTH, TOKEN


def test_one_view_is_built_per_stored_line_and_none_by_readers(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    build = Views.build

    def counted(self: Views, live: Any, readers: tuple[str, ...]) -> TableView:
        view = build(self, live, readers)
        built.append(view.version)
        return view

    monkeypatch.setattr(Views, "build", counted)
    client = create_app(service=service, token=TOKEN).test_client()
    lines: list[dict[str, Any]] = [{"tap": "B1", "zone": "base-1"}, {"tap": "TC", "zone": "base-1"}]
    lines += [{"input": "dismiss"}, {"input": "undo"}, {"input": "end-turn"}]
    for line in lines:
        service.submit(line)
        for _ in range(3):  # viewers and token holders read it, the store's health changes
            client.get("/api/state")
            client.get("/api/state", headers=AUTH)
            service._health_changed()
    assert built == [1, 2, 3, 4, 5]


def test_a_view_is_immutable_and_serialised_once_per_audience(service: TableService) -> None:
    service.submit({"tap": "B1", "zone": "base-1"})
    view = service.view
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.version = 2  # type: ignore[misc]
    made: list[str] = []

    def build(shown: TableView, audience: Any) -> bytes:
        made.append(audience)
        return str(audience).encode()

    assert [view.serialised("public", build) for _ in range(3)] == [b"public"] * 3
    assert view.serialised("full", build) == b"full"
    assert made == ["public", "full"]


def test_the_health_and_pairing_change_without_a_new_view(service: TableService) -> None:
    app = create_app(service=service, token=TOKEN)
    table = app.extensions["companion"]
    before = table.view()
    service.store_health.failed("disk I/O error", 0.0)
    after = table.view()
    assert after.head is before.head  # the same bytes: nothing rebuilt
    assert after.status != before.status and b"failing" in after.tail
    assert service.view.version == after.version == before.version


def test_the_public_document_names_cards_by_handle(service: TableService) -> None:
    service.submit({"tap": "B1", "zone": "base-1"})
    service.submit({"tap": "TC", "zone": "base-1"})
    view = service.view
    assert view.document is not None and view.public is not None
    (base,) = view.document["bases"]  # type: ignore[typeddict-item]
    (shown,) = view.public["bases"]  # type: ignore[typeddict-item]
    assert base["tag"] == "B1" and shown["tag"] == view.shown["B1"]
    assert shown["minions"][0]["tag"] == view.shown["TC"] != "TC"
    assert view.uid_of(view.shown["TC"] or "") == "TC" and view.uid_of("TC") is None
