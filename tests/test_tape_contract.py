"""The tape contract lives in the repository (companion/tape/CONTRACT.md) and names everything
the code accepts and prints: a new input, line field or state-document key cannot ship
undocumented."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_type_hints

import pytest

from companion.cthulhu.inputs import INPUTS as CTHULHU_INPUTS
from companion.tape.documents import CthulhuDocument, Event, Line, StateDocument
from companion.tracker.corrections import TAP_MOVED
from companion.tracker.inputs import HANDLERS

CONTRACT = Path(__file__).parents[1] / "companion/tape/CONTRACT.md"
TEXT = CONTRACT.read_text(encoding="utf-8")


def _table_rows(section: str) -> set[str]:
    """The first column's code names of every table row in the section titled ``section``."""
    start = TEXT.index(section)
    end = TEXT.find("\n## ", start + len(section))
    body = TEXT[start : end if end != -1 else None]
    names: set[str] = set()
    for row in re.findall(r"^\| ([^|]+) \|", body, flags=re.M):
        names.update(re.findall(r"`([a-z_-]+)`", row))
    return names


@pytest.mark.parametrize("name", sorted(HANDLERS))
def test_every_smash_up_input_is_in_the_contract(name: str) -> None:
    assert name in _table_rows("### Smash Up: inputs"), f"document input {name!r}"


@pytest.mark.parametrize("name", ["undo", "answer", TAP_MOVED])
def test_the_inputs_of_both_games_are_in_the_contract(name: str) -> None:
    assert f'{{"input": "{name}"' in TEXT, f"document input {name!r}"


@pytest.mark.parametrize("name", sorted(CTHULHU_INPUTS))
def test_every_munchkin_cthulhu_input_is_in_the_contract(name: str) -> None:
    documented = _table_rows("### Munchkin Cthulhu (") | {"undo", "answer"}
    assert name in documented, f"document input {name!r}"


@pytest.mark.parametrize("field", sorted(get_type_hints(Line)))
def test_every_line_field_has_a_type_in_the_contract(field: str) -> None:
    assert field in _table_rows("### Field types and bounds"), f"document field {field!r}"


@pytest.mark.parametrize(
    ("document", "section"),
    [(StateDocument, "### Smash Up\n"), (CthulhuDocument, "### Munchkin Cthulhu\n")],
)
def test_every_state_document_key_is_in_the_contract(document: type, section: str) -> None:
    documented = _table_rows(section)
    missing = sorted(set(get_type_hints(document)) - documented)
    assert not missing, f"document these keys of the state document: {missing}"


def test_nothing_cites_the_old_contract_outside_the_repository() -> None:
    root = Path(__file__).parents[1]
    citing = [
        str(path.relative_to(root))
        for folder in ("companion", "cards", "tests", "bench", "firmware", "hardware", "web")
        for path in (root / folder).rglob("*")
        if path.suffix in {".py", ".md"}
        and path.name != Path(__file__).name
        and "spec/tape-v1" in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert "spec/tape-v1" not in (root / "README.md").read_text(encoding="utf-8")
    assert not citing


@pytest.mark.parametrize("key", sorted(get_type_hints(Event)))
def test_every_event_key_is_in_the_contract(key: str) -> None:
    assert key in _table_rows("## Events"), f"document event key {key!r}"
