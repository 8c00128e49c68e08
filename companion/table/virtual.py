"""The virtual table of a simulated table: cards placed on and lifted from its zones.

A ``sim:`` zone is an antenna of the NTAG simulator (the real nfcpy reader code reads it); a
``mock:`` zone takes the read directly (tests, and a table with no nfcpy). Either way the read
goes the whole way through the service: tap filter, tracker, store.
"""

from __future__ import annotations

from typing import Any

from companion.hardware.readers.mock import MockReader
from companion.hardware.readers.ntag_sim import NtagCard
from companion.table.service import TableService


class NoSimZone(LookupError):
    """The zone has no simulated reader."""


class VirtualTable:
    def __init__(self, service: TableService) -> None:
        self.service = service

    def _zone(self, zone: str) -> Any:
        """The MockReader or simulator antenna of ``zone``. :raises NoSimZone:"""
        reader = self.service.readers.get(zone)
        if reader is None:
            zones = ", ".join(self.service.readers)
            raise NoSimZone(f"unknown zone {zone!r}; zones: {zones}")
        if isinstance(reader, MockReader):
            return reader
        antenna = self.service.context.simulator.zones.get(zone)
        if antenna is None:
            raise NoSimZone(f"zone {zone!r} has a real reader: put the card on it by hand")
        return antenna

    def place(self, zone: str, uid: str) -> str | None:
        """Put the tag ``uid`` on ``zone`` (lifting what lay there); returns the card id its
        NDEF record names (the card the running game binds it to), if any.

        :raises NoSimZone: :raises ValueError: a uid the simulator cannot be (7 bytes).
        """
        where = self._zone(zone)
        binding = self.service.live.game.state.header.tags.get(uid.upper())
        card = binding.card if binding is not None else None
        if isinstance(where, MockReader):
            where.place(uid, card)
            return card
        if len(uid) != 14:
            raise ValueError(f"a simulated tag has a 7-byte uid (14 hex digits), not {uid!r}")
        where.place(NtagCard.for_card(uid, card))
        return card

    def lift(self, zone: str) -> str | None:
        """Lift the card on ``zone``; returns its uid (None if the zone was empty)."""
        where = self._zone(zone)
        if isinstance(where, MockReader):
            read = where.lift()
            return read.uid if read is not None else None
        card = where.lift()
        return str(card.uid_hex) if card is not None else None

    def present(self, zone: str) -> str | None:
        """The uid on ``zone`` now, if any."""
        where = self._zone(zone)
        if isinstance(where, MockReader):
            return where.present
        card = where.card
        return str(card.uid_hex) if card is not None else None

    def where(self) -> dict[str, str]:
        """uid -> the zone it lies on, for every zone that has a card."""
        found: dict[str, str] = {}
        for zone in self.service.readers:
            try:
                uid = self.present(zone)
            except NoSimZone:
                continue
            if uid is not None:
                found[uid] = zone
        return found
