"""The real nfcpy reader threads against the simulated NFC table (only the transport is
simulated). Every wait has a deadline; nothing sleeps to make an assertion true."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

import pytest

from companion.hardware.readers.base import TagRead
from companion.hardware.readers.nfc_zone import NfcZoneReader
from companion.hardware.readers.ntag_sim import NtagCard, Simulator
from companion.hardware.readers.presence import MISSES_TO_LEAVE
from companion.hardware.readers.registry import ReaderContext, open_reader
from tests.waiting import eventually

ZONES = [f"base-{n}" for n in range(1, 6)]


@pytest.fixture
def table() -> Iterator[tuple[Simulator, dict[str, NfcZoneReader], queue.Queue[TagRead]]]:
    simulator = Simulator()
    reads: queue.Queue[TagRead] = queue.Queue()
    readers = {}
    for zone in ZONES:
        antenna = simulator.add_zone(zone)
        readers[zone] = NfcZoneReader(zone, reads.put, time.monotonic, path=antenna.path)
        readers[zone].start()
    yield simulator, readers, reads
    for reader in readers.values():
        reader.stop()
    simulator.close()


def next_read(reads: queue.Queue[TagRead], timeout: float = 3.0) -> TagRead:
    return reads.get(timeout=timeout)


def nothing_for(reads: queue.Queue[TagRead], seconds: float) -> bool:
    try:
        reads.get(timeout=seconds)
    except queue.Empty:
        return True
    return False


def uid(n: int) -> str:
    return f"04A1B2C3D4E5{n:02X}"


def test_place_and_lift_reports_arrival_with_card_id_then_departure(table) -> None:
    simulator, _, reads = table
    simulator.zone("base-1").place(NtagCard.for_card(uid(1), "munchkin/sword-lord"))
    arrived = next_read(reads)
    assert (arrived.zone, arrived.uid, arrived.kind, arrived.card) == (
        "base-1",
        uid(1),
        "arrived",
        "munchkin/sword-lord",
    )
    simulator.zone("base-1").lift()
    left = next_read(reads)
    assert (left.zone, left.uid, left.kind) == ("base-1", uid(1), "left")


def test_five_zones_at_once_never_mix_up(table) -> None:
    simulator, readers, reads = table
    for round_ in range(3):
        for n, zone in enumerate(ZONES):
            simulator.zone(zone).place(NtagCard.for_card(uid(10 * round_ + n), f"core/x{n}"))
        seen = {}
        for _ in ZONES:
            read = next_read(reads)
            assert read.kind == "arrived"
            seen[read.zone] = read.uid
        assert seen == {zone: uid(10 * round_ + n) for n, zone in enumerate(ZONES)}
        for zone in ZONES:
            simulator.zone(zone).lift()
        gone = {next_read(reads).zone for _ in ZONES}
        assert gone == set(ZONES)
    assert all(r.health.snapshot().state == "ok" for r in readers.values())


def test_a_card_swapped_onto_a_zone_is_read_at_once(table) -> None:
    simulator, _, reads = table
    antenna = simulator.zone("base-2")
    antenna.place(NtagCard.for_card(uid(11), "core/zapbot"))
    assert next_read(reads).kind == "arrived"
    antenna.lift()
    antenna.place(NtagCard.for_card(uid(12), "core/king-rex"))  # no gap between the two
    left, arrived = next_read(reads), next_read(reads)
    assert (left.kind, left.uid) == ("left", uid(11))
    assert (arrived.kind, arrived.uid, arrived.card) == ("arrived", uid(12), "core/king-rex")
    assert arrived.activated is not None and arrived.activated <= arrived.at == left.at


def test_a_resting_card_that_drops_its_selection_is_sensed_again_not_lost(table) -> None:
    simulator, readers, reads = table
    antenna = simulator.zone("base-3")
    antenna.place(NtagCard.for_card(uid(13), "core/zapbot"))
    assert next_read(reads).kind == "arrived"
    polls = readers["base-3"]._polls
    for _ in range(5):  # field glitches: the tag falls back to idle and ignores the READ
        antenna.handle(b"RFOFF")
        eventually(
            lambda polls=polls: readers["base-3"]._polls >= polls + 2,  # type: ignore[misc]
            timeout=2,
            what="two polls after the field glitch",
        )
        polls = readers["base-3"]._polls
    assert nothing_for(reads, 0.2)
    antenna.lift()
    assert (next_read(reads).kind, reads.empty()) == ("left", True)


def test_garbled_or_foreign_ndef_still_reads_by_uid(table) -> None:
    simulator, _, reads = table
    simulator.zone("base-2").place(NtagCard.garbled(uid(2)))
    read = next_read(reads)
    assert (read.uid, read.card) == (uid(2), None)
    simulator.zone("base-2").lift()
    simulator.zone("base-2").place(NtagCard.for_card(uid(3)))  # no NDEF message at all
    while (read := next_read(reads)).kind != "arrived":
        pass
    assert (read.uid, read.card) == (uid(3), None)


def test_reader_vanishing_and_returning_gives_no_phantom_events(table) -> None:
    simulator, readers, reads = table
    antenna, reader = simulator.zone("base-3"), readers["base-3"]
    antenna.place(NtagCard.for_card(uid(4)))
    assert next_read(reads).kind == "arrived"
    antenna.close()
    eventually(
        lambda: reader.health.snapshot().state == "reopening",
        timeout=3,
        what="the failure showing in the zone's health",
    )
    # The card did not leave, the reader did: nothing came of the poll that failed, nor of
    # two more tries to open the reader (counted, not timed: under load a fixed window may
    # hold fewer tries).
    failed = reader.health.snapshot().errors
    eventually(
        lambda: reader.health.snapshot().errors >= failed + 2,
        timeout=3,
        what="two more failed tries to open the reader",
    )
    assert reads.empty()
    antenna.reopen()
    eventually(
        lambda: reader.health.snapshot().reopens >= 1,
        timeout=2.0,
        what="the reader reopened within 2 s of its return",
    )
    # The same card, still there: nothing happens in enough polls to have reported it gone
    # had the reader lost it, or arrived had it forgotten it.
    eventually(
        lambda: reader._polls > MISSES_TO_LEAVE,
        timeout=3,
        what="the reopened reader polling the card",
    )
    assert reads.empty()
    antenna.lift()
    left = next_read(reads)
    assert (left.uid, left.kind) == (uid(4), "left")
    snapshot = reader.health.snapshot()
    assert snapshot.errors >= 1 and snapshot.last_error


def test_card_lifted_while_the_reader_was_away_is_reported_gone(table) -> None:
    simulator, readers, reads = table
    antenna = simulator.zone("base-4")
    antenna.place(NtagCard.for_card(uid(5)))
    assert next_read(reads).kind == "arrived"
    antenna.close()
    antenna.lift()
    antenna.reopen()
    left = next_read(reads, timeout=5)
    assert (left.uid, left.kind) == (uid(5), "left")


def test_writing_a_card_id_to_a_tag(table) -> None:
    simulator, readers, reads = table
    antenna, reader = simulator.zone("base-5"), readers["base-5"]
    blank = NtagCard.for_card(uid(6))
    reader.write_on_arrival = lambda tag_uid: "oops/sheriff" if tag_uid == uid(6) else None
    antenna.place(blank)
    assert next_read(reads).card == "oops/sheriff"  # written while it was tapped
    antenna.lift()
    assert next_read(reads).kind == "left"
    reader.write_on_arrival = None
    antenna.place(blank)  # the same physical tag: the record is on it now
    assert next_read(reads).card == "oops/sheriff"
    antenna.lift()
    next_read(reads)
    other = NtagCard.for_card(uid(7))
    results: queue.Queue[bool] = queue.Queue()
    threading.Thread(
        target=lambda: results.put(reader.write_card_id(uid(7), "core/zapbot"))
    ).start()
    eventually(  # the write is queued before the card lands
        lambda: uid(7) in reader._writes, timeout=2, what="the write queued"
    )
    antenna.place(other)
    assert results.get(timeout=5) is True
    assert next_read(reads).card == "core/zapbot"


def test_writing_a_card_id_to_a_tag_already_on_the_antenna(table) -> None:
    simulator, readers, reads = table
    antenna, reader = simulator.zone("base-1"), readers["base-1"]
    blank = NtagCard.for_card(uid(9))
    antenna.place(blank)
    assert next_read(reads).card is None
    assert reader.write_card_id(uid(9).lower(), "core/robo-hoverbot", timeout=3.0) is True
    assert nothing_for(reads, 0.2)  # writing is not an arrival
    antenna.lift()
    assert next_read(reads).kind == "left"
    antenna.place(blank)  # the same tag, lifted and put back: it names its card now
    assert next_read(reads).card == "core/robo-hoverbot"
    assert reader.write_card_id(uid(10), "core/zapbot", timeout=0.2) is False  # not here
    assert uid(10) not in reader._writes


def test_a_poll_round_slower_than_the_watchdog_reopens_the_reader() -> None:
    simulator = Simulator()
    antenna = simulator.add_zone("slow")
    # Every poll takes at least twice the watchdog's period, however loaded the machine.
    antenna.answer_delay = 0.1
    reads: queue.Queue[TagRead] = queue.Queue()
    reader = NfcZoneReader("slow", reads.put, time.monotonic, path=antenna.path, watchdog=0.05)
    reader.start()
    try:
        eventually(
            lambda: reader.health.snapshot().reopens >= 1,
            timeout=6,
            what="the watchdog reopening the reader",
        )
        assert "poll took" in (reader.health.snapshot().last_error or "")
        assert reads.empty()
    finally:
        reader.stop()
        simulator.close()


def test_factory_builds_simulated_zones_and_stops_promptly() -> None:
    reads: queue.Queue[TagRead] = queue.Queue()
    context = ReaderContext(time.monotonic)
    reader = open_reader("sim:", "base-1", reads.put, time.monotonic, context)
    reader.start()
    context.simulator.zone("base-1").place(NtagCard.for_card(uid(8), "core/king-rex"))
    assert next_read(reads).card == "core/king-rex"
    started = time.monotonic()
    reader.stop()
    assert time.monotonic() - started < 1.0
    context.close()
