"""Every card whose ability changes power, breakpoints, VP or treasures is encoded, or says
why people resolve it by hand; every encoded hook exists."""

from __future__ import annotations

import pytest

from companion.catalogue.cards import Card, Catalogue, load_catalogue
from companion.catalogue.effects import HookEffect
from companion.rules.hooks import HOOKS

#: keywords the reference data gives cards whose abilities touch what the engine computes
COMPUTED_KEYWORDS = {"power boost", "power reduction", "breakpoint", "VP"}


def _touching(catalogue: Catalogue) -> list[Card]:
    return [
        card
        for card in catalogue
        if card.set != "munchkin-cthulhu" and COMPUTED_KEYWORDS & set(card.keywords)
    ]


@pytest.mark.parametrize("card", _touching(load_catalogue()), ids=lambda card: card.id)
def test_card_is_encoded_or_explained(card: Card) -> None:
    assert card.effects or card.manual, (
        f"{card.id} ({card.text}) changes power, breakpoints or VP: encode it in 'effects' "
        "or say in 'manual' why people resolve it"
    )


def test_every_hook_named_by_a_card_exists(catalogue: Catalogue) -> None:
    hooks = HOOKS
    missing = [
        (card.id, effect.name)
        for card in catalogue
        for effect in card.effects
        if isinstance(effect, HookEffect) and effect.name not in hooks
    ]
    assert missing == []


def test_munchkin_monsters_and_treasures_that_change_power_are_encoded(
    catalogue: Catalogue,
) -> None:
    for card_id in (
        "munchkin/bigfoot",
        "munchkin/knight-of-the-living-dead",
        "munchkin/poultrygeist",
        "munchkin/chainsaw-of-bloody-dismemberment",
        "munchkin/kneepads-of-allure",
        "munchkin/chest-of-holding",
        "munchkin/boots-of-butt-kicking",
    ):
        assert catalogue[card_id].effects, card_id
