"""Hooks for the core set and Monster Smash: abilities the vocabulary cannot say.

* Jammed Signal makes every player ignore its base's ability: it takes back what the base's
  own ongoing power, breakpoint, player-power and hook effects add (The Central Brain's +1).
  Scoring and VP abilities act outside the modifiers and are ignored by hand (see the card's
  ``manual``).
"""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.rules.modifiers import Hooks, Modifiers, cancel_abilities
from companion.rules.sources import Source
from companion.rules.table import Table

JAMMED_SIGNAL = "core/jammed-signal"


def jammed_signal(
    table: Table, catalogue: Catalogue, source: Source, mods: Modifiers, hooks: Hooks
) -> None:
    """Cancel the ongoing power and breakpoint effects of the base it is attached to. A second
    Jammed Signal on the same base cancels nothing more."""
    base = table.base_at(source.zone) if source.zone is not None else None
    if base is None:
        return
    signals = [action.tag for action in base.attached if action.card == JAMMED_SIGNAL]
    if signals and signals[0] != source.tag:
        return
    cancel_abilities(table, catalogue, base.card, base.zone, base.tag, None, mods, hooks)


HOOKS: Hooks = {
    "core-sets/jammed-signal": jammed_signal,
}
