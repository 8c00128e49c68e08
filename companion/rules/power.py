"""Power per minion and per player at each base, effective breakpoints and readiness."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from companion.catalogue.cards import Catalogue
from companion.rules.hooks import HOOKS
from companion.rules.modifiers import Modifiers
from companion.rules.modifiers import apply_effect as apply_effect
from companion.rules.modifiers import cancel_abilities as cancel_abilities
from companion.rules.sources import sources
from companion.rules.table import Table


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
        apply_effect(table, catalogue, source, mods, HOOKS)
    return mods


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
