"""Every documented input of both games, end to end: through ``companion replay`` and through
``POST /api/input`` on a running table, one scenario per key of each tracker's handlers' table
(a new input without a scenario fails :func:`test_every_handler_has_a_scenario`)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.cthulhu.inputs import INPUTS
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.tracker.inputs import HANDLERS
from companion.web.app import create_app
from tests.conftest import AUTH, TOKEN
from tests.every_cthulhu_input import CTHULHU_HEADER, CTHULHU_SCENARIOS
from tests.every_input import EVERY_INPUT_HEADER, SCENARIOS, Scenario
from tests.tapes import tape

#: (game, input) -> its scenario and the game's header
CASES: dict[str, tuple[Scenario, dict[str, Any]]] = {
    **{f"smashup:{k}": (v, EVERY_INPUT_HEADER) for k, v in SCENARIOS.items()},
    **{f"munchkin-cthulhu:{k}": (v, CTHULHU_HEADER) for k, v in CTHULHU_SCENARIOS.items()},
}


def test_every_handler_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(HANDLERS)
    assert set(CTHULHU_SCENARIOS) == set(INPUTS)


def _replayed(
    tmp_path: Path, lines: list[dict[str, Any]], header: dict[str, Any]
) -> dict[str, Any]:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(tape(*lines, header=header)) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_input_through_companion_replay(kind: str, tmp_path: Path) -> None:
    scenario, header = CASES[kind]
    before = _replayed(tmp_path, [*scenario.before, *scenario.after], header)
    assert not scenario.check(before), "the scenario shows the input's effect without it"
    after = _replayed(tmp_path, [*scenario.before, scenario.line, *scenario.after], header)
    assert scenario.check(after), kind


@contextmanager
def _client(catalogue: Catalogue, header: dict[str, Any]) -> Iterator[FlaskClient]:
    store = EventStore.memory()
    table = TableService(
        LiveGame.start(store, header, catalogue),
        {z: "mock:" for z in header["zones"]},
        clock=time.monotonic,
    )
    table.start()
    try:
        yield create_app(service=table, token=TOKEN).test_client()
    finally:
        table.stop()
        store.close()


def _post(client: FlaskClient, line: dict[str, Any]) -> None:
    version = _state(client)["version"]
    answer = client.post("/api/input", json={"line": line, "version": version}, headers=AUTH)
    assert answer.status_code == 200, (line, answer.get_json())


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_input_through_the_api(kind: str, catalogue: Catalogue) -> None:
    scenario, header = CASES[kind]
    with _client(catalogue, header) as client:
        for line in [*scenario.before, scenario.line, *scenario.after]:
            _post(client, line)
        assert scenario.check(_state(client)["state"]), kind


def _state(client: FlaskClient) -> dict[str, Any]:
    return client.get("/api/state", headers=AUTH).get_json()  # type: ignore[no-any-return]


def test_declare_takes_the_documented_boolean_and_the_contracts_string(
    catalogue: Catalogue, tmp_path: Path
) -> None:
    """README: `declare` (`tag`, `effect`, `on`); the contract's first types said `"on"` is a
    string, so `"true"`/`"false"` are kept; anything else is refused naming the field."""
    before = SCENARIOS["declare"].before
    for on in (True, "true"):
        line = {"input": "declare", "tag": "TC", "effect": 0, "on": on}
        document = _replayed(tmp_path, [*before, line], EVERY_INPUT_HEADER)
        assert document["declared"] == [{"tag": "TC", "effect": 0}]
    off = {"input": "declare", "tag": "TC", "effect": 0, "on": "false"}
    on = {"input": "declare", "tag": "TC", "effect": 0, "on": True}
    assert _replayed(tmp_path, [*before, on, off], EVERY_INPUT_HEADER)["declared"] == []
    with _client(catalogue, EVERY_INPUT_HEADER) as client:
        for line in before:
            _post(client, line)
        bad = {"input": "declare", "tag": "TC", "effect": 0, "on": 5}
        answer = client.post(
            "/api/input", json={"line": bad, "version": _state(client)["version"]}, headers=AUTH
        )
        assert answer.status_code == 400
        assert '"on" must be a string or true or false' in answer.get_json()["error"]
