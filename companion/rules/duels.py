"""Duels (Oops, You Did It Again, "New Rules: Duels", p. 11). Pure.

Two minions duel; each controller may place one dueling card face down (an action is then
played normally, anything else goes back to the hand). After the dueling cards resolve, the
minion with the higher power wins; on a tie both sides get all the effects of the duel. If
the two minions are no longer together at one base the duel stops without result (a change
of control does not stop it). Only one duel happens at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from companion.catalogue.cards import Catalogue
from companion.rules.game import IllegalPlayError
from companion.rules.power import evaluate
from companion.rules.table import Table

Side = Literal["challenger", "challenged"]
Status = Literal["open", "resolved", "stopped"]


@dataclass(frozen=True, slots=True)
class DuelCard:
    """A card placed for a duel: not in play, not in a hand, not targetable."""

    tag: str
    card: str
    side: Side


@dataclass(frozen=True, slots=True)
class Duel:
    """A duel between the minions tagged ``challenger`` and ``challenged``, at ``zone``,
    started by the card ``card`` (``None``: opened from the tablet) whose controller is
    ``player``. Once resolved, ``powers`` are the two minions' powers and ``winners`` the
    winning minions (both on a tie)."""

    zone: str
    challenger: str
    challenged: str
    card: str | None = None
    player: str | None = None
    cards: tuple[DuelCard, ...] = ()
    status: Status = "open"
    powers: tuple[int, int] | None = None
    winners: tuple[str, ...] = ()

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def minions(self) -> tuple[str, str]:
        return (self.challenger, self.challenged)

    def card_of(self, side: Side) -> DuelCard | None:
        return next((c for c in self.cards if c.side == side), None)

    def losers(self) -> tuple[str, ...]:
        """The losing minions: the other one, or both on a tie (both get every effect)."""
        if self.status != "resolved":
            return ()
        if len(self.winners) == 2:
            return self.winners
        return tuple(tag for tag in self.minions if tag not in self.winners)


def open_duel(
    table: Table, challenger: str, challenged: str, card: str | None, player: str | None
) -> Duel:
    """:raises IllegalPlayError: the two are not minions in play together at one base."""
    first, second = table.locate(challenger), table.locate(challenged)
    if first is None or second is None:
        missing = challenger if first is None else challenged
        raise IllegalPlayError(f"minion {missing} is not in play")
    if challenger == challenged:
        raise IllegalPlayError("a minion cannot duel itself")
    if first[0].zone != second[0].zone:
        raise IllegalPlayError(
            f"a duel needs two minions at one base: {first[0].zone} and {second[0].zone}"
        )
    return Duel(first[0].zone, challenger, challenged, card, player)


def place_card(duel: Duel, tag: str, card: str, side: Side) -> Duel:
    """:raises IllegalPlayError: the duel is over, or that side already placed a card."""
    if not duel.is_open:
        raise IllegalPlayError("the duel is over")
    if duel.card_of(side) is not None:
        raise IllegalPlayError(f"the {side} already placed a dueling card")
    return replace(duel, cards=(*duel.cards, DuelCard(tag, card, side)))


def resolve(table: Table, catalogue: Catalogue, duel: Duel) -> Duel:
    """The duel's result at the current powers (dueling actions already played): the
    higher power wins, a tie makes both winners. Stopped if the minions are apart."""
    if not duel.is_open:
        raise IllegalPlayError("the duel is already over")
    first, second = table.locate(duel.challenger), table.locate(duel.challenged)
    if first is None or second is None or first[0].zone != second[0].zone:
        return replace(duel, status="stopped")
    view = evaluate(table, catalogue).base(first[0].zone)
    mine, theirs = view.minion_power[duel.challenger], view.minion_power[duel.challenged]
    if mine > theirs:
        winners: tuple[str, ...] = (duel.challenger,)
    elif theirs > mine:
        winners = (duel.challenged,)
    else:
        winners = duel.minions
    return replace(
        duel, zone=first[0].zone, status="resolved", powers=(mine, theirs), winners=winners
    )
