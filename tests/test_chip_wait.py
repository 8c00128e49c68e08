"""An empty PN532 waits for a card itself (``chip_wait.py``): the zone reader's waiting search
through nfcpy's own ``pn532`` driver against the emulated chip: a card put on during it is read
from that one search, the host timeout aborts it with an ACK and searches again, ``stop()``
ends it within the timeout and leaves the chip working, and ``#poll`` keeps the period poll."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import nfc
import nfc.clf
import pytest

from companion.hardware.config import ConfigError, check_reader_spec
from companion.hardware.readers.base import ReaderError, TagRead
from companion.hardware.readers.chip_wait import (
    SEARCH_SPREAD,
    SEARCH_TIMEOUT,
    ChipWait,
    _search_answer,
)
from companion.hardware.readers.nfc_zone import NfcZoneReader
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_emulator import EmulatedPN532, LinkStats
from companion.hardware.readers.pn532_frames import ACK, ERROR_FRAME, HostFrame, answer_frame
from companion.hardware.readers.registry import ReaderContext, open_reader
from tests.waiting import eventually

UID = "04A1B2C3D4E5F1"


def no_wait(seconds: float) -> None:
    """The emulator's sleep here: its accounting keeps the modelled time."""


class Stepped:
    """A zone reader that waits for cards (the default), its polls stepped by the test."""

    def __init__(self) -> None:
        self.chip = EmulatedPN532("base-1", "pi-uart-921600", sleep=no_wait)
        self.reads: list[TagRead] = []
        self.reader = NfcZoneReader(
            "base-1",
            self.reads.append,
            time.monotonic,
            path=self.chip.path,
            known={UID}.__contains__,
        )
        self.clf = self.reader._open()
        self.link = LinkStats()

    def searching(self) -> bool:
        return self.chip._searching is not None

    def poll(self) -> None:
        before = self.chip.stats
        assert self.reader.poll_once(self.clf)
        self.link = self.chip.stats - before


@pytest.fixture
def stepped() -> Iterator[Stepped]:
    zone = Stepped()
    yield zone
    zone.clf.close()
    zone.chip.close()


def test_a_card_put_on_during_the_search_is_read_from_that_search(stepped: Stepped) -> None:
    assert ChipWait.available(stepped.clf)
    polling = threading.Thread(target=stepped.poll)
    polling.start()
    eventually(
        stepped.searching, what="the chip searching", every=0.002
    )  # the chip is searching; the reader thread waits on the link
    stepped.chip.place(NtagCard.for_card(UID, "core/zapbot"))
    polling.join(timeout=SEARCH_TIMEOUT + 2)
    assert not polling.is_alive()
    (arrived,) = stepped.reads
    assert (arrived.kind, arrived.uid) == ("arrived", UID)
    # RFConfiguration (search until found), the search, CRC off (ReadRegister, WriteRegister):
    # the card answered the search itself, no sense() and no poll period in between; then,
    # the arrival delivered, nfcpy's two tries programmed back (RFConfiguration)
    assert stepped.link.round_trips == 5
    assert stepped.reader._waited and stepped.chip.chip.passive_activation_retries == 1
    for _ in range(2):
        stepped.poll()  # a period later: the resting card's presence READ, as before
        assert stepped.link.round_trips == 4
    assert [r.kind for r in stepped.reads] == ["arrived"]
    stepped.chip.lift()
    stepped.poll()  # its READ times out and sense() decides, as before
    assert stepped.link.round_trips == 4 + 4


def test_the_host_timeout_aborts_the_search_with_an_ack_and_searches_again(
    stepped: Stepped,
) -> None:
    started = time.monotonic()
    stepped.poll()
    # it waited (its timeout spread +-20 % so that zones do not abort in step); nothing came
    assert time.monotonic() - started >= (1 - SEARCH_SPREAD) * SEARCH_TIMEOUT * 0.95
    assert stepped.reads == []
    eventually(
        lambda: not stepped.searching(), what="the search aborted", every=0.002
    )  # nfcpy's ACK reached the chip: search aborted
    before = stepped.chip.stats
    stepped.poll()
    eventually(lambda: not stepped.searching(), what="the search aborted", every=0.002)
    again = stepped.chip.stats - before
    # one search a timeout (instead of four round trips every 35 ms): its frame and the ACK
    # that aborted it went to the chip, and only the chip's ACK of the command came back
    assert again.round_trips == 1
    assert (again.bytes_to_chip, again.bytes_from_chip) == (11 + len(ACK), len(ACK))
    stepped.chip.place(NtagCard.for_card(UID))
    stepped.poll()  # the card is there as the next search starts: found at once
    assert [r.kind for r in stepped.reads] == ["arrived"]


def test_stop_during_a_search_wakes_it_and_leaves_the_chip_working() -> None:
    chip = EmulatedPN532("base-1", "pi-uart-921600")
    reads: list[TagRead] = []
    reader = NfcZoneReader("base-1", reads.append, time.monotonic, path=chip.path)
    reader._chip_wait.timeout = 30.0  # a stop that waited the search out would miss its join
    try:
        reader.start()
        eventually(lambda: chip._searching is not None, timeout=5, what="the chip searching")
        asked = time.monotonic()
        reader.stop()
        # the search woke at the stop: not its 30 s timeout, not the 3 s join timeout
        assert time.monotonic() - asked < 2.0
        assert reader._thread is None and reader.health.snapshot().state == "stopped"
        eventually(
            lambda: chip._searching is None, what="the search aborted"
        )  # aborted with its ACK: the chip waits for a command
        chip.place(NtagCard.for_card(UID))
        clf = nfc.ContactlessFrontend(chip.path)  # the next user of the chip
        try:
            target = clf.sense(nfc.clf.RemoteTarget("106A"), iterations=1)
            assert target is not None and bytes(target.sdd_res).hex().upper() == UID
        finally:
            clf.close()
    finally:
        reader.stop()
        chip.close()
    assert reads == []


def test_a_reopen_during_a_search_wakes_it_and_the_reader_reads_on() -> None:
    chip = EmulatedPN532("base-1", "pi-uart-921600")
    reads: list[TagRead] = []
    reader = NfcZoneReader(
        "base-1", reads.append, time.monotonic, path=chip.path, known={UID}.__contains__
    )
    reader._chip_wait.timeout = 30.0
    try:
        reader.start()
        eventually(lambda: chip._searching is not None, timeout=5, what="the chip searching")
        reader.reopen()
        # woken, closed (the driver's close talks to the chip: a cancel left in pyserial's
        # pipe would cut its reads short), opened again and searching again
        eventually(lambda: reader.health.snapshot().reopens == 1, timeout=5, what="reopened")
        eventually(lambda: chip._searching is not None, timeout=5, what="searching again")
        chip.place(NtagCard.for_card(UID))
        eventually(lambda: [r.kind for r in reads] == ["arrived"], timeout=5, what="the card")
        assert reads[0].uid == UID and reader.health.snapshot().state == "ok"
    finally:
        reader.stop()
        chip.close()


def test_a_poll_zone_senses_every_period_as_before() -> None:
    chip = EmulatedPN532("base-1", "pi-uart-921600", sleep=no_wait)
    reader = NfcZoneReader(
        "base-1", lambda read: None, time.monotonic, path=chip.path, arrival="poll"
    )
    clf = reader._open()
    try:
        before = chip.stats
        started = time.monotonic()
        assert reader.poll_once(clf)
        assert time.monotonic() - started < SEARCH_TIMEOUT  # no waiting search
        assert (chip.stats - before).round_trips == 4  # mute, search (two tries), check, mute
        assert chip.chip.passive_activation_retries == 1 and not reader._waited
    finally:
        clf.close()
        chip.close()


def test_the_udp_simulator_is_polled() -> None:
    assert not ChipWait.available(object())  # nfcpy's udp driver has no PN532 chipset


def test_a_reader_spec_chooses_the_period_poll_with_hash_poll() -> None:
    context = ReaderContext(time.monotonic, sim_profile="ideal")
    try:
        waiting = open_reader("sim:", "base-1", lambda read: None, time.monotonic, context)
        polling = open_reader(
            "sim:ideal#poll", "base-2", lambda read: None, time.monotonic, context
        )
        hardware = open_reader(
            "nfc:tty:nfc-zone1:pn532#poll", "base-3", lambda read: None, time.monotonic, context
        )
        assert isinstance(waiting, NfcZoneReader) and waiting.arrival == "wait"
        assert isinstance(polling, NfcZoneReader) and polling.arrival == "poll"
        assert isinstance(hardware, NfcZoneReader) and hardware.arrival == "poll"
        assert hardware.path == "tty:nfc-zone1:pn532"
        with pytest.raises(ReaderError, match="'#poll'"):
            open_reader("nfc:tty:nfc-zone1:pn532#fast", "base-4", print, time.monotonic, context)
    finally:
        context.close()
    assert check_reader_spec("nfc:tty:nfc-zone1:pn532#poll", "zones.base-1.reader")
    assert check_reader_spec("sim:#poll", "zones.base-1.reader")
    with pytest.raises(ConfigError, match="zones.base-1.reader: '#wait' is not a reader option"):
        check_reader_spec("nfc:tty:nfc-zone1:pn532#wait", "zones.base-1.reader")


class CrossingChip(EmulatedPN532):
    """A chip whose answer to a search crossed the host's abort: it reaches the host after
    the host's next command went out, ahead of that command's ACK (armed by ``stray``)."""

    stray: bytes | None = None

    def _execute(
        self, frame: HostFrame, wire_in: float, received: float
    ) -> list[tuple[float, bytes]]:
        replies = super()._execute(frame, wire_in, received)
        if self.stray is not None and frame.body[1] == 0x4A:
            replies, self.stray = [(0.0, self.stray), *replies], None
        return replies


def test_an_answer_that_crossed_the_abort_does_not_put_the_link_out_of_step() -> None:
    chip = CrossingChip("base-1", "pi-uart-921600", sleep=no_wait)
    clf = nfc.ContactlessFrontend(chip.path)
    try:
        wait = ChipWait(timeout=0.06)
        assert wait.wait(clf) is None  # nothing came: aborted
        chip.place(NtagCard.for_card(UID))
        chip.stray = answer_frame(0x4A, bytes.fromhex("01010044000704A1B2C3D4E5F1"))
        target = wait.wait(clf)  # nfcpy reads the stray answer in place of the ACK
        assert target is not None and bytes(target.sdd_res).hex().upper() == UID
        # the link is in step: CRC off was written, and the card answers a READ
        assert chip.chip.registers[0x6303] & 0x80 == 0
        pages = clf.exchange(bytearray(b"\x30\x00"), 0.01)
        assert bytes(pages[:3]).hex().upper() == UID[:6]
    finally:
        clf.close()
        chip.close()


def test_an_error_frame_for_a_search_is_an_io_error() -> None:
    with pytest.raises(OSError, match="not an InListPassiveTarget answer"):
        _search_answer(ERROR_FRAME)
    with pytest.raises(OSError):
        _search_answer(answer_frame(0x02, b"\x32\x01\x06\x07"))
    assert _search_answer(answer_frame(0x4A, b"\x00")) == b"\x00"


def test_a_chip_that_answers_no_target_at_once_is_polled_every_period_instead(
    caplog: pytest.LogCaptureFixture,
) -> None:
    chip = EmulatedPN532("base-1", "pi-uart-921600", sleep=no_wait, endless_search=False)
    reader = NfcZoneReader("base-1", lambda read: None, time.monotonic, path=chip.path)
    clf = reader._open()
    try:
        for _ in range(3):  # it answers "no target" after its two tries: no waiting
            started = time.monotonic()
            assert reader.poll_once(clf) and reader._waited
            assert time.monotonic() - started < SEARCH_TIMEOUT
        assert "polling it every period instead" in caplog.text
        before = chip.stats
        assert reader.poll_once(clf) and not reader._waited  # sense(), and the period
        assert (chip.stats - before).round_trips == 1 + 4  # nfcpy's two tries back, a sense
    finally:
        clf.close()
        chip.close()
