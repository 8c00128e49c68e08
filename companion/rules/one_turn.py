"""One-turn effects resolving: what they reach is fixed when they resolve.

"Every minion (currently) in play / here / of yours gets +N this turn" affects the minions
there at that moment: a minion played or moved in later gets nothing, and a boost given to a
minion stays with it when it moves (it is on the minion, not on the base). So a one-turn
power effect over a scope becomes one :class:`~companion.rules.table.Temporary` per minion
it reached, with the amount it gave that minion (its filter and count read once, then:
current power for Frenzy, counters for We Will Rock You). Effects on a base (breakpoints,
power not on a minion, cancelling what is at a base, or a card that says so: ``base-effect``)
stay with the base.
"""

from __future__ import annotations

from dataclasses import replace

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.effect_terms import Count, Scope
from companion.catalogue.effects import (
    BreakpointEffect,
    Effect,
    PlayerPowerEffect,
    PowerEffect,
    one_turn,
)
from companion.catalogue.status_effects import CancelEffect
from companion.rules.power import evaluate
from companion.rules.sources import Source, in_scope, multiplier
from companion.rules.table import Table, Temporary


def resolve(
    table: Table,
    catalogue: Catalogue,
    card: Card,
    index: int,
    controller: str | None,
    zone: str | None,
    *,
    tag: str | None = None,
    bearer: str | None = None,
) -> Table:
    """The one-turn effect ``index`` of ``card`` resolves now (its standard action was
    played at ``zone``, or its trigger happened to the card ``tag`` there; ``bearer``: the
    minion it is aimed at, chosen or just played)."""
    effect = card.effects[index]
    source = Source(card, index, effect, controller, zone, tag, bearer)
    when = getattr(effect, "when", None)
    if when is not None and when.ahead and not ahead(table, catalogue, source):
        return table
    expires = expiry(table, effect, controller)
    if binds_to_minions(effect):
        assert isinstance(effect, PowerEffect)
        return _bind(table, catalogue, source, effect, expires)
    place = Temporary(card.id, index, controller, expires, zone=zone, bearer=bearer)
    per = getattr(effect, "per", None)
    if isinstance(per, Count) and per.scope is Scope.BEARER_POWER:
        power = evaluate(table, catalogue).power_of(bearer) if bearer is not None else None
        place = replace(place, amount=getattr(effect, "amount", 0) * (power or 0))
    if on_base(effect):
        place = replace(place, bearer=None)
    elif bearer is not None:
        place = replace(place, zone=None)
    return replace(table, temporaries=(*table.temporaries, place))


def on_base(effect: Effect) -> bool:
    """Effects that stay with a base: breakpoints, power on no minion, cancelling at a base,
    and a power effect that says it is the base's."""
    if isinstance(effect, BreakpointEffect | PlayerPowerEffect):
        return True
    if isinstance(effect, CancelEffect):
        return effect.target != "bearer"
    return isinstance(effect, PowerEffect) and effect.base_effect


def aims_at_one_minion(effect: Effect) -> bool:
    """A one-turn effect whose minion is chosen in words (the tablet asks which): one that
    goes to its bearer, or that counts the power of the minion chosen (Rampage)."""
    per = getattr(effect, "per", None)
    return getattr(effect, "scope", None) is Scope.BEARER or (
        isinstance(per, Count) and per.scope is Scope.BEARER_POWER
    )


def binds_to_minions(effect: Effect) -> bool:
    """A one-turn power effect over a scope, not aimed at one chosen minion, not a base
    effect."""
    return (
        isinstance(effect, PowerEffect)
        and one_turn(effect)
        and not effect.base_effect
        and effect.scope is not Scope.BEARER
    )


def expiry(table: Table, effect: Effect, controller: str | None) -> int:
    """The last turn the effect lasts: this one, or (``next-turn``) the one before its
    controller's next turn begins."""
    if getattr(effect, "duration", "turn") != "next-turn" or controller is None:
        return table.turn
    seats = len(table.players)
    distance = (table.seat(controller) - table.current) % seats or seats
    return table.turn + distance - 1


def ahead(table: Table, catalogue: Catalogue, source: Source) -> bool:
    """The source's controller has more power at its base than every other player."""
    if source.zone is None or source.controller is None or table.base_at(source.zone) is None:
        return False
    power = evaluate(table, catalogue).base(source.zone).power
    mine = power.get(source.controller, 0)
    return all(mine > value for player, value in power.items() if player != source.controller)


def _bind(
    table: Table, catalogue: Catalogue, source: Source, effect: PowerEffect, expires: int
) -> Table:
    reached = in_scope(
        table, catalogue, source, effect.scope, replace(effect.filter, min_power=None)
    )
    if effect.filter.min_power is not None:
        view = evaluate(table, catalogue)
        reached = [m for m in reached if (view.power_of(m.tag) or 0) >= effect.filter.min_power]
    added = []
    for minion in reached:
        amount = effect.amount * multiplier(
            table, catalogue, replace(source, bearer=minion.tag), effect.per
        )
        added.append(
            Temporary(
                source.card.id,
                source.index,
                source.controller,
                expires,
                bearer=minion.tag,
                amount=amount,
            )
        )
    return replace(table, temporaries=(*table.temporaries, *added))


def bind_armed(
    table: Table, catalogue: Catalogue, tag: str, zone: str, controller: str | None
) -> Table:
    """A minion was played at ``zone`` by ``controller``: the cancels waiting for it (Last
    Call: the next one; Rude Awakening: each one this turn) reach it."""
    kept: list[Temporary] = []
    added: list[Temporary] = []
    for temporary in table.temporaries:
        effect = catalogue[temporary.card].effects[temporary.effect]
        waiting = (
            isinstance(effect, CancelEffect)
            and effect.target in ("next", "played-here")
            and temporary.bearer is None
            and temporary.zone == zone
            and controller is not None
            and temporary.controller == controller
        )
        if waiting:
            assert isinstance(effect, CancelEffect)
            added.append(replace(temporary, zone=None, bearer=tag))
            if effect.target == "next":
                continue
        kept.append(temporary)
    if not added:
        return table
    return replace(table, temporaries=(*kept, *added))
