"""Prompts name cards and bases as people at the table do: never a tag id, never a zone id
where a base lies; two copies are told apart by where they are ("Cat Burglar on Bastion, 2nd")."""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.tracker.common import card_label, ordinal, place_name
from tests import tapes
from tests.tapes import inp, tap

HEADER = {
    **tapes.HEADER,
    "tags": {
        **tapes.TAGS,
        "BA": "munchkin/bastion",
        "C1": "munchkin/cat-burglar",
        "C2": "munchkin/cat-burglar",
        "C3": "munchkin/cat-burglar",
    },
}


def test_copies_are_told_apart_by_base_then_by_order_of_play(catalogue: Catalogue) -> None:
    game = tapes.run(
        catalogue,
        tap("BA", "base-1"),
        tap("B3", "base-2"),
        tap("C1", "base-1"),
        tap("MT", "base-2"),
        header=HEADER,
    )
    state = game.state
    assert card_label(state, catalogue, "C1") == "Cat Burglar"  # the only one in play
    assert card_label(state, catalogue, "C1", where=True) == "Cat Burglar on Bastion"
    game.apply(tap("C2", "base-2"))
    assert card_label(game.state, catalogue, "C1") == "Cat Burglar on Bastion"
    assert card_label(game.state, catalogue, "C2") == "Cat Burglar on The Central Brain"
    game.apply(tap("C3", "base-1"))
    assert [card_label(game.state, catalogue, t) for t in ("C1", "C3")] == [
        "Cat Burglar on Bastion, 1st",
        "Cat Burglar on Bastion, 2nd",
    ]
    assert place_name(game.state, catalogue, "base-2") == "The Central Brain"
    assert place_name(game.state, catalogue, "base-3") == "base zone 3"  # no base there: by name


def test_counter_prompts_name_the_minion_never_its_tag(catalogue: Catalogue) -> None:
    game = tapes.run(
        catalogue, tap("BA", "base-1"), tap("C1", "base-1"), tap("C2", "base-1"), header=HEADER
    )
    game.apply(inp("end-turn"))
    game.apply(tap("C3", "base-1"))
    labels = [o.label for p in game.state.prompts for o in p.options]
    assert labels and not any(tag in label for label in labels for tag in ("C1", "C2", "C3"))
    assert "Put 1 counter on Cat Burglar on Bastion, 3rd" in labels


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
    ]
