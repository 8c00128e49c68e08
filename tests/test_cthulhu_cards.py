"""The Munchkin Cthulhu catalogue: complete, validated, unknowns kept unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue
from companion.catalogue.cthulhu import parse_cthulhu
from companion.cli.main import main
from companion.errors import CatalogueError

SOURCE = Path(__file__).parents[2] / "shared/reference/cards/munchkin_cthulhu.json"
FILE = Path(__file__).parents[1] / "cards/munchkin-cthulhu.json"


def test_every_reference_card_is_in_the_catalogue(catalogue: Catalogue) -> None:
    cards = catalogue.cthulhu
    assert len(cards) == 149
    assert sum(c.copies or 0 for c in cards) == 167  # of 168: one card's copies are unknown
    kinds = {c.kind for c in cards}
    assert kinds == {
        "monster",
        "monster enhancer",
        "item",
        "one-shot item",
        "class",
        "curse",
        "go-up-a-level",
        "other",
    }
    assert {c.class_name for c in cards if c.kind == "class"} == {
        "Cultist",
        "Professor",
        "Investigator",
        "Monster Whacker",
    }
    assert cards["munchkin-cthulhu/cultist"].copies == 6
    if SOURCE.exists():  # the shared reference sits beside the repository
        names = {entry["name"] for entry in json.loads(SOURCE.read_text())}
        assert names == {c.name for c in cards}


def test_unknown_facts_stay_unknown_and_print_as_a_question_mark(catalogue: Catalogue) -> None:
    cowl = catalogue.cthulhu["munchkin-cthulhu/cowl-of-cthulhu"]
    assert (cowl.copies, cowl.bonus, cowl.slot, cowl.gold) == (None, None, None, None)
    result = CliRunner().invoke(main, ["cards", "list", "--set", "munchkin-cthulhu"])
    assert result.exit_code == 0
    line = next(row for row in result.output.splitlines() if "Cowl of Cthulhu" in row)
    assert "bonus ?, ?, ? gold" in line


def test_modifiers_are_parsed_or_kept_as_words(catalogue: Catalogue) -> None:
    cards = catalogue.cthulhu
    gnarly = cards["munchkin-cthulhu/gnarlythotep"].modifiers
    assert gnarly[0].amount == -2 and gnarly[0].vs_class == ("Professor", "Investigator")
    assert gnarly[1].text == "-4 if facing both a Professor and an Investigator"
    assert cards["munchkin-cthulhu/joggoth"].modifiers[0].run_away == -2
    assert cards["munchkin-cthulhu/chibithulhu"].modifiers[0].vs_sex == "female"
    elder = cards["munchkin-cthulhu/elder-sign"]
    assert elder.only_for == ("Investigator",) and elder.slot == "1 hand"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.update(kind="wizard"), "field 'kind' must be one of"),
        (lambda c: c.update(id="munchkin/elder-sign"), "must start with 'munchkin-cthulhu/'"),
        (lambda c: c.update(slot="tail"), "field 'slot' must be one of"),
        (lambda c: c.update(only_for=["Wizard"]), "'Wizard' is not a class"),
        (lambda c: c.update(bonus="three"), "field 'bonus' must be a int"),
    ],
)
def test_a_malformed_card_is_named(change, message: str) -> None:  # type: ignore[no-untyped-def]
    document = json.loads(FILE.read_text())
    elder = next(c for c in document["cards"] if c["name"] == "Elder Sign")
    change(elder)
    with pytest.raises(CatalogueError, match=message) as caught:
        parse_cthulhu(FILE, document)
    assert "Elder Sign" in str(caught.value) and FILE.name in str(caught.value)


def test_a_duplicate_id_is_refused() -> None:
    document = json.loads(FILE.read_text())
    document["cards"].append(document["cards"][0])
    with pytest.raises(CatalogueError, match="appears twice"):
        parse_cthulhu(FILE, document)
