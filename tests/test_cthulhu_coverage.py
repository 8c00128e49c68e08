"""``companion cards coverage`` reports Munchkin Cthulhu in the same table as the Smash Up
sets, with 0 unknown texts, and each category behaves as claimed (issue 25, part 4)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.main import main
from companion.cthulhu import coverage as mc
from companion.rules.coverage import CATEGORIES, LABELS
from tests.cthulhu_tapes import HEADER, SET, doc, player, run, tap

CARDS = load_catalogue().cthulhu
FOUND = {c.card.id: c for c in mc.coverage(CARDS)}


def test_the_table_counts_every_category_from_the_catalogue() -> None:
    """Each count printed is the number of catalogue cards in that category; every card that
    changes a number is counted, the others are named as changing none."""
    result = CliRunner().invoke(main, ["cards", "coverage", "--no-reasons"])
    assert result.exit_code == 0, result.output
    block = result.output.split("Munchkin Cthulhu (munchkin-cthulhu): ")[1]
    assert block.startswith(f"{len(FOUND)} of {len(CARDS)} cards touch")
    for category in CATEGORIES:
        expected = sum(1 for c in FOUND.values() if c.category == category)
        assert re.search(rf"{re.escape(LABELS[category])}\s+{expected}\b", block), category
    assert sum(1 for c in FOUND.values() if c.category == "unknown") == 0
    assert set(FOUND) | set(mc.NO_NUMBER) == {card.id for card in CARDS}
    assert not set(FOUND) & set(mc.NO_NUMBER)


def test_the_category_tables_are_disjoint_and_name_real_cards() -> None:
    tables = [mc.AFTER_INPUT, mc.PARTLY, mc.BY_HAND, mc.NO_NUMBER, mc.HAND_ONLY]
    for index, table in enumerate(tables):
        assert set(table) <= {card.id for card in CARDS}
        for other in tables[index + 1 :]:
            assert not set(table) & set(other)
    assert all(c.reason for c in FOUND.values() if c.category != "computed")
    assert not [c for c in FOUND.values() if c.reason == "its words are not computed"]


MORE_HEADER: dict[str, Any] = {
    **HEADER,
    "tags": {**HEADER["tags"], **{f"X{n}": card.id for n, card in enumerate(CARDS)}},
}
TAG = {card.id: f"X{n}" for n, card in enumerate(CARDS)}


def _doc(catalogue: Catalogue, *lines: dict[str, Any]) -> dict[str, Any]:
    return doc(catalogue, *lines, header=MORE_HEADER)


def _computed(kind: str) -> list[str]:
    return sorted(i for i, c in FOUND.items() if c.category == "computed" and CARDS[i].kind == kind)


@pytest.mark.parametrize("card_id", [i for i in _computed("item") if CARDS[i].bonus])
def test_each_computed_item_adds_its_bonus(catalogue: Catalogue, card_id: str) -> None:
    """An item in use adds its bonus ("Each Item card has ... a power"), for a player of the
    class it may need."""
    card = CARDS[card_id]
    lines = [tap("PRO", "seat-1")] if "Professor" in card.only_for else []
    if card.only_for and "Professor" not in card.only_for:
        named = {"Investigator": "INV", "Monster Whacker": "MW", "Cultist": "CU1"}
        lines = [tap(named[card.only_for[0]], "seat-1")]
    before = player(_doc(catalogue, *lines), "Margot")["strength"]
    after = player(_doc(catalogue, *lines, tap(TAG[card_id], "seat-1")), "Margot")["strength"]
    assert after - before == card.bonus


@pytest.mark.parametrize("card_id", _computed("monster"))
def test_each_computed_monster_fights_at_its_level_and_printed_modifiers(
    catalogue: Catalogue, card_id: str
) -> None:
    """A monster's combat strength is its Level plus what it says against the fighter (here a
    classless Level 1 female) and the words the rules compute; its parts add up."""
    card = CARDS[card_id]
    fight = _doc(catalogue, tap(TAG[card_id], "combat"))["combat"]
    expected = (card.level or 0) + sum(m.amount for m in card.modifiers if m.vs_sex == "female")
    expected += 4 if card_id == f"{SET}/great-cthulhu" else 0  # a non-Cultist fights him
    expected += 4 if card_id == f"{SET}/nyukhees" else 0  # everyone is at Level 1
    assert fight["monsters_strength"] == expected
    assert sum(p["amount"] for p in fight["monsters_side"]) == expected


@pytest.mark.parametrize("card_id", _computed("monster enhancer"))
def test_each_computed_enhancer_changes_its_monster(catalogue: Catalogue, card_id: str) -> None:
    """ "Monster enhancers ... raise or lower the combat strength of individual monsters"."""
    lines = [tap("GEEK", "combat"), tap(TAG[card_id], "combat")]
    fight = _doc(catalogue, *lines)["combat"]
    assert fight["monsters"][0]["strength"] == 2 + (CARDS[card_id].modifier or 0)


@pytest.mark.parametrize(
    "card_id",
    sorted(
        i
        for i, c in FOUND.items()
        if CARDS[i].kind in ("curse", "other") and c.category == "computed"
    ),
)
def test_each_computed_card_on_a_player_is_applied(catalogue: Catalogue, card_id: str) -> None:
    """Cards played on a player (or into the fight) are applied, never left as a note to do by
    hand."""
    ready = [tap("CU1", "seat-1"), tap("CU2", "seat-2"), tap("TESLA", "seat-1")]
    place = "combat" if card_id.split("/")[1].startswith(("the-stars", "wandering")) else "seat-1"
    fight = [tap("GO", "combat"), tap("BUGG", "combat")] if place == "combat" else []
    game = _run(catalogue, *ready, *fight)
    outcome = game.apply(tap(TAG[card_id], place))
    assert not any("resolve it by hand" in e.get("text", "") for e in outcome.events), card_id
    assert outcome.changed or any(e["event"] == "prompt" for e in outcome.events), card_id


def _run(catalogue: Catalogue, *lines: dict[str, Any]) -> Any:
    return run(catalogue, *lines, header=MORE_HEADER)


@pytest.mark.parametrize(
    "card_id",
    sorted(
        i
        for i, c in FOUND.items()
        if c.category == "after input" and CARDS[i].kind == "one-shot item" and CARDS[i].bonus
    ),
)
def test_each_one_shot_offers_the_other_side(catalogue: Catalogue, card_id: str) -> None:
    """One-shots "to whichever side you choose": the tablet offers the monster in one tap."""
    document = _doc(catalogue, tap("GO", "combat"), tap(TAG[card_id], "combat"))
    assert document["prompts"][-1]["kind"] == "choose-side"
    assert document["prompts"][-1]["options"][0]["line"]["side"] == "monsters"
