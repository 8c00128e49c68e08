"""What happened, relative to one card whose ability it may trigger."""

from __future__ import annotations

from typing import NamedTuple

from companion.catalogue.cards import Card, Catalogue
from companion.rules.abilities import status
from companion.rules.table import Table


class Trigger(NamedTuple):
    """What happened, relative to one card whose ability it triggers (a named tuple: a step
    makes one for each card a moment may trigger, and a frozen dataclass is built in about
    four times as long)."""

    card: Card
    tag: str | None
    controller: str | None
    zone: str | None
    bearer: str | None = None
    played: str | None = None  #: the minion just played (minion-played-here)
    duelist: str | None = None
    winners: tuple[str, ...] = ()  #: players who won the scored base
    #: the card's abilities were cancelled when it left play (read before it left)
    silenced: bool = False


def cancelled(table: Table, trigger: Trigger, catalogue: Catalogue) -> bool:
    """A cancelled ability triggers nothing (Smash Up: Munchkin rulebook, Terms: "Cancel:
    This means the ability is treated as if it does not exist")."""
    if trigger.silenced:
        return True
    return status(table, catalogue).silenced(trigger.card, trigger.tag, trigger.zone)
