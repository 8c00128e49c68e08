"""Which abilities are cancelled and which traits cards have, on a table.

Cancelling treats an ability "as if it does not exist" (Smash Up: Munchkin rulebook, Terms:
Cancel): every ability of the card, not only what it adds to power. So this is read before
anything else: :mod:`companion.rules.sources` leaves out every effect of a cancelled card
(power, breakpoint, scoring, VP, treasures, the traits it gives), and the tracker fires no
triggered ability of one. Resolved one-turn effects are not cards in play: they stay.

Cancellers act in two rounds: resolved effects first (Potion of Paralysis, Last Call: nothing
cancels them), then cards in play that are not themselves cancelled (a Potion of Paralysis on
a base cancels a Jammed Signal there, which then cancels nothing).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.effects import one_turn
from companion.catalogue.status_effects import CancelEffect, TraitEffect
from companion.rules.scopes import Source, all_base_sources, scope_minions, temporary_sources
from companion.rules.table import Table


@dataclass(frozen=True)
class Status:
    #: tags of cards in play whose abilities are cancelled
    cancelled: frozenset[str] = frozenset()
    #: zones of bases whose own abilities are cancelled
    bases: frozenset[str] = frozenset()
    #: traits given by ``trait`` effects, by minion tag
    traits: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def silenced(self, card: Card, tag: str | None, zone: str | None) -> bool:
        """Whether the abilities of ``card`` (in play as ``tag`` at ``zone``) are cancelled."""
        if card.type == "base":
            return zone is not None and zone in self.bases
        return tag is not None and tag in self.cancelled


#: the last tables asked, by identity: a step asks about the same table many times, and
#: hashing a whole table (every base, minion and attachment) for an equality key cost more
#: than the answer did; the entry keeps its table and catalogue, so an id is never reused
_CACHE: dict[tuple[int, int], tuple[Table, Catalogue, Status]] = {}
_CACHE_SIZE = 16


def status(table: Table, catalogue: Catalogue) -> Status:
    """The table's cancelled abilities and given traits (kept for the last tables asked)."""
    key = (id(table), id(catalogue))
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is table and cached[1] is catalogue:
        return cached[2]
    found = _status(table, catalogue)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()  # atomic: the web server's threads share it
    _CACHE[key] = (table, catalogue, found)
    return found


#: a table where nothing cancels or gives traits (most tables)
_NOTHING = Status()


def _status(table: Table, catalogue: Catalogue) -> Status:
    cancelled: set[str] = set()
    bases: set[str] = set()
    for source in temporary_sources(table, catalogue):
        if isinstance(source.effect, CancelEffect):
            _cancel(table, source, source.effect, cancelled, bases)
    in_play = list(_card_sources(table, catalogue))  # walked once for both rounds
    if not in_play and not cancelled and not bases:
        return _NOTHING
    first_round = frozenset(cancelled)
    for source in in_play:
        if isinstance(source.effect, CancelEffect) and not _silent(source, first_round, bases):
            _cancel(table, source, source.effect, cancelled, bases)
    final = frozenset(cancelled)
    traits: dict[str, set[str]] = {}
    for source in in_play:
        effect = source.effect
        if isinstance(effect, TraitEffect) and not _silent(source, final, bases):
            for minion in scope_minions(table, source, effect.scope):
                traits.setdefault(minion.tag, set()).add(effect.trait)
    return Status(
        final,
        frozenset(bases),
        {tag: frozenset(names) for tag, names in traits.items()},
    )


def _card_sources(table: Table, catalogue: Catalogue) -> Iterator[Source]:
    """The ongoing effects in play that may cancel or give traits: those of the cards that have
    such an effect (no other card's effects count here, and most cards have none)."""
    only = _status_cards(catalogue)
    for base in table.bases:
        yield from all_base_sources(base, catalogue, only)


#: per catalogue (by identity, kept with it): the ids of the cards with an ongoing cancel or
#: trait effect
_STATUS_CARDS: dict[int, tuple[Catalogue, frozenset[str]]] = {}


def _status_cards(catalogue: Catalogue) -> frozenset[str]:
    known = _STATUS_CARDS.get(id(catalogue))
    if known is not None and known[0] is catalogue:
        return known[1]
    found = frozenset(
        card.id
        for card in catalogue
        if any(
            isinstance(effect, CancelEffect | TraitEffect) and not one_turn(effect)
            for effect in card.effects
        )
    )
    if len(_STATUS_CARDS) >= _CACHE_SIZE:
        _STATUS_CARDS.clear()  # atomic, as _CACHE
    _STATUS_CARDS[id(catalogue)] = (catalogue, found)
    return found


def _silent(source: Source, cancelled: frozenset[str], bases: set[str]) -> bool:
    if source.card.type == "base":
        return source.zone in bases
    return source.tag is not None and source.tag in cancelled


def _cancel(
    table: Table, source: Source, effect: CancelEffect, cancelled: set[str], bases: set[str]
) -> None:
    base = table.base_at(source.zone) if source.zone is not None else None
    if base is None:
        return
    if effect.target == "base":
        bases.add(base.zone)
    elif effect.target == "here":
        for minion in base.minions:
            cancelled.add(minion.tag)
            cancelled.update(action.tag for action in minion.attached)
        cancelled.update(action.tag for action in base.attached)
    elif source.bearer is not None:  # bearer, or the minion a next/played-here cancel reached
        cancelled.add(source.bearer)
