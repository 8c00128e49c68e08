"""Where each effect in play comes from (the source card, its centre base, controller,
bearer) and which minions a scope names relative to it. Nothing here reads whether an ability
is cancelled (:mod:`companion.rules.abilities` does, built on this)."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.effect_terms import Filter, Scope
from companion.catalogue.effects import (
    BreakpointEffect,
    Effect,
    PlayerPowerEffect,
    PowerEffect,
    one_turn,
)
from companion.rules.table import Base, Minion, Table
from companion.rules.values import revise


@dataclass(frozen=True, slots=True)
class Source:
    """One effect of one card in play (or of a temporary effect)."""

    card: Card
    index: int
    effect: Effect
    controller: str | None
    zone: str | None
    tag: str | None
    bearer: str | None = None


def card_sources(
    card: Card, controller: str | None, zone: str, tag: str | None, bearer: str | None
) -> Iterator[Source]:
    """The ongoing effects of one card in play (a one-turn effect acts through a Temporary)."""
    for index, effect in enumerate(card.effects):
        if not one_turn(effect):
            yield Source(card, index, effect, controller, zone, tag, bearer)


def all_base_sources(
    base: Base, catalogue: Catalogue, only: AbstractSet[str] | None = None
) -> Iterator[Source]:
    """The ongoing effects of a base card and of every card on it, cancelled or not (``only``:
    of the cards with these ids alone, in the same order)."""
    if only is None or base.card in only:
        yield from card_sources(catalogue[base.card], None, base.zone, base.tag, None)
    for minion in base.minions:
        if only is None or minion.card in only:
            yield from card_sources(
                catalogue[minion.card], minion.controller, base.zone, minion.tag, None
            )
        for action in minion.attached:
            if only is None or action.card in only:
                yield from card_sources(
                    catalogue[action.card], action.controller, base.zone, action.tag, minion.tag
                )
    for action in base.attached:
        if only is None or action.card in only:
            yield from card_sources(
                catalogue[action.card], action.controller, base.zone, action.tag, None
            )


def temporary_sources(table: Table, catalogue: Catalogue) -> Iterator[Source]:
    """The one-turn effects that resolved and still last."""
    if not table.temporaries:
        return
    # where each bearer stands (a long night's bases hold many minions: no pair built for
    # each of them on every scan)
    bearers = {t.bearer for t in table.temporaries if t.bearer is not None}
    zone_of = (
        {m.tag: b.zone for b in table.bases for m in b.minions if m.tag in bearers}
        if bearers
        else {}
    )
    for temporary in table.temporaries:
        card = catalogue[temporary.card]
        if temporary.effect >= len(card.effects):
            continue
        zone = temporary.zone
        if temporary.bearer is not None:
            if temporary.bearer not in zone_of:
                continue  # the minion left play: its temporary boost went with it
            zone = zone_of[temporary.bearer]
        effect = _as_resolved(card.effects[temporary.effect], temporary.amount)
        yield Source(
            card, temporary.effect, effect, temporary.controller, zone, None, temporary.bearer
        )


@lru_cache(maxsize=1024)  # a few effects and amounts, read again on every power scan
def _as_resolved(effect: Effect, amount: int | None) -> Effect:
    """A power effect bound to one minion when it resolved gives that minion the amount it
    resolved to, wherever the minion goes (its scope, filter and count were read then); a
    breakpoint or player-power effect gives the amount it resolved to."""
    if amount is None:
        return effect
    if isinstance(effect, PowerEffect):
        return revise(effect, scope=Scope.BEARER, filter=Filter(), per=None, amount=amount)
    if isinstance(effect, BreakpointEffect | PlayerPowerEffect):
        return revise(effect, per=None, amount=amount)
    return effect


def scope_minions(table: Table, source: Source, scope: Scope) -> Iterator[Minion]:
    """The minions ``scope`` names relative to ``source`` (before any filter)."""
    base = table.base_at(source.zone) if source.zone is not None else None
    if scope in (Scope.SELF, Scope.BEARER, Scope.PLAYED):
        wanted = source.tag if scope is Scope.SELF else source.bearer
        found = base.find(wanted) if base is not None and wanted is not None else None
        if found is not None:
            yield found
        return
    if scope in (Scope.MINE, Scope.OTHER_MINE, Scope.ALL):
        for _, minion in table.minions():
            if scope is Scope.ALL or (
                minion.controller is not None
                and minion.controller == source.controller
                and (scope is Scope.MINE or minion.tag != source.tag)
            ):
                yield minion
        return
    if base is not None:
        yield from _here(base, source, scope)


def _here(base: Base, source: Source, scope: Scope) -> Iterator[Minion]:
    for minion in base.minions:
        controlled = minion.controller is not None
        mine = controlled and minion.controller == source.controller
        is_source = minion.tag == source.tag
        if (
            scope is Scope.HERE
            or (scope is Scope.OTHER_HERE and not is_source)
            or (scope is Scope.MINE_HERE and mine)
            or (scope is Scope.OTHER_MINE_HERE and mine and not is_source)
            # another player's minions: a monster is nobody's until someone controls it,
            # and then it is that player's minion like any other
            or (scope is Scope.OTHERS_HERE and controlled and not mine)
        ):
            yield minion
