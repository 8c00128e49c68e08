"""``companion enrol``: bind tags to cards, a faction at a time, and share bindings."""

from __future__ import annotations

import json
import queue
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.errors import CompanionError, StoreError
from companion.hardware.readers.base import TagRead
from companion.hardware.readers.registry import ReaderContext, open_reader
from companion.storage.store import EventStore
from companion.table.enrol import (
    BulkEnrolment,
    EnrolError,
    deck_order,
    describe,
    export_bindings,
    import_bindings,
)

DB_OPTION = click.option(
    "--db", default="companion.db", show_default=True, help="SQLite file holding the bindings."
)


@click.group()
def enrol() -> None:
    """Bind NFC tags to cards (the uid is the key; an NDEF record names the card too)."""


@enrol.command("bind")
@click.argument("uid")
@click.argument("card_id")
@click.option("--owner", help="The player who owns this copy (when two players share a faction).")
@click.option("--rebind", is_flag=True, help="Rebind a tag already bound to another card.")
@DB_OPTION
def bind(uid: str, card_id: str, owner: str | None, rebind: bool, db: str) -> None:
    """Bind tag UID to CARD_ID."""
    catalogue = load_catalogue()
    if card_id not in catalogue:
        _fail(f"unknown card id {card_id!r}; see `companion cards list`")
    try:
        with EventStore.open(db) as store:
            store.bindings.bind(uid, card_id, owner, rebind=rebind)
            click.echo(describe(uid, store, catalogue))
    except CompanionError as exc:
        _fail(f"{exc} (add --rebind to change it)")


@enrol.command("show")
@click.argument("uid")
@DB_OPTION
def show(uid: str, db: str) -> None:
    """What is this tag?"""
    with EventStore.open(db) as store:
        click.echo(describe(uid, store, load_catalogue()))


@enrol.command("export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@DB_OPTION
def export(file: Path, db: str) -> None:
    """Write every binding to FILE (JSON) to share a tagged deck."""
    with EventStore.open(db) as store:
        data = export_bindings(store)
    file.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    click.echo(f"{len(data['tags'])} bindings written to {file}")


@enrol.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@DB_OPTION
def import_(file: Path, db: str) -> None:
    """Add the bindings in FILE; tags already bound to another card are kept and reported."""
    try:
        with EventStore.open(db) as store:
            added, notes = import_bindings(file, store, load_catalogue())
    except CompanionError as exc:
        _fail(str(exc))
    for line in notes:
        click.echo(f"note: {line}")
    click.echo(f"{added} bindings added")


#: seconds a tap waits for another program's write lock before it is refused (SQLite's
#: busy timeout, as for every store; tests shorten it)
BUSY_WAIT = 5.0


@enrol.command("faction")
@click.argument("faction_id")
@click.option(
    "--reader",
    "spec",
    required=True,
    help="The reader to tap on, e.g. nfc:tty:nfc-zone1:pn532 or nfc:usb.",
)
@click.option("--owner", help="Owner of this deck's cards (when two players share a faction).")
@click.option(
    "--write-ndef/--no-write-ndef",
    default=True,
    show_default=True,
    help="Also write an NDEF record naming the card, so any table recognises it.",
)
@DB_OPTION
def faction(faction_id: str, spec: str, owner: str | None, write_ndef: bool, db: str) -> None:
    """Enrol a faction's 20 cards in printed order: tap each card as it is named."""
    catalogue = load_catalogue()
    try:
        enrolment = BulkEnrolment(deck_order(catalogue, faction_id), owner)
    except EnrolError as exc:
        _fail(str(exc))
    reads: queue.Queue[TagRead] = queue.Queue()
    context = ReaderContext(time.monotonic)
    try:
        reader = open_reader(spec, "enrol", reads.put, time.monotonic, context)
    except CompanionError as exc:
        _fail(str(exc))
    with EventStore.open(db) as store:
        store.wait_when_busy(BUSY_WAIT)
        if write_ndef and hasattr(reader, "write_on_arrival"):
            enrolment.records = True
            reader.write_on_arrival = _card_to_write(store, enrolment)
        reader.start()
        try:
            click.echo(enrolment.prompt())
            _enrol_taps(reads, enrolment, store, catalogue, write_ndef)
        except KeyboardInterrupt:
            click.echo(f"\nstopped: {enrolment.summary()}")
        finally:
            reader.stop()
            context.close()


def _card_to_write(store: EventStore, enrolment: BulkEnrolment) -> Callable[[str], str | None]:
    """What the reader writes during a tap, in its own thread: the next card's record onto a
    tag not bound yet, or its own again onto a tag whose write failed (None: nothing)."""

    def card_for(uid: str) -> str | None:
        try:
            bound = store.bindings.get(uid)
        except CompanionError:  # the tap's own handling tells the person
            return None
        return enrolment.card_to_write(uid, bound.card if bound is not None else None)

    return card_for


def _enrol_taps(
    reads: queue.Queue[TagRead],
    enrolment: BulkEnrolment,
    store: EventStore,
    catalogue: Catalogue,
    write_ndef: bool,
) -> None:
    """Each card tapped, until the whole deck is bound (and its records written)."""
    while not enrolment.finished:
        read = reads.get()
        if read.kind != "arrived":
            continue
        try:
            click.echo(enrolment.read(read.uid, store, catalogue, record=read.card))
        except StoreError as exc:  # busy or failing: nothing bound; the reader runs on
            click.echo(
                f"Tag {read.uid} was not enrolled: {exc}. Then tap the card again."
                f" {enrolment.prompt()}"
            )
            continue
        if write_ndef and read.card is not None:
            click.echo(f"  its NDEF record names {read.card}")


def _fail(message: str) -> Any:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)
