"""Hooks for Oops, You Did It Again and Smash Up: Munchkin abilities the vocabulary cannot say.

* Priest of Anubis counts buried cards, which no scope reaches.
* Loot Lover and Gem Grabber count treasures attached to the minion itself: the
  ``bearer-actions`` count only reaches the bearer of an attached action.
* Curse of Imprisonment cancels its bearer's abilities: it takes back what the bearer's own
  power, breakpoint and player-power effects add.
"""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.rules.modifiers import Hooks, Modifiers, cancel_abilities
from companion.rules.sources import Source
from companion.rules.table import Minion, Table

CURSE_OF_IMPRISONMENT = "munchkin/curse-of-imprisonment"


def _self(table: Table, source: Source) -> Minion | None:
    base = table.base_at(source.zone) if source.zone is not None else None
    if base is None or source.tag is None:
        return None
    return base.find(source.tag)


def _treasures_on(catalogue: Catalogue, minion: Minion) -> int:
    return sum(1 for action in minion.attached if catalogue[action.card].is_treasure)


def priest_of_anubis(
    table: Table, catalogue: Catalogue, source: Source, mods: Modifiers, hooks: Hooks
) -> None:
    """+2 power while its controller has a buried card at its base."""
    base = table.base_at(source.zone) if source.zone is not None else None
    if base is None or source.tag is None or source.controller is None:
        return
    if any(buried.controller == source.controller for buried in base.buried):
        mods.minion[source.tag] += 2


def loot_lover(
    table: Table, catalogue: Catalogue, source: Source, mods: Modifiers, hooks: Hooks
) -> None:
    """+2 power for each treasure attached to it."""
    minion = _self(table, source)
    if minion is not None:
        mods.minion[minion.tag] += 2 * _treasures_on(catalogue, minion)


def gem_grabber(
    table: Table, catalogue: Catalogue, source: Source, mods: Modifiers, hooks: Hooks
) -> None:
    """+2 power while at least one treasure is attached to it."""
    minion = _self(table, source)
    if minion is not None and _treasures_on(catalogue, minion) > 0:
        mods.minion[minion.tag] += 2


def curse_of_imprisonment(
    table: Table, catalogue: Catalogue, source: Source, mods: Modifiers, hooks: Hooks
) -> None:
    """The bearer loses its abilities: subtract what its own ongoing power, breakpoint,
    player-power and hook effects add. A second Curse on the same minion does nothing more."""
    base = table.base_at(source.zone) if source.zone is not None else None
    if base is None or source.bearer is None:
        return
    bearer = base.find(source.bearer)
    if bearer is None:
        return
    curses = [a.tag for a in bearer.attached if a.card == CURSE_OF_IMPRISONMENT]
    if curses and curses[0] != source.tag:
        return
    cancel_abilities(
        table, catalogue, bearer.card, base.zone, bearer.tag, bearer.controller, mods, hooks
    )


HOOKS: Hooks = {
    "oops-munchkin/priest-of-anubis": priest_of_anubis,
    "oops-munchkin/loot-lover": loot_lover,
    "oops-munchkin/gem-grabber": gem_grabber,
    "oops-munchkin/curse-of-imprisonment": curse_of_imprisonment,
}
