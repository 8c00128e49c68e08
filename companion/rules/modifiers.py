"""What the effects in play add up to, and how one effect adds to it.

Hooks (named computations for abilities the vocabulary cannot say) are looked up in the
registry passed in, so this module needs none of them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from companion.catalogue.cards import Catalogue
from companion.catalogue.effects import (
    BreakpointEffect,
    HookEffect,
    NoCountEffect,
    PlayerPowerEffect,
    PowerEffect,
)
from companion.rules.sources import Source, active, in_scope, multiplier
from companion.rules.table import Table


@dataclass
class Modifiers:
    """What the effects in play add up to, before the floors at 0 are applied."""

    minion: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    breakpoint: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    player: defaultdict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    not_counted: set[str] = field(default_factory=set)
    #: printed breakpoints reset by an effect, by zone (the lowest reset wins)
    reset: dict[str, int] = field(default_factory=dict)


Hook = Callable[[Table, Catalogue, Source, Modifiers, "Hooks"], None]
"""A hook adds to the modifiers; it gets the registry to hand on to any hook it calls."""

Hooks = Mapping[str, Hook]


def apply_effect(
    table: Table, catalogue: Catalogue, source: Source, mods: Modifiers, hooks: Hooks
) -> None:
    """Add what one effect in play gives to power, breakpoints and player power."""
    effect = source.effect
    if isinstance(effect, HookEffect):
        hooks[effect.name](table, catalogue, source, mods, hooks)
        return
    if isinstance(effect, NoCountEffect):
        for minion in in_scope(table, catalogue, source, effect.scope, effect.filter):
            mods.not_counted.add(minion.tag)
        return
    if not isinstance(effect, PowerEffect | BreakpointEffect | PlayerPowerEffect):
        return  # scoring, treasure and VP effects act when a base scores or a card moves
    if not active(table, catalogue, source, effect.when):
        return
    if isinstance(effect, BreakpointEffect) and effect.reset is not None:
        if source.zone is not None:
            mods.reset[source.zone] = min(effect.reset, mods.reset.get(source.zone, effect.reset))
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
