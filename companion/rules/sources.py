"""The effects in play that act (cancelled abilities left out), the minions their scopes and
filters name, and their counts and conditions."""

from __future__ import annotations

from collections.abc import Iterator

from companion.catalogue.cards import Catalogue
from companion.catalogue.effect_terms import Condition, Count, Filter, Scope
from companion.rules.abilities import status
from companion.rules.scopes import Source as Source
from companion.rules.scopes import all_base_sources, scope_minions, temporary_sources
from companion.rules.table import Attached, Base, Minion, Table


def sources(table: Table, catalogue: Catalogue) -> Iterator[Source]:
    """Every effect in play that acts, base by base, then the resolved one-turn ones."""
    for base in table.bases:
        yield from base_sources(table, base, catalogue)
    yield from temporary_sources(table, catalogue)


def base_sources(table: Table, base: Base, catalogue: Catalogue) -> Iterator[Source]:
    """The effects of a base card and of every card on it whose abilities are not cancelled
    (not the one-turn ones)."""
    found = status(table, catalogue)
    for source in all_base_sources(base, catalogue):
        if not found.silenced(source.card, source.tag, source.zone):
            yield source


def in_scope(
    table: Table, catalogue: Catalogue, source: Source, scope: Scope, flt: Filter
) -> list[Minion]:
    """The minions ``scope`` names relative to ``source``, narrowed by ``flt``."""
    return [
        minion
        for minion in scope_minions(table, source, scope)
        if matches(table, catalogue, minion, flt)
    ]


def matches(table: Table, catalogue: Catalogue, minion: Minion, flt: Filter) -> bool:
    """Whether ``minion`` passes ``flt`` (``min_power`` is read where an effect resolves)."""
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
    if flt.with_monster is not None and _with_monster(table, catalogue, minion) != flt.with_monster:
        return False
    return flt.trait is None or has_trait(table, catalogue, minion, flt.trait)


def has_trait(table: Table, catalogue: Catalogue, minion: Minion, trait: str) -> bool:
    """Printed on the card, or given by a trait effect whose ability is not cancelled."""
    if trait in catalogue[minion.card].traits:
        return True
    return trait in status(table, catalogue).traits.get(minion.tag, frozenset())


def _with_monster(table: Table, catalogue: Catalogue, minion: Minion) -> bool:
    found = table.locate(minion.tag)
    if found is None:
        return False
    return any(
        catalogue[other.card].is_monster for other in found[0].minions if other.tag != minion.tag
    )


def count(table: Table, catalogue: Catalogue, source: Source, what: Count) -> int:
    """How many cards ``what`` counts (minions, attached actions for the *-actions scopes,
    buried cards for ``buried-here``, +1 power counters for the *-counters scopes)."""
    centre = table.base_at(source.zone) if source.zone is not None else None
    if what.scope is Scope.BURIED_HERE:
        return len(centre.buried) if centre is not None else 0
    if what.scope is Scope.BEARER_POWER:
        return 0  # read once where the effect resolves (rules/one_turn.py), never live
    if what.scope in (Scope.SELF_COUNTERS, Scope.BEARER_COUNTERS):
        wanted = source.tag if what.scope is Scope.SELF_COUNTERS else source.bearer
        return counters_on(table, wanted) if wanted is not None else 0
    if what.scope in (Scope.BEARER_ACTIONS, Scope.BASE_ACTIONS):
        attached: tuple[Attached, ...] = ()
        if centre is not None and what.scope is Scope.BASE_ACTIONS:
            attached = centre.attached
        elif centre is not None and source.bearer is not None:
            bearer = centre.find(source.bearer)
            attached = bearer.attached if bearer is not None else ()
        return sum(1 for action in attached if _action_matches(catalogue, action.card, what.filter))
    return len(in_scope(table, catalogue, source, what.scope, what.filter))


def counters_on(table: Table, tag: str) -> int:
    """+1 power counters on a minion or an action in play (0 if it is not in play)."""
    for base in table.bases:
        for action in base.attached:
            if action.tag == tag:
                return action.counters
        for minion in base.minions:
            if minion.tag == tag:
                return minion.counters
    return 0


def _action_matches(catalogue: Catalogue, card_id: str, flt: Filter) -> bool:
    card = catalogue[card_id]
    if flt.cards is not None and card_id not in flt.cards:
        return False
    if flt.factions is not None and card.faction not in flt.factions:
        return False
    return flt.treasure is None or card.is_treasure == flt.treasure


def active(table: Table, catalogue: Catalogue, source: Source, when: Condition | None) -> bool:
    """Whether ``when`` holds for ``source`` on this table (``ahead`` is read where a triggered
    effect resolves, with the powers: :mod:`companion.rules.one_turn`)."""
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
