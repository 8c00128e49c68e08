"""A Munchkin Cthulhu game started from /setup on the default simulated table (readers
``base-1..3`` and ``discard``) gets a simulated reader per seat and for the combat pad, so the
virtual table plays it (issue 25: every tap failed with "unknown zone")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.cli.table import open_table
from companion.table.config import TableConfig
from companion.table.service import TableService
from companion.web.app import create_app
from tests.conftest import AUTH, TOKEN
from tests.waiting import eventually


@pytest.fixture
def simulated(tmp_path: Path) -> Iterator[tuple[TableService, FlaskClient]]:
    service = open_table(TableConfig.simulated(), str(tmp_path / "table.db"))
    service.start()
    yield service, create_app(service=service, token=TOKEN, simulated=True).test_client()
    service.stop()
    service.store.close()


def _tag(service: TableService, card: str) -> str:
    tags = service.playing().game.state.header.tags
    return next(uid for uid, bound in tags.items() if bound.card == f"munchkin-cthulhu/{card}")


def _place(client: FlaskClient, zone: str, uid: str) -> None:
    answer = client.post(f"/api/sim/{zone}/place", json={"uid": uid}, headers=AUTH)
    assert answer.status_code == 200, answer.get_json()


def test_the_virtual_table_plays_munchkin_cthulhu(
    simulated: tuple[TableService, FlaskClient],
) -> None:
    service, client = simulated
    assert "seat-1" not in service.readers and "combat" not in service.readers
    players: list[dict[str, Any]] = [
        {"name": name, "colour": colour, "sex": sex}
        for name, colour, sex in (
            ("Ann", "#1f77b4", "female"),
            ("Ben", "#ff7f0e", "male"),
            ("Cat", "#2ca02c", "female"),
        )
    ]
    started = client.post(
        "/api/games", json={"game": "munchkin-cthulhu", "players": players}, headers=AUTH
    )
    assert started.status_code == 201, started.get_json()
    assert {"seat-1", "seat-2", "seat-3", "combat"} <= set(service.readers)
    _place(client, "seat-1", _tag(service, "bowling-pin"))
    eventually(
        lambda: service.document()["players"][0]["gear"] == 2,  # type: ignore[index]
        timeout=4.0,
        what="the seat's reader thread and the worker counting the gear",
    )
    _place(client, "combat", _tag(service, "buggoth"))
    eventually(
        lambda: service.document()["combat"] is not None,  # type: ignore[index]
        timeout=4.0,
        what="the combat pad's reader thread and the worker starting the fight",
    )
    assert service.document()["combat"]["players_strength"] == 1 + 2  # type: ignore[index]
