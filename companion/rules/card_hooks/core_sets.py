"""Hooks for the core set and Monster Smash: abilities the vocabulary cannot say.

* Jammed Signal makes every player ignore its base's ability: it takes back what the base's
  own ongoing power, breakpoint, player-power and hook effects add (The Central Brain's +1).
  Scoring and VP abilities act outside the modifiers and are ignored by hand (see the card's
  ``manual``).
"""

from __future__ import annotations

from companion.cards import Catalogue
from companion.effects import BreakpointEffect, HookEffect, PlayerPowerEffect, PowerEffect
from companion.rules import hooks
from companion.rules.hooks import hook
from companion.rules.power import Modifiers
from companion.rules.sources import Source, active, in_scope, multiplier
from companion.table import Table

JAMMED_SIGNAL = "core/jammed-signal"


@hook("core-sets/jammed-signal")
def jammed_signal(table: Table, catalogue: Catalogue, source: Source, mods: Modifiers) -> None:
    """Cancel the ongoing power and breakpoint effects of the base it is attached to. A second
    Jammed Signal on the same base cancels nothing more."""
    base = table.base_at(source.zone) if source.zone is not None else None
    if base is None:
        return
    signals = [action.tag for action in base.attached if action.card == JAMMED_SIGNAL]
    if signals and signals[0] != source.tag:
        return
    card = catalogue[base.card]
    cancelled = Modifiers()
    for index, effect in enumerate(card.effects):
        if getattr(effect, "duration", "ongoing") == "turn":
            continue  # one-turn effects already given are not taken back
        own = Source(card, index, effect, None, base.zone, base.tag)
        _add(table, catalogue, own, cancelled)
    for tag, amount in cancelled.minion.items():
        mods.minion[tag] -= amount
    for zone, amount in cancelled.breakpoint.items():
        mods.breakpoint[zone] -= amount
    for key, amount in cancelled.player.items():
        mods.player[key] -= amount


def _add(table: Table, catalogue: Catalogue, source: Source, mods: Modifiers) -> None:
    """What one effect adds to power, breakpoints and player power (as the evaluator does)."""
    effect = source.effect
    if isinstance(effect, HookEffect):
        hooks.run(effect.name, table, catalogue, source, mods)
        return
    if not isinstance(effect, PowerEffect | BreakpointEffect | PlayerPowerEffect):
        return
    if not active(table, catalogue, source, effect.when):
        return
    amount = effect.amount * multiplier(table, catalogue, source, effect.per)
    if isinstance(effect, PowerEffect):
        for minion in in_scope(table, catalogue, source, effect.scope, effect.filter):
            mods.minion[minion.tag] += amount
    elif isinstance(effect, BreakpointEffect):
        if source.zone is not None:
            mods.breakpoint[source.zone] += amount
    elif source.zone is not None and source.controller is not None:
        mods.player[(source.zone, source.controller)] += amount
