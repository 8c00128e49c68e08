"""Where each effect in play comes from: the source card, its centre base, controller, bearer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.effect_terms import Condition, Count, Filter, Scope
from companion.catalogue.effects import Effect
from companion.rules.table import Attached, Base, Minion, Table


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


def sources(table: Table, catalogue: Catalogue) -> Iterator[Source]:
    """Every effect in play, base by base, then the temporary ones."""
    for base in table.bases:
        yield from base_sources(base, catalogue)
    if not table.temporaries:
        return
    zone_of = {minion.tag: base.zone for base, minion in table.minions()}
    for temporary in table.temporaries:
        card = catalogue[temporary.card]
        if temporary.effect >= len(card.effects):
            continue
        zone = temporary.zone
        if temporary.bearer is not None:
            if temporary.bearer not in zone_of:
                continue  # the chosen minion left play: its temporary boost went with it
            zone = zone_of[temporary.bearer]
        yield Source(
            card,
            temporary.effect,
            card.effects[temporary.effect],
            temporary.controller,
            zone,
            None,
            temporary.bearer,
        )


def base_sources(base: Base, catalogue: Catalogue) -> Iterator[Source]:
    """The effects of a base card and of every card on it (not the temporary ones)."""
    yield from _card_sources(catalogue[base.card], None, base.zone, base.tag, None)
    for minion in base.minions:
        yield from _card_sources(
            catalogue[minion.card], minion.controller, base.zone, minion.tag, None
        )
        for action in minion.attached:
            yield from _card_sources(
                catalogue[action.card], action.controller, base.zone, action.tag, minion.tag
            )
    for action in base.attached:
        yield from _card_sources(
            catalogue[action.card], action.controller, base.zone, action.tag, None
        )


def _card_sources(
    card: Card, controller: str | None, zone: str, tag: str | None, bearer: str | None
) -> Iterator[Source]:
    for index, effect in enumerate(card.effects):
        if getattr(effect, "duration", "ongoing") == "turn":
            continue  # a one-turn effect only acts through a Temporary
        yield Source(card, index, effect, controller, zone, tag, bearer)


def in_scope(
    table: Table, catalogue: Catalogue, source: Source, scope: Scope, flt: Filter
) -> list[Minion]:
    """The minions ``scope`` names relative to ``source``, narrowed by ``flt``."""
    chosen: list[Minion] = []
    for minion in _scope_minions(table, source, scope):
        if matches(table, catalogue, minion, flt):
            chosen.append(minion)
    return chosen


def _scope_minions(table: Table, source: Source, scope: Scope) -> Iterator[Minion]:
    base = table.base_at(source.zone) if source.zone is not None else None
    if scope is Scope.SELF:
        if base is not None and source.tag is not None:
            found = base.find(source.tag)
            if found is not None:
                yield found
        return
    if scope is Scope.BEARER:
        if base is not None and source.bearer is not None:
            found = base.find(source.bearer)
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
    if base is None:
        return
    yield from _here(base, source, scope)


def _here(base: Base, source: Source, scope: Scope) -> Iterator[Minion]:
    for minion in base.minions:
        mine = minion.controller is not None and minion.controller == source.controller
        is_source = minion.tag == source.tag
        if (
            scope is Scope.HERE
            or (scope is Scope.OTHER_HERE and not is_source)
            or (scope is Scope.MINE_HERE and mine)
            or (scope is Scope.OTHER_MINE_HERE and mine and not is_source)
            or (scope is Scope.OTHERS_HERE and not mine)
        ):
            yield minion


def matches(table: Table, catalogue: Catalogue, minion: Minion, flt: Filter) -> bool:
    card = catalogue[minion.card]
    if flt.cards is not None and card.id not in flt.cards:
        return False
    if flt.factions is not None and card.faction not in flt.factions:
        return False
    if flt.max_printed_power is not None and card.printed_power > flt.max_printed_power:
        return False
    if flt.min_printed_power is not None and card.printed_power < flt.min_printed_power:
        return False
    if flt.monster is not None and card.is_monster != flt.monster:
        return False
    if flt.undead is not None and bool(card.undead) != flt.undead:
        return False
    if flt.treasure is not None and card.is_treasure != flt.treasure:
        return False
    if flt.has_counters is not None and (minion.counters > 0) != flt.has_counters:
        return False
    if flt.controller is not None:
        current = minion.controller is not None and minion.controller == table.current_player
        if current != (flt.controller == "current"):
            return False
    return True


def count(table: Table, catalogue: Catalogue, source: Source, what: Count) -> int:
    """How many cards ``what`` counts (minions, attached actions for the *-actions scopes,
    buried cards for ``buried-here``)."""
    if what.scope is Scope.BURIED_HERE:
        centre = table.base_at(source.zone) if source.zone is not None else None
        return len(centre.buried) if centre is not None else 0
    if what.scope in (Scope.BEARER_ACTIONS, Scope.BASE_ACTIONS):
        attached: tuple[Attached, ...] = ()
        base = table.base_at(source.zone) if source.zone is not None else None
        if base is not None and what.scope is Scope.BASE_ACTIONS:
            attached = base.attached
        elif base is not None and source.bearer is not None:
            bearer = base.find(source.bearer)
            attached = bearer.attached if bearer is not None else ()
        return sum(1 for action in attached if _action_matches(catalogue, action.card, what.filter))
    return len(in_scope(table, catalogue, source, what.scope, what.filter))


def _action_matches(catalogue: Catalogue, card_id: str, flt: Filter) -> bool:
    card = catalogue[card_id]
    if flt.cards is not None and card_id not in flt.cards:
        return False
    if flt.factions is not None and card.faction not in flt.factions:
        return False
    return flt.treasure is None or card.is_treasure == flt.treasure


def active(table: Table, catalogue: Catalogue, source: Source, when: Condition | None) -> bool:
    """Whether ``when`` holds for ``source`` on this table."""
    if when is None:
        return True
    if when.declared and (source.tag or "", source.index) not in table.declared:
        return False
    if when.turn is not None:
        controllers = source.controller is not None and source.controller == table.current_player
        if controllers != (when.turn == "controller"):
            return False
    if when.count is not None:
        n = count(table, catalogue, source, when.count)
        if when.at_least is not None and n < when.at_least:
            return False
        if when.at_most is not None and n > when.at_most:
            return False
    return True


def multiplier(table: Table, catalogue: Catalogue, source: Source, per: Count | None) -> int:
    return 1 if per is None else count(table, catalogue, source, per)
