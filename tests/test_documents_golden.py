"""The bundled tapes replay to the state documents recorded in ``tests/documents/``.

These documents were recorded before the package was re-layered, so a refactoring that
changes any of them changed behaviour. A deliberate rules change re-records them with
``companion replay companion/tape/bundled/NAME.jsonl --json > tests/documents/NAME.json`` and
says why in its commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli.main import main
from companion.tape.examples import EXAMPLES

DOCUMENTS = Path(__file__).with_name("documents")
BUNDLED = Path(__file__).resolve().parent.parent / "companion" / "tape" / "bundled"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_bundled_tape_replays_to_its_recorded_document(name: str) -> None:
    result = CliRunner().invoke(main, ["replay", str(BUNDLED / f"{name}.jsonl"), "--json"])
    assert result.exit_code == 0, result.output
    recorded = json.loads((DOCUMENTS / f"{name}.json").read_text(encoding="utf-8"))
    assert json.loads(result.output) == recorded
