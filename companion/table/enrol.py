"""Enrolling tags: binding each NFC tag's uid to a card (and owner), one by one or a whole
faction at a time in printed order, and sharing a tagged deck's bindings as JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.catalogue.cards import Card, Catalogue
from companion.errors import CompanionError
from companion.storage.store import EventStore
from companion.tape.strict import StrictJSONError
from companion.tape.strict import loads as strict_loads

EXPORT_VERSION = 1


class EnrolError(CompanionError, ValueError):
    """A binding cannot be made or a bindings file cannot be read; nothing was changed."""


def deck_order(catalogue: Catalogue, faction_id: str) -> list[Card]:
    """The faction's 20 physical cards in printed order (a card with 4 copies appears 4 times)."""
    if faction_id not in catalogue.factions:
        known = ", ".join(sorted(catalogue.factions))
        raise EnrolError(f"unknown faction {faction_id!r}; factions: {known}")
    return [
        card
        for card in catalogue.faction_cards(faction_id)
        if card.type in ("minion", "action")
        for _ in range(card.copies)
    ]


#: what to do when writing a tag's NDEF record failed (a card lifted or slid mid-write)
RETRY_WRITE = "hold the card still and tap it again"


@dataclass
class BulkEnrolment:
    """Each new tag read binds the next card of the deck; a tag already bound is named and
    left alone (never rebound silently), and the same card is asked for again.

    With ``records`` the reader also writes each tag's NDEF record naming its card as it is
    tapped (:meth:`card_to_write`), and the read says what the tag holds afterwards. A tag
    whose write failed stays bound (the uid is the key: this table knows it) and is kept in
    :attr:`unwritten`; tapping it again writes it again, until it holds its record or the
    enrolment is stopped."""

    cards: list[Card]
    owner: str | None = None
    position: int = 0
    bound: list[tuple[str, str]] = field(default_factory=list)
    #: whether the reader writes each tag's NDEF record as it is tapped
    records: bool = False
    #: the tags this enrolment bound whose NDEF record is not written yet: uid -> card id
    unwritten: dict[str, str] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        """Whether every card is bound (some may still lack their NDEF record)."""
        return self.position >= len(self.cards)

    @property
    def finished(self) -> bool:
        """Whether every card is bound and every tag holds its record: nothing left to tap."""
        return self.done and not self.unwritten

    def next_card(self) -> Card | None:
        return None if self.done else self.cards[self.position]

    def card_to_write(self, uid: str, bound_to: str | None) -> str | None:
        """The card id to write onto tag ``uid`` as it is tapped (``bound_to``: the card it is
        bound to now, if any): the next card's for a tag not bound yet, its own again for a
        tag this enrolment bound whose write failed; None for any other tag (a tag bound
        before keeps what it holds)."""
        uid = uid.upper()
        if bound_to is None:
            card = self.next_card()
            return card.id if card is not None else None
        wanted = self.unwritten.get(uid)
        return wanted if wanted == bound_to else None

    def prompt(self) -> str:
        card = self.next_card()
        if card is None:
            done = f"All {len(self.cards)} cards are enrolled"
            if not self.unwritten:
                return done + "."
            return (
                f"{done}, but {self.lacking()}: {RETRY_WRITE} to write it, or stop here"
                " (this table knows the card by its tag; other tables would not)."
            )
        copy = sum(1 for c in self.cards[: self.position] if c.id == card.id) + 1
        total = sum(1 for c in self.cards if c.id == card.id)
        copies = f" (copy {copy} of {total})" if total > 1 else ""
        return f"Tap {card.name}{copies}: card {self.position + 1} of {len(self.cards)}."

    def lacking(self) -> str:
        """How many tags lack their NDEF record, and which ("" if none)."""
        if not self.unwritten:
            return ""
        names = {card.id: card.name for card in self.cards}
        which = ", ".join(
            f"{names.get(card, card)} (tag {uid})" for uid, card in self.unwritten.items()
        )
        count = len(self.unwritten)
        return f"{count} tag{' lacks its' if count == 1 else 's lack their'} NDEF record: {which}"

    def summary(self) -> str:
        """What was done, when the enrolment stops: cards bound, tags lacking their record."""
        lacking = self.lacking()
        return f"{len(self.bound)} cards enrolled" + (f"; {lacking}" if lacking else "")

    def read(
        self,
        uid: str,
        store: EventStore,
        catalogue: Catalogue,
        known: Mapping[str, str] | None = None,
        record: str | None = None,
    ) -> str:
        """Handle one tag read; returns what to tell the person. ``known`` adds bindings
        held elsewhere (a running game's tags) to the store's; ``record`` is the card id the
        tag's NDEF record names after the read (and the write, with :attr:`records`).

        :raises StoreError: the store could not be read or written (busy, failing): nothing
            was bound and nothing changed here; the same tap can be handled again.
        """
        uid = uid.upper()
        existing = store.bindings.get(uid)
        bound_to = existing.card if existing is not None else (known or {}).get(uid)
        if bound_to is not None:
            name = catalogue[bound_to].name if bound_to in catalogue else bound_to
            if self.unwritten.get(uid) == bound_to:  # tapped again to write its record
                if record == bound_to:
                    del self.unwritten[uid]
                    return f"Tag {uid} ({name}) now holds its NDEF record. {self.prompt()}"
                return (
                    f"Writing {name}'s NDEF record onto tag {uid} failed again:"
                    f" {RETRY_WRITE}. {self.prompt()}"
                )
            return f"Tag {uid} is already {name}; it was not rebound. {self.prompt()}"
        card = self.next_card()
        if card is None:
            return self.prompt()
        store.bindings.bind(uid, card.id, self.owner)
        self.bound.append((uid, card.id))
        self.position += 1
        if self.records and record != card.id:
            self.unwritten[uid] = card.id
            return (
                f"Tag {uid} is now {card.name}, but writing its NDEF record failed (the card"
                f" moved, or the reader missed an answer): {RETRY_WRITE}. {self.prompt()}"
            )
        return f"Tag {uid} is now {card.name}. {self.prompt()}"


def describe(uid: str, store: EventStore, catalogue: Catalogue) -> str:
    """What is this tag?"""
    found = store.bindings.get(uid.upper())
    if found is None:
        return f"Tag {uid.upper()} is not enrolled."
    card = catalogue.get(found.card)
    owner = f", owned by {found.owner}" if found.owner else ""
    name = card.name if card else f"{found.card} (not in this catalogue)"
    return f"Tag {uid.upper()} is {name} ({found.card}){owner}."


def export_bindings(store: EventStore) -> dict[str, Any]:
    return {
        "bindings": EXPORT_VERSION,
        "tags": [
            {"uid": b.uid, "card": b.card, "owner": b.owner}
            for b in sorted(store.bindings.all().values(), key=lambda b: b.uid)
        ],
    }


def import_bindings(path: Path, store: EventStore, catalogue: Catalogue) -> tuple[int, list[str]]:
    """Add the bindings in a file. Returns (added, notes). Every entry is checked before
    anything is written; a uid bound to another card here is reported, not rebound.

    :raises EnrolError: for a file that is not a bindings file, naming the entry.
    """
    try:
        data = strict_loads(path.read_bytes())
    except (OSError, StrictJSONError) as exc:
        raise EnrolError(f"{path}: cannot read it as a bindings file: {exc}") from None
    if not isinstance(data, dict) or data.get("bindings") != EXPORT_VERSION:
        raise EnrolError(f'{path}: not a bindings file (it needs "bindings": {EXPORT_VERSION})')
    entries = data.get("tags")
    if not isinstance(entries, list):
        raise EnrolError(f'{path}: "tags" must be a list of {{"uid", "card", "owner"}}')
    wanted: list[tuple[str, str, str | None]] = []
    for index, entry in enumerate(entries):
        where = f"{path}: tags[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("uid"), str):
            raise EnrolError(f'{where}: needs a "uid" string')
        card, owner = entry.get("card"), entry.get("owner")
        if not isinstance(card, str) or card not in catalogue:
            raise EnrolError(f"{where}: unknown card id {card!r}")
        if owner is not None and not isinstance(owner, str):
            raise EnrolError(f'{where}: "owner" must be a name or null')
        wanted.append((entry["uid"].upper(), card, owner))
    added, notes = 0, []
    for uid, card, owner in wanted:
        existing = store.bindings.get(uid)
        if existing is None:
            store.bindings.bind(uid, card, owner)
            added += 1
        elif existing.card != card:
            notes.append(f"{uid} is {existing.card} here, {card} in the file: kept {existing.card}")
    return added, notes
