"""Every documented Smash Up input, end to end: through ``companion replay`` and through
``POST /api/input`` on a running table, one scenario per key of the tracker's handlers' table
(a new input without a scenario fails :func:`test_every_handler_has_a_scenario`)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.table.service import TableService
from companion.tracker.inputs import HANDLERS
from companion.web.app import create_app
from tests.conftest import AUTH, TOKEN
from tests.every_input import EVERY_INPUT_HEADER, SCENARIOS, Scenario
from tests.tapes import tape


def test_every_handler_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(HANDLERS)


def _replayed(tmp_path: Path, lines: list[dict[str, Any]]) -> dict[str, Any]:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(tape(*lines, header=EVERY_INPUT_HEADER)) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_each_input_through_companion_replay(kind: str, tmp_path: Path) -> None:
    scenario = SCENARIOS[kind]
    before = _replayed(tmp_path, [*scenario.before, *scenario.after])
    assert not scenario.check(before), "the scenario shows the input's effect without it"
    after = _replayed(tmp_path, [*scenario.before, scenario.line, *scenario.after])
    assert scenario.check(after), kind


@pytest.fixture
def client(catalogue: Catalogue) -> Iterator[FlaskClient]:
    store = EventStore.memory()
    table = TableService(
        LiveGame.start(store, EVERY_INPUT_HEADER, catalogue),
        {z: "mock:" for z in EVERY_INPUT_HEADER["zones"]},
        clock=time.monotonic,
    )
    table.start()
    yield create_app(service=table, token=TOKEN).test_client()
    table.stop()
    store.close()


def _post(client: FlaskClient, line: dict[str, Any]) -> None:
    version = _state(client)["version"]
    answer = client.post("/api/input", json={"line": line, "version": version}, headers=AUTH)
    assert answer.status_code == 200, (line, answer.get_json())


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_each_input_through_the_api(kind: str, client: FlaskClient) -> None:
    scenario: Scenario = SCENARIOS[kind]
    for line in [*scenario.before, scenario.line, *scenario.after]:
        _post(client, line)
    assert scenario.check(_state(client)["state"]), kind


def _state(client: FlaskClient) -> dict[str, Any]:
    return client.get("/api/state", headers=AUTH).get_json()  # type: ignore[no-any-return]
