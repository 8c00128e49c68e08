"""Cards leaving play, and the VP and treasure draws that leaving triggers.

A minion goes from play to the discard pile when it is destroyed and when its base scores
(the Smash Up: Munchkin rulebook, Back to Your Corners: "all cards still on that base go to
their respective discard piles ... This does not destroy them, but might trigger abilities
that happen when they go to the discard pile"). Abilities that trigger read the table as it
was just before, and a cancelled ability triggers nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from companion.catalogue.cards import Catalogue
from companion.catalogue.effects import TreasureEffect, VpEffect
from companion.rules.abilities import status
from companion.rules.power import evaluate
from companion.rules.sources import Source, active, base_sources, matches
from companion.rules.table import Base, IllegalPlayError, Minion, Table

#: VP triggers of a minion destroyed, and of one discarded with its scored base
DESTROYED = ("leave", "minion-leaves-here", "discarded", "bearer-discarded")
SCORED = ("discarded", "bearer-discarded")


@dataclass(frozen=True, slots=True)
class Left:
    """What left play: the card, and treasure draws owed to whoever destroyed a monster."""

    tag: str
    card: str
    treasure_draws: int = 0
    also: tuple[str, ...] = ()  # tags of cards that went with it (attachments)


def leave_play(table: Table, catalogue: Catalogue, tag: str) -> tuple[Table, Left]:
    """The card with ``tag`` leaves play (destroyed, or discarded by an ability).

    A minion takes its attachments and counters with it. A destroyed monster owes its
    treasure number in treasure draws to whoever destroyed it (the caller decides who), and
    the base it was at may owe more (Bastion).
    """
    for base in table.bases:
        if base.tag == tag:
            raise IllegalPlayError(f"base {tag} cannot be destroyed; score it or replace it")
        for action in base.attached:
            if action.tag == tag:
                kept = tuple(a for a in base.attached if a.tag != tag)
                return table.with_base(replace(base, attached=kept)), Left(tag, action.card)
        for minion in base.minions:
            for action in minion.attached:
                if action.tag == tag:
                    updated = replace(
                        minion, attached=tuple(a for a in minion.attached if a.tag != tag)
                    )
                    minions = tuple(updated if m.tag == minion.tag else m for m in base.minions)
                    return table.with_base(replace(base, minions=minions)), Left(tag, action.card)
            if minion.tag == tag:
                return _minion_leaves(table, catalogue, base, minion)
    raise IllegalPlayError(f"card {tag} is not in play")


def _minion_leaves(
    table: Table, catalogue: Catalogue, base: Base, minion: Minion
) -> tuple[Table, Left]:
    before = table
    card = catalogue[minion.card]
    table = table.with_base(
        replace(base, minions=tuple(m for m in base.minions if m.tag != minion.tag))
    )
    table = table.without_temporaries_on({minion.tag})
    table = leaving_vp(before, table, catalogue, [(base, minion)], DESTROYED)
    draws = (card.treasures or 0) if card.is_monster else 0
    draws += _draws_here(before, catalogue, base, minion)
    return table, Left(minion.tag, minion.card, draws, tuple(a.tag for a in minion.attached))


def _draws_here(table: Table, catalogue: Catalogue, base: Base, minion: Minion) -> int:
    """Treasures drawn for destroying ``minion`` at ``base`` by the cards there (Bastion)."""
    draws = 0
    for source in base_sources(table, base, catalogue):
        effect = source.effect
        if (
            isinstance(effect, TreasureEffect)
            and effect.on == "minion-destroyed-here"
            and matches(table, catalogue, minion, effect.filter)
            and active(table, catalogue, source, effect.when)
        ):
            draws += effect.amount
    return max(0, draws)


def play_vp(table: Table, catalogue: Catalogue, tag: str, zone: str) -> Table:
    """VP for the minion ``tag`` just played at ``zone`` (its own ``play`` abilities)."""
    base = table.base_at(zone)
    minion = base.find(tag) if base is not None else None
    if base is None or minion is None:
        return table
    if status(table, catalogue).silenced(catalogue[minion.card], tag, zone):
        return table
    card = catalogue[minion.card]
    for index, effect in enumerate(card.effects):
        if isinstance(effect, VpEffect) and effect.on == "play":
            source = Source(card, index, effect, minion.controller, zone, tag)
            player = minion.owner if effect.who == "owner" else minion.controller
            if player is not None and active(table, catalogue, source, effect.when):
                table = table.add_vp(player, effect.amount)
    return table


def leaving_vp(
    before: Table,
    table: Table,
    catalogue: Catalogue,
    gone: Iterable[tuple[Base, Minion]],
    triggers: tuple[str, ...],
) -> Table:
    """VP triggered by minions going from play to the discard pile (``triggers``: the kinds
    that apply), read on the table ``before`` they left and added to ``table``."""
    powers = None
    for base, minion in gone:
        for source in base_sources(before, base, catalogue):
            effect = source.effect
            if not isinstance(effect, VpEffect) or effect.on not in triggers:
                continue
            if not _reaches(source, effect, minion):
                continue
            if not matches(before, catalogue, minion, effect.filter):
                continue
            if effect.filter.min_power is not None:
                powers = powers or evaluate(before, catalogue)
                if (powers.power_of(minion.tag) or 0) < effect.filter.min_power:
                    continue
            if not active(before, catalogue, source, effect.when):
                continue
            player = minion.owner if effect.who == "owner" else source.controller
            if player is not None:
                table = table.add_vp(player, effect.amount)
    return table


def _reaches(source: Source, effect: VpEffect, minion: Minion) -> bool:
    """Whether the leaving of ``minion`` triggers this VP effect of ``source``."""
    own = source.tag == minion.tag
    if effect.on in ("leave", "discarded"):
        return own
    if effect.on == "bearer-discarded":
        return not own and source.bearer == minion.tag
    return not own  # minion-leaves-here: the base and the other cards there
