"""Why a minion has the power it has: its printed power, its counters and each effect in play
that changes it, card by card (what the tablet shows when someone taps the card)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.catalogue.cards import Catalogue
from companion.rules.hooks import HOOKS
from companion.rules.modifiers import Modifiers, apply_effect
from companion.rules.power import evaluate
from companion.rules.sources import sources
from companion.rules.table import Table


@dataclass(frozen=True, slots=True)
class Reason:
    """``amount`` power from an effect of ``card`` (a card id)."""

    card: str
    amount: int


@dataclass(frozen=True, slots=True)
class PowerReasons:
    tag: str
    card: str
    printed: int
    counters: int
    reasons: tuple[Reason, ...]
    #: the power counted now: the sum of the above, never below 0
    power: int


def power_reasons(table: Table, catalogue: Catalogue, tag: str) -> PowerReasons | None:
    """The parts of the power of the minion with ``tag`` (None if no minion has it): each
    effect's share, found by applying that effect alone."""
    found = table.locate(tag)
    if found is None:
        return None
    _, minion = found
    shares: dict[str, int] = {}
    for source in sources(table, catalogue):
        alone = Modifiers()
        apply_effect(table, catalogue, source, alone, HOOKS)
        amount = alone.minion.get(tag, 0)
        if amount:
            shares[source.card.id] = shares.get(source.card.id, 0) + amount
    reasons = tuple(Reason(card, amount) for card, amount in shares.items() if amount)
    return PowerReasons(
        tag=tag,
        card=minion.card,
        printed=catalogue[minion.card].power or 0,
        counters=minion.counters,
        reasons=reasons,
        power=evaluate(table, catalogue).power_of(tag) or 0,
    )
