"""Power per minion and per player at each base, effective breakpoints and readiness."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.catalogue.cards import Catalogue
from companion.catalogue.effects import (
    BreakpointEffect,
    HookEffect,
    NoCountEffect,
    PlayerPowerEffect,
    PowerEffect,
)
from companion.rules import hooks
from companion.rules.sources import Source, active, in_scope, multiplier, sources
from companion.rules.table import Table


@dataclass
class Modifiers:
    """What the effects in play add up to, before the floors at 0 are applied."""

    minion: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    breakpoint: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    player: defaultdict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    not_counted: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class BaseView:
    """A base as the rules see it right now."""

    zone: str
    card: str
    printed_breakpoint: int
    breakpoint: int
    total: int
    #: counted power per player: every player with a minion there or power there
    power: Mapping[str, int]
    #: current power of every minion, monster and treasure there, by tag
    minion_power: Mapping[str, int]
    #: tags whose power does not count (toward breaking, winning, or the breakpoint)
    not_counted: frozenset[str]
    #: players who control at least one minion there
    present: frozenset[str]

    @property
    def ready(self) -> bool:
        return self.total >= self.breakpoint


@dataclass(frozen=True, slots=True)
class TableView:
    bases: tuple[BaseView, ...]

    def base(self, zone: str) -> BaseView:
        for view in self.bases:
            if view.zone == zone:
                return view
        raise KeyError(zone)

    def power_of(self, tag: str) -> int | None:
        for view in self.bases:
            if tag in view.minion_power:
                return view.minion_power[tag]
        return None


def collect(table: Table, catalogue: Catalogue) -> Modifiers:
    """Add up every power, breakpoint and counting effect in play."""
    mods = Modifiers()
    for source in sources(table, catalogue):
        apply_effect(table, catalogue, source, mods)
    return mods


def cancel_abilities(
    table: Table,
    catalogue: Catalogue,
    card_id: str,
    zone: str,
    tag: str | None,
    controller: str | None,
    mods: Modifiers,
) -> None:
    """Take back what one card's own ongoing effects add (its abilities are cancelled).
    One-turn effects already given are not taken back."""
    card = catalogue[card_id]
    cancelled = Modifiers()
    for index, effect in enumerate(card.effects):
        if getattr(effect, "duration", "ongoing") == "turn":
            continue
        apply_effect(
            table, catalogue, Source(card, index, effect, controller, zone, tag), cancelled
        )
    for minion_tag, amount in cancelled.minion.items():
        mods.minion[minion_tag] -= amount
    for base_zone, amount in cancelled.breakpoint.items():
        mods.breakpoint[base_zone] -= amount
    for key, amount in cancelled.player.items():
        mods.player[key] -= amount


def apply_effect(table: Table, catalogue: Catalogue, source: Source, mods: Modifiers) -> None:
    """Add what one effect in play gives to power, breakpoints and player power."""
    effect = source.effect
    if isinstance(effect, HookEffect):
        hooks.run(effect.name, table, catalogue, source, mods)
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


def evaluate(table: Table, catalogue: Catalogue) -> TableView:
    """Every base's powers, breakpoint and total, with every ongoing effect applied.

    Minion power is printed power plus counters plus modifiers, never below 0. A player's
    power at a base is the sum of the counted powers of the minions they control there
    (controlled monsters included) plus power not on a minion, never below 0. The breakpoint
    is the printed one plus the power of uncontrolled counted monsters plus modifiers, never
    below 0.
    """
    mods = collect(table, catalogue)
    views = []
    for base in table.bases:
        card = catalogue[base.card]
        minion_power: dict[str, int] = {}
        power: dict[str, int] = defaultdict(int)
        present: set[str] = set()
        monsters = 0
        for minion in base.minions:
            value = catalogue[minion.card].printed_power + minion.counters
            value = max(0, value + mods.minion.get(minion.tag, 0))
            minion_power[minion.tag] = value
            counted = minion.tag not in mods.not_counted
            if minion.controller is None:
                if counted and catalogue[minion.card].is_monster:
                    monsters += value
                continue
            present.add(minion.controller)
            power[minion.controller] += value if counted else 0
        for (zone, player), extra in mods.player.items():
            if zone == base.zone:
                power[player] += extra
        power = {player: max(0, value) for player, value in power.items()}
        printed = card.breakpoint or 0
        breakpoint = max(0, printed + monsters + mods.breakpoint.get(base.zone, 0))
        views.append(
            BaseView(
                zone=base.zone,
                card=base.card,
                printed_breakpoint=printed,
                breakpoint=breakpoint,
                total=sum(power.values()),
                power={p: power[p] for p in table.players if p in power},
                minion_power=minion_power,
                not_counted=frozenset(t for t in mods.not_counted if t in minion_power),
                present=frozenset(present),
            )
        )
    return TableView(tuple(views))
