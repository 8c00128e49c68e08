"""What one poll of an nfcpy zone sends, stepped one poll at a time on an injected clock (no
thread, no sleeps): the real reader code and nfcpy's own ``pn532`` driver against an emulated
PN532 that answers at once, with every call to nfcpy's frontend recorded and the link's round
trips and UART bytes counted by the emulator. nfcpy's own activation and NDEF read of a new
card made 8 frontend calls, 32 round trips (pn532-timing.md 2)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import nfc
import nfc.clf
import pytest

from companion.hardware.readers.base import TagRead
from companion.hardware.readers.ndef_card import (
    MAX_ID_READS,
    encode_card_id,
    ndef_span,
    read_card_id,
)
from companion.hardware.readers.nfc_zone import PRESENCE_TIMEOUT, NfcZoneReader
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_emulator import EmulatedPN532, LinkStats
from companion.hardware.readers.pn532_timing import timeout_s
from companion.hardware.readers.registry import ReaderContext, open_reader
from companion.hardware.readers.taps import BRUSH, Ignored, Moved, Tap, TapFilter

UID = "04A1B2C3D4E5F1"


class CountingFrontend(nfc.ContactlessFrontend):  # type: ignore[misc]  # nfcpy is untyped
    """nfcpy's frontend, recording each call a poll makes: ("sense", None) or ("exchange",
    the command bytes, the timeout). ``before_exchange`` may act just before one is sent."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, bytes | None, float | None]] = []
        self.before_exchange: Callable[[bytes], None] | None = None

    def sense(self, *targets: Any, **options: Any) -> Any:
        self.calls.append(("sense", None, None))
        return super().sense(*targets, **options)

    def exchange(self, send_data: Any, timeout: float) -> Any:
        self.calls.append(("exchange", bytes(send_data), timeout))
        if self.before_exchange is not None:
            self.before_exchange(bytes(send_data))
        return super().exchange(send_data, timeout)

    def take(self) -> list[tuple[str, bytes | None, float | None]]:
        calls, self.calls = self.calls, []
        return calls


def no_wait(seconds: float) -> None:
    """The emulator's sleep here: its accounting keeps the modelled time."""


class Zone:
    """One emulated PN532 (pi-uart-921600, answering at once) behind nfcpy's ``pn532`` driver,
    its reader never started: the test steps its polls, on the clock ``now``. The reader polls
    an empty antenna every period (``arrival="poll"``, the fallback) unless told ``"wait"``
    (``test_chip_wait.py`` has the chip's own wait)."""

    def __init__(self, known: set[str], name: str = "base-1", arrival: str = "poll") -> None:
        self.chip = EmulatedPN532(name, "pi-uart-921600", sleep=no_wait)
        self.reads: list[TagRead] = []
        self.now = 0.0
        self.reader = NfcZoneReader(
            name,
            self.reads.append,
            lambda: self.now,
            path=self.chip.path,
            known=known.__contains__,
            frontend=CountingFrontend,
            arrival=arrival,
        )
        self.clf: CountingFrontend = self.reader._open()
        self.link = LinkStats()  #: what the last poll cost on the link

    def poll(self) -> list[tuple[str, bytes | None, float | None]]:
        """One poll; the frontend calls it made (and its cost in :attr:`link`)."""
        self.clf.take()
        before = self.chip.stats
        assert self.reader.poll_once(self.clf)
        self.link = self.chip.stats - before
        return self.clf.take()

    def close(self) -> None:
        self.clf.close()
        self.chip.close()


@pytest.fixture
def zone() -> Iterator[Zone]:
    opened = Zone(known={UID})
    yield opened
    opened.close()


def reads_of(calls: list[tuple[str, bytes | None, float | None]]) -> list[str]:
    return [name if data is None else f"{name} {data.hex()}" for name, data, _ in calls]


def test_a_bound_card_arriving_costs_its_sense_alone(zone: Zone) -> None:
    assert zone.poll() == [("sense", None, None)]  # empty
    zone.chip.place(NtagCard.for_card(UID, "core/zapbot"))
    assert reads_of(zone.poll()) == ["sense"]  # 4 PN532 round trips, not 32
    (arrived,) = zone.reads
    assert (arrived.kind, arrived.uid, arrived.card) == ("arrived", UID, None)
    assert arrived.activated is not None and arrived.activated <= arrived.at


def test_a_resting_card_costs_one_read_per_poll_with_the_trimmed_timeout(zone: Zone) -> None:
    zone.chip.place(NtagCard.for_card(UID))
    zone.poll()
    for _ in range(3):
        assert zone.poll() == [("exchange", b"\x30\x00", PRESENCE_TIMEOUT)]
    assert [r.kind for r in zone.reads] == ["arrived"]
    zone.chip.lift()
    assert reads_of(zone.poll()) == ["exchange 3000", "sense"]  # the READ times out: a miss
    assert reads_of(zone.poll()) == ["sense"]
    assert [r.kind for r in zone.reads] == ["arrived", "left"]


def test_the_presence_timeout_is_on_the_pn532_grid_and_above_an_ntag_answer() -> None:
    # nfcpy's PN532 timeout is 100 us * 2**(n-1), rounded up; an NTAG READ answer ends
    # ~1.64 ms after the command (87 us + 1.55 ms, NTAG21x data sheet section 10.2).
    grid_us = {100 << n for n in range(16)}  # as nfcpy's pn53x.send_cmd_recv_rsp computes
    assert int(PRESENCE_TIMEOUT * 1e6) in grid_us  # so nfcpy does not round it up
    assert 1.64e-3 < PRESENCE_TIMEOUT < 6.4e-3


@pytest.mark.parametrize(
    ("card_id", "reads"),
    [
        ("core/zapbot", ["3004", "3008", "300c"]),  # 35-byte TLV: three READs
        ("munchkin/chainsaw-of-bloody-dismemberment", ["3004", "3008", "300c", "3010", "3014"]),
    ],
)
def test_an_unknown_tag_is_read_with_plain_reads_only_as_far_as_its_record(
    zone: Zone, card_id: str, reads: list[str]
) -> None:
    other = "04A1B2C3D4E5F2"  # not bound
    zone.chip.place(NtagCard.for_card(other, card_id))
    assert reads_of(zone.poll()) == ["sense", *(f"exchange {r}" for r in reads)]
    (arrived,) = zone.reads
    assert (arrived.uid, arrived.card) == (other, card_id)


def test_a_blank_tag_costs_one_read(zone: Zone) -> None:
    zone.chip.place(NtagCard.for_card("04A1B2C3D4E5F3"))  # an empty NDEF message
    assert reads_of(zone.poll()) == ["sense", "exchange 3004"]
    assert zone.reads[0].card is None


def test_a_tag_lifted_between_its_sense_and_its_read_is_tried_again(zone: Zone) -> None:
    other = "04A1B2C3D4E5F4"
    card = NtagCard.for_card(other, "core/zapbot")
    zone.chip.place(card)
    zone.clf.before_exchange = lambda data: zone.chip.lift()  # gone as it landed
    assert reads_of(zone.poll()) == ["sense", "exchange 3004"]
    assert zone.reads == []  # not reported half-read
    zone.clf.before_exchange = None
    zone.chip.place(card)
    assert reads_of(zone.poll())[0] == "sense"
    assert [(r.uid, r.card) for r in zone.reads] == [(other, "core/zapbot")]


def test_writing_a_card_id_on_arrival_still_activates_the_tag(zone: Zone) -> None:
    blank = "04A1B2C3D4E5F5"
    zone.reader.write_on_arrival = lambda uid: "oops/sheriff" if uid == blank else None
    zone.chip.place(NtagCard.for_card(blank))
    calls = reads_of(zone.poll())
    assert calls.count("sense") == 2  # nfcpy's activation re-selects the tag by its uid
    assert "exchange 1a00" in calls  # and probes it (AUTHENTICATE): only for writes now
    assert zone.reads[0].card == "oops/sheriff"


def test_the_table_tells_sim_readers_which_tags_it_knows() -> None:
    bound: set[str] = {UID}
    context = ReaderContext(time.monotonic)
    context.known_tag = bound.__contains__
    reader = open_reader("sim:", "base-1", lambda read: None, time.monotonic, context)
    try:
        assert isinstance(reader, NfcZoneReader)
        assert reader.known(UID) and not reader.known("04A1B2C3D4E5F6")
        bound.add("04A1B2C3D4E5F6")  # bound later: asked at each arrival
        assert reader.known("04A1B2C3D4E5F6")
    finally:
        context.close()


def pages_of(memory: bytes) -> Callable[[int], bytes]:
    """READ over ``memory`` (from page 4), recording the pages asked for."""

    def read(page: int) -> bytes:
        asked.append(page)
        start = (page - 4) * 4
        return memory[start : start + 16].ljust(16, b"\x00")

    asked: list[int] = []
    read.asked = asked  # type: ignore[attr-defined]
    return read


@pytest.mark.parametrize(
    ("prefix", "expected_reads"),
    [
        (b"", 3),
        (b"\x00\x00", 3),  # NULL TLVs first
        (b"\x01\x03\xa0\x10\x44", 3),  # a lock control TLV first
        (b"\x01\x03\xa0\x10\x44" + b"\x00" * 10, 4),
    ],
)
def test_read_card_id_walks_the_tlvs(prefix: bytes, expected_reads: int) -> None:
    message = encode_card_id("core/zapbot")
    read = pages_of(prefix + bytes([0x03, len(message)]) + message + b"\xfe")
    assert read_card_id(read) == "core/zapbot"
    assert read.asked == [4 + 4 * n for n in range(expected_reads)]  # type: ignore[attr-defined]


def test_read_card_id_gives_none_for_no_message_and_stops_reading() -> None:
    assert read_card_id(pages_of(b"\xfe")) is None
    assert read_card_id(pages_of(b"\x03\x00\xfe")) is None
    endless = pages_of(b"\x00" * 200)
    assert read_card_id(endless) is None
    assert len(endless.asked) == MAX_ID_READS  # type: ignore[attr-defined]


def test_ndef_span_reads_the_three_byte_length_and_asks_for_more_when_cut_off() -> None:
    assert ndef_span(b"\x03\xff\x01\x00") == (4, 260)
    assert ndef_span(b"\x03\xff\x01") == (0, 4)  # its length is cut off: read on
    assert ndef_span(b"\x03") == (0, 2)
    assert ndef_span(b"\x03\x05\xd1") == (2, 7)


def test_round_trips_per_poll(zone: Zone) -> None:
    zone.poll()
    assert zone.link.round_trips == 4  # empty: mute, search, register check, mute
    zone.chip.place(NtagCard.for_card(UID, "core/zapbot"))
    zone.poll()
    assert (zone.link.round_trips, zone.link.uart_bytes) == (4, 119)  # new bound card (was 32)
    for _ in range(3):
        zone.poll()
        assert (zone.link.round_trips, zone.link.uart_bytes) == (4, 139)  # resting: one READ
    zone.chip.lift()
    zone.poll()
    assert zone.link.round_trips == 8  # its READ times out, then a sense finds nothing
    zone.poll()
    assert zone.link.round_trips == 4
    assert [r.kind for r in zone.reads] == ["arrived", "left"]
    zone.chip.place(NtagCard.for_card("04A1B2C3D4E5F7", "core/zapbot"))
    zone.poll()
    assert zone.link.round_trips == 4 + 3 * 4  # a tag the table does not know: three READs
    assert zone.reads[-1].card == "core/zapbot"


def test_the_presence_read_is_programmed_at_3_2_ms_on_the_pn532(zone: Zone) -> None:
    """What nfcpy writes to the PN532 for the presence READ: timeout index 6 (3.2 ms, not the
    6.4 ms that 5 ms became), which a READ to a lifted card then waits."""
    zone.chip.place(NtagCard.for_card(UID))
    zone.poll()
    zone.poll()
    assert zone.chip.chip.retry_timeout == 6
    assert timeout_s(6) == pytest.approx(PRESENCE_TIMEOUT)
    zone.chip.lift()
    zone.poll()
    missed = zone.link
    zone.poll()
    assert missed.modelled_s - zone.link.modelled_s >= timeout_s(6)


@pytest.mark.parametrize(
    ("pattern", "returns"),
    [("10110101101", 0), ("1001001001", 3), ("1101100110111", 1)],  # returns: left, then back
)
def test_a_card_flapping_at_the_antennas_edge_is_one_tap_at_its_first_read(
    zone: Zone, pattern: str, returns: int
) -> None:
    """A tag at the antenna's edge, in the field at some polls (1) and not at others (0), one
    poll period apart: the zone's reads through the tap filter make one tap, at once."""
    card = NtagCard.for_card(UID)
    tap_filter, outputs = TapFilter(), []
    for n, there in enumerate(pattern):
        zone.now = n * 35 / 1000
        if there == "1" and zone.chip.card is None:
            zone.chip.place(card)
        elif there == "0":
            zone.chip.lift()
        zone.reads.clear()
        zone.poll()
        for read in zone.reads:
            outputs += tap_filter.poll(read.at) + tap_filter.feed(read)
    outputs += tap_filter.poll(zone.now + 10.0)
    taps = [o for o in outputs if isinstance(o, Tap)]
    assert [(t.uid, t.at) for t in taps] == [(UID, 0.0)]
    assert all(isinstance(o, Tap | Ignored) for o in outputs)
    assert sum(isinstance(o, Ignored) for o in outputs) == returns  # each the same tap


def test_a_card_glimpsed_by_one_zone_on_its_way_to_another_is_moved_there() -> None:
    """Two emulated PN532 zones stepped together, a poll period apart: the card is in the
    first's field at one poll only, then rests on the second. The first reports it present
    until two polls miss it (70 ms: less than BRUSH), so the tap it counted moves to the
    second when the second reads it."""
    first, second = Zone({UID}, "base-1"), Zone({UID}, "base-2")
    try:
        card = NtagCard.for_card(UID)
        tap_filter, reads, outputs = TapFilter(), [], []
        for n in range(8):
            if n == 0:
                first.chip.place(card)
            if n == 1:
                first.chip.lift()
            if n == 3:
                second.chip.place(card)
            for each in (first, second):
                each.now = n * 35 / 1000
                each.reads.clear()
                each.poll()
                reads += each.reads
                for read in each.reads:
                    outputs += tap_filter.poll(read.at) + tap_filter.feed(read)
        assert [(r.zone, r.kind, r.at) for r in reads] == [
            ("base-1", "arrived", 0.0),
            ("base-1", "left", 0.07),
            ("base-2", "arrived", 0.105),
        ]
        assert reads[1].at - reads[0].at < BRUSH  # reported present for a brush's time
        assert [(t.zone, t.at) for t in outputs if isinstance(t, Tap)] == [("base-1", 0.0)]
        moves = [(m.origin, m.zone, m.at) for m in outputs if isinstance(m, Moved)]
        assert moves == [("base-1", "base-2", 0.105)]
    finally:
        first.close()
        second.close()
