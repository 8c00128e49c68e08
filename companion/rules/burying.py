"""Burying and uncovering (Oops, You Did It Again, "New Rules: Burying", p. 10). Pure.

* A buried card lies face down beside a base. It has no power and no presence there, and
  abilities that target minions or actions do not reach it: it is not a minion or an action
  on the table (:class:`~companion.table.Buried`, never in ``Base.minions``), so no scope,
  prompt or counter finds it.
* Its controller is whoever buried it, considered its owner until it is uncovered or discarded.
* Burying a card in play (Mummy) first discards the counters and cards on it.
* Uncovering takes it out; the tracker then plays it at the same base as an extra card.
* After a base scores or leaves play, cards still buried there go to their owners' discard
  piles; a buried Madness card goes back to its controller's, and counts against them while
  buried at the end of the game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.rules.game import IllegalPlayError, release_buried, where_is
from companion.rules.table import MADNESS, Attached, Base, Buried, Table


def bury(table: Table, zone: str, card: Buried) -> tuple[Table, tuple[Attached, ...]]:
    """Bury ``card`` at ``zone``. A card in play there or elsewhere (a minion, an attached
    action) leaves its place first, its counters and the cards on it discarded (returned).
    This is neither destroying nor discarding it: no leave-play ability triggers.

    :raises IllegalPlayError: no base at ``zone``, or the card is already buried.
    """
    target = table.base_at(zone)
    if target is None:
        raise IllegalPlayError(f"there is no base at {zone} to bury a card at")
    if any(b.tag == card.tag for base in table.bases for b in base.buried):
        raise IllegalPlayError(f"card {card.tag} is already buried")
    dropped: tuple[Attached, ...] = ()
    if where_is(table, card.tag) is not None:
        table, dropped = _take_out(table, card.tag)
    target = table.base_at(zone)
    assert target is not None
    return table.with_base(replace(target, buried=(*target.buried, card))), dropped


def _take_out(table: Table, tag: str) -> tuple[Table, tuple[Attached, ...]]:
    for base in table.bases:
        if base.tag == tag:
            raise IllegalPlayError(f"{tag} is a base; a base cannot be buried")
        if any(a.tag == tag for a in base.attached):
            kept = tuple(a for a in base.attached if a.tag != tag)
            return table.with_base(replace(base, attached=kept)), ()
        for minion in base.minions:
            if minion.tag == tag:
                kept_minions = tuple(m for m in base.minions if m.tag != tag)
                table = table.with_base(replace(base, minions=kept_minions))
                return table.without_temporaries_on({tag}), minion.attached
            if any(a.tag == tag for a in minion.attached):
                updated = replace(
                    minion, attached=tuple(a for a in minion.attached if a.tag != tag)
                )
                minions = tuple(updated if m.tag == minion.tag else m for m in base.minions)
                return table.with_base(replace(base, minions=minions)), ()
    return table, ()  # pragma: no cover - where_is found it


def find_buried(table: Table, tag: str) -> tuple[Base, Buried] | None:
    for base in table.bases:
        for card in base.buried:
            if card.tag == tag:
                return base, card
    return None


def uncover(table: Table, tag: str) -> tuple[Table, Base, Buried]:
    """Turn a buried card face up: it leaves the buried pile of its base (the caller plays
    it there as an extra card, or discards it if it cannot be played).

    :raises IllegalPlayError: the card is not buried.
    """
    found = find_buried(table, tag)
    if found is None:
        raise IllegalPlayError(f"card {tag} is not buried")
    base, card = found
    kept = tuple(b for b in base.buried if b.tag != tag)
    return table.with_base(replace(base, buried=kept)), base, card


def buried_by(base: Base) -> dict[str, int]:
    """How many cards each player has buried at ``base`` (what others may know)."""
    return dict(Counter(card.controller for card in base.buried))


def bury_madness(table: Table, zone: str, player: str, tag: str) -> Table:
    """``player`` buries a Madness card from hand: it leaves their held count and lies at
    ``zone``, still theirs for the end-of-game count."""
    table, _ = bury(table, zone, Buried(tag=tag, card=MADNESS, controller=player, owner=player))
    seat = table.seat(player)
    madness = list(table.madness)
    madness[seat] = max(0, madness[seat] - 1)
    return replace(table, madness=tuple(madness), madness_in_game=True)


__all__ = [
    "MADNESS",
    "bury",
    "bury_madness",
    "buried_by",
    "find_buried",
    "release_buried",
    "uncover",
]
