"""Munchkin Cthulhu's additions to its state document (README, Tapes): each side's
contributions, by card and why, and the looting of a dead player."""

from __future__ import annotations

from typing import TypedDict


class PartDocument(TypedDict):
    """One contribution to a side's total: ``card`` is null for a Level or a person's +/-."""

    amount: int
    card: str | None
    why: str


class LootDocument(TypedDict):
    tag: str
    card: str


class LootingDocument(TypedDict):
    dead: str
    order: list[str]
    next: str | None
    cards: list[LootDocument]


class AdjustmentDocument(TypedDict):
    side: str
    amount: int
    label: str


class ItemAttachmentDocument(TypedDict):
    """A card on one of the player's items (``item``: that item's tag)."""

    tag: str
    card: str
    item: str


class RollDocument(TypedDict):
    """A Run Away roll still to make: ``player`` against ``monster`` (its tag)."""

    player: str
    monster: str
    card: str
    needs: int
