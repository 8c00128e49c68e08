"""The catalogue: ids per the tape contract, set totals, and errors that name file, card, field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue, build_catalogue, default_cards_dir, slug
from companion.cli.main import main
from companion.errors import CatalogueError


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Helper's Hollow", "helpers-hollow"),
        ("Whack-A-Ghoul", "whack-a-ghoul"),
        ("It's Alive!", "its-alive"),
        ("Thieves\u2019 Guild", "thieves-guild"),
        ("Tooth and Claw... and Guns", "tooth-and-claw-and-guns"),
        ("Golem Schloß", "golem-schlo"),
    ],
)
def test_slug_follows_the_contract(name: str, expected: str) -> None:
    assert slug(name) == expected


def test_set_totals(catalogue: Catalogue) -> None:
    def totals(set_id: str) -> tuple[int, int]:
        cards = catalogue.select(set_id=set_id)
        return len(cards), sum(c.copies for c in cards)

    assert totals("munchkin") == (142, 218)
    assert totals("core") == (110, 176)
    assert totals("monster-smash") == (56, 88)
    assert totals("oops") == (56, 88)
    munchkin = catalogue.select(set_id="munchkin")
    assert sum(c.copies for c in munchkin if c.type == "monster") == 20
    assert sum(c.copies for c in munchkin if c.type == "treasure") == 22
    assert sum(c.copies for c in munchkin if c.type == "base") == 16


def test_every_faction_has_twenty_cards_and_its_two_bases(catalogue: Catalogue) -> None:
    assert len(catalogue.factions) == 24
    for faction in catalogue.factions.values():
        assert (
            sum(
                c.copies
                for c in catalogue.faction_cards(faction.id)
                if c.type in ("minion", "action")
            )
            == 20
        )
        assert len(faction.bases) == 2
        assert all(catalogue[b].type == "base" for b in faction.bases)


def test_known_facts(catalogue: Catalogue) -> None:
    treehouse = catalogue["munchkin/treehouse"]
    assert (treehouse.breakpoint, treehouse.vp, treehouse.monster_number) == (15, (4, 2, 1), 2)
    hippogriff = catalogue["munchkin/hippogriff"]
    assert (hippogriff.power, hippogriff.treasures, hippogriff.copies) == (3, 1, 3)
    assert catalogue["munchkin/topper-chopper"].power == 5


def test_unknown_facts_stay_unknown(catalogue: Catalogue) -> None:
    assert catalogue["munchkin/wishing-ring"].text is None
    result = CliRunner().invoke(main, ["cards", "show", "munchkin/wishing-ring"])
    assert "? (text not confirmed" in result.output


def _documents() -> list[tuple[Path, Any]]:
    return [(p, json.loads(p.read_text())) for p in sorted(default_cards_dir().glob("*.json"))]


def _break(change: Any) -> str:
    documents = copy.deepcopy(_documents())
    change(dict(documents))
    with pytest.raises(CatalogueError) as raised:
        build_catalogue(documents)
    return str(raised.value)


def _munchkin(documents: dict[Path, Any]) -> dict[str, Any]:
    return next(d for p, d in documents.items() if p.name == "munchkin.json")


def test_duplicate_id_is_named() -> None:
    def change(documents: dict[Path, Any]) -> None:
        cards = _munchkin(documents)["cards"]
        cards.append(copy.deepcopy(cards[0]))

    assert "munchkin.json: card munchkin/cardinal: field 'id' is not unique" in _break(change)


def test_wrong_faction_size_is_named() -> None:
    def change(documents: dict[Path, Any]) -> None:
        _munchkin(documents)["cards"][0]["copies"] = 2

    message = _break(change)
    assert "munchkin.json: faction munchkin/clerics: has 21 cards" in message


def test_missing_treasure_breaks_the_munchkin_total() -> None:
    def change(documents: dict[Path, Any]) -> None:
        cards = _munchkin(documents)["cards"]
        cards.remove(next(c for c in cards if c["type"] == "treasure"))

    assert "has 21 treasure cards, the box has 22" in _break(change)


def test_missing_base_is_named() -> None:
    def change(documents: dict[Path, Any]) -> None:
        cards = _munchkin(documents)["cards"]
        cards.remove(next(c for c in cards if c["id"] == "munchkin/treehouse"))

    assert "faction munchkin/elves: base munchkin/treehouse is missing" in _break(change)


def test_bad_field_is_named() -> None:
    def change(documents: dict[Path, Any]) -> None:
        next(c for c in _munchkin(documents)["cards"] if c["id"] == "munchkin/hippogriff")[
            "power"
        ] = "three"

    assert "munchkin.json: card munchkin/hippogriff: field 'power' must be int" in _break(change)


def test_id_must_match_the_name() -> None:
    def change(documents: dict[Path, Any]) -> None:
        _munchkin(documents)["cards"][0]["id"] = "munchkin/cardinal-2"

    assert "field 'id' must be munchkin/cardinal" in _break(change)


def test_malformed_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{oops")
    from companion.catalogue.cards import load_catalogue

    with pytest.raises(CatalogueError, match="broken.json: cannot read the file as JSON"):
        load_catalogue(tmp_path)


def test_cards_list_shows_all_munchkin_cards() -> None:
    result = CliRunner().invoke(main, ["cards", "list", "--set", "munchkin"])
    assert result.exit_code == 0
    assert "142 distinct cards, 218 physical cards" in result.output
    assert result.output.count("munchkin/") == 142


def test_cards_list_filters() -> None:
    runner = CliRunner()
    orcs = runner.invoke(main, ["cards", "list", "--faction", "Orcs", "--type", "minion"])
    assert orcs.exit_code == 0 and "munchkin/topper-chopper" in orcs.output
    assert "munchkin/dumbbells" not in orcs.output
    bases = runner.invoke(main, ["cards", "list", "--set", "core", "--type", "base"])
    assert "16 distinct cards" in bases.output


def test_cards_show_and_errors() -> None:
    runner = CliRunner()
    shown = runner.invoke(main, ["cards", "show", "munchkin/treehouse"])
    assert shown.exit_code == 0 and "breaks 15, VP 4/2/1, 2 monsters" in shown.output
    missing = runner.invoke(main, ["cards", "show", "treehous"])
    assert missing.exit_code != 0 and "munchkin/treehouse" in missing.output
    bad_set = runner.invoke(main, ["cards", "list", "--set", "nope"])
    assert bad_set.exit_code != 0 and "unknown set" in bad_set.output


def test_cards_show_finds_every_card_cards_list_lists() -> None:
    listed = CliRunner().invoke(main, ["cards", "list", "--set", "munchkin-cthulhu"])
    assert "munchkin-cthulhu/gram-smoker" in listed.output
    shown = CliRunner().invoke(main, ["cards", "show", "munchkin-cthulhu/gram-smoker"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[:4] == [
        "Gram Smoker (munchkin-cthulhu/gram-smoker)",
        "Munchkin Cthulhu monster, door deck, copies: 1",
        "Level 2, 1 treasure, +1 Level",  # real plurals
        "+3 against male",  # the reason her strength changes
    ]
    assert "Bad Stuff: drop one level." in shown.output
    guess = CliRunner().invoke(main, ["cards", "show", "gram"])
    assert "did you mean munchkin-cthulhu/gram-smoker?" in guess.output
