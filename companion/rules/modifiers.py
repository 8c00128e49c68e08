"""What the effects in play add up to, and how one effect adds to it.

Hooks (named computations for abilities the vocabulary cannot say) are looked up in the
registry passed in, so this module needs none of them: a hook that cancels another card's
abilities hands the same registry back to :func:`cancel_abilities`.
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


Hook = Callable[[Table, Catalogue, Source, Modifiers, "Hooks"], None]
"""A hook adds to the modifiers; it gets the registry to pass on to :func:`cancel_abilities`."""

Hooks = Mapping[str, Hook]


def cancel_abilities(
    table: Table,
    catalogue: Catalogue,
    card_id: str,
    zone: str,
    tag: str | None,
    controller: str | None,
    mods: Modifiers,
    hooks: Hooks,
) -> None:
    """Take back what one card's own ongoing effects add (its abilities are cancelled).
    One-turn effects already given are not taken back."""
    card = catalogue[card_id]
    cancelled = Modifiers()
    for index, effect in enumerate(card.effects):
        if getattr(effect, "duration", "ongoing") == "turn":
            continue
        source = Source(card, index, effect, controller, zone, tag)
        apply_effect(table, catalogue, source, cancelled, hooks)
    for minion_tag, amount in cancelled.minion.items():
        mods.minion[minion_tag] -= amount
    for base_zone, amount in cancelled.breakpoint.items():
        mods.breakpoint[base_zone] -= amount
    for key, amount in cancelled.player.items():
        mods.player[key] -= amount


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
    amount = effect.amount * multiplier(table, catalogue, source, effect.per)
    if isinstance(effect, PowerEffect):
        for minion in in_scope(table, catalogue, source, effect.scope, effect.filter):
            mods.minion[minion.tag] += amount
    elif isinstance(effect, BreakpointEffect):
        if source.zone is not None:
            mods.breakpoint[source.zone] += amount
    elif source.zone is not None and source.controller is not None:
        mods.player[(source.zone, source.controller)] += amount
