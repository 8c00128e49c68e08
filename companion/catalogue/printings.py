"""Printings: which text of a card the table plays with.

The catalogue holds each card as printed with its published errata (``errata``, the default).
A card may also carry other printings (``first``: as first printed, before errata; ``current``:
as printed today, e.g. Smash Up: Munchkin's revised bases). Game setup chooses one printing per
set; the tape header records the choice (``"printings": {"munchkin": "current"}``) and the game
is played with :func:`printed`, the catalogue as that table's cards say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.catalogue.cards import PRINTINGS, Card, Catalogue
from companion.errors import CatalogueError

DEFAULT = "errata"

_CACHE: dict[tuple[int, frozenset[tuple[str, str]]], tuple[Catalogue, Catalogue]] = {}


def offered(catalogue: Catalogue) -> dict[str, tuple[str, ...]]:
    """The printings each Smash Up set offers, the default first."""
    catalogue = catalogue.unprinted or catalogue
    names: dict[str, set[str]] = {set_id: set() for set_id in catalogue.sets}
    for card in catalogue:
        names.setdefault(card.set, set()).update(name for name, _ in card.printings)
    return {
        set_id: (DEFAULT, *(name for name in PRINTINGS if name in found))
        for set_id, found in names.items()
    }


def check(catalogue: Catalogue, choice: Mapping[str, str]) -> None:
    """:raises CatalogueError: a set or printing the catalogue does not offer."""
    sets = offered(catalogue)
    for set_id, name in choice.items():
        if set_id not in sets:
            raise CatalogueError(f"unknown set {set_id!r}; sets: {', '.join(sets)}")
        if name not in sets[set_id]:
            raise CatalogueError(
                f"set {set_id} has no printing {name!r}; it offers {', '.join(sets[set_id])}"
            )


def printing_of(card: Card, name: str) -> Card:
    """The card as printed in ``name`` (itself if that printing did not change it)."""
    return dict(card.printings).get(name, card)


def printed(catalogue: Catalogue, choice: Mapping[str, str]) -> Catalogue:
    """The catalogue with each set's cards as ``choice`` prints them (cached). A printed
    catalogue remembers the one it came from, so printing it again starts from there."""
    catalogue = catalogue.unprinted or catalogue
    wanted = frozenset((s, n) for s, n in choice.items() if n != DEFAULT)
    if not wanted:
        return catalogue
    key = (id(catalogue), wanted)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is catalogue:
        return cached[1]
    check(catalogue, choice)
    names = dict(wanted)
    cards = {
        card_id: printing_of(card, names[card.set]) if card.set in names else card
        for card_id, card in catalogue.cards.items()
    }
    by_faction: dict[str, list[Card]] = {}
    for card in cards.values():
        if card.faction is not None:
            by_faction.setdefault(card.faction, []).append(card)
    result = replace(
        catalogue,
        cards=cards,
        _by_faction={key: tuple(value) for key, value in by_faction.items()},
        unprinted=catalogue,
    )
    _CACHE[key] = (catalogue, result)
    return result
