"""The emulated PN532: nfcpy's own, unmodified ``pn532`` driver against it over a pty, its
frames byte by byte, and its timing model read from the accounting (never the wall clock)."""

from __future__ import annotations

import math
import os
import select
import termios
import threading
from collections.abc import Iterator

import nfc
import nfc.clf
import nfc.tag
import pytest

from companion.hardware.readers.ndef_card import card_record, decode_card_id
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_emulator import (
    EmulatedPN532,
    EmulatorUnavailable,
    LinkStats,
)
from companion.hardware.readers.pn532_frames import (
    ACK,
    ERROR_FRAME,
    NACK,
    answer_frame,
    information_frame,
)
from tests.waiting import eventually

UID = "04A1B2C3D4E5F6"
A = nfc.clf.RemoteTarget("106A")


def no_wait(seconds: float) -> None:
    """The emulator's sleep in these tests: its accounting keeps the modelled time."""


@pytest.fixture
def reader(request: pytest.FixtureRequest) -> Iterator[EmulatedPN532]:
    profile = getattr(request, "param", "pi-uart-921600")
    emulated = EmulatedPN532("test", profile, sleep=no_wait)
    yield emulated
    emulated.close()


@pytest.fixture
def clf(reader: EmulatedPN532) -> Iterator[nfc.ContactlessFrontend]:
    frontend = nfc.ContactlessFrontend(reader.path)
    yield frontend
    frontend.close()


def arrival(clf: nfc.ContactlessFrontend) -> tuple[object, str | None]:
    """What the reader loop does for a new card: sense, activate, read the NDEF record."""
    target = clf.sense(A, iterations=1)
    assert target is not None
    tag = nfc.tag.activate(clf, target)
    assert tag is not None and tag.ndef is not None
    return tag, decode_card_id(list(tag.ndef.records))


@pytest.mark.parametrize(("model", "capacity"), [("NTAG213", 142), ("NTAG215", 492)])
def test_nfcpy_senses_reads_writes_and_notices_removal(
    reader: EmulatedPN532, clf: nfc.ContactlessFrontend, model: str, capacity: int
) -> None:
    assert clf.sense(A, iterations=1) is None
    reader.place(NtagCard.for_card(UID, "core/zapbot", model=model))
    tag, card = arrival(clf)
    assert (str(tag), card) == (f"Type2Tag 'NXP {model}' ID={UID}", "core/zapbot")
    assert tag.ndef.capacity == capacity  # type: ignore[attr-defined]
    tag.ndef.records = [card_record("oops/sheriff")]  # type: ignore[attr-defined]
    assert reader.card is not None and decode_card_id(_records(reader.card)) == "oops/sheriff"
    assert bytes(clf.exchange(b"\x30\x00", 0.005))[:3] == bytes.fromhex(UID)[:3]
    reader.lift()
    with pytest.raises(nfc.clf.TimeoutError):
        clf.exchange(b"\x30\x00", 0.005)
    assert clf.sense(A, iterations=1) is None


def _records(card: NtagCard) -> list[object]:
    import ndef

    length = card.memory[17]
    return list(ndef.message_decoder(bytes(card.memory[18 : 18 + length])))


def test_a_new_card_costs_what_the_research_counted(
    reader: EmulatedPN532, clf: nfc.ContactlessFrontend
) -> None:
    """pn532-timing.md §0: sense + activate + NDEF is 32 round trips and about 1,050 bytes;
    a resting card's presence READ is 4 round trips and 139 bytes."""
    reader.place(NtagCard.for_card(UID, "core/zapbot"))
    before = reader.stats
    arrival(clf)
    new_card = reader.stats - before
    assert new_card.round_trips == 32
    assert 1000 <= new_card.uart_bytes <= 1100
    assert 0.060 <= new_card.modelled_s <= 0.140  # the notes' range on a Pi UART at 921600
    before = reader.stats
    clf.exchange(b"\x30\x00", 0.005)
    presence = reader.stats - before
    assert (presence.round_trips, presence.uart_bytes) == (4, 139)
    assert 0.006 <= presence.modelled_s <= 0.015


@pytest.mark.parametrize(
    ("reader", "low", "high"),
    [
        ("ideal", 0.0, 0.0),
        ("cp210x-115200", 0.140, 0.230),  # notes §0: 145-220 ms at 115200, +bridge
        ("ftdi-default", 0.500, 0.700),  # notes §0: about 0.6 s at the 16 ms timer
        ("ftdi-1ms", 0.060, 0.140),
    ],
    indirect=["reader"],
)
def test_each_profile_prices_a_new_card(
    reader: EmulatedPN532, clf: nfc.ContactlessFrontend, low: float, high: float
) -> None:
    reader.place(NtagCard.for_card(UID, "core/zapbot"))
    before = reader.stats
    arrival(clf)
    assert low <= (reader.stats - before).modelled_s <= high


def test_a_lifted_card_costs_the_exchange_timeout_nfcpy_programs(
    reader: EmulatedPN532, clf: nfc.ContactlessFrontend
) -> None:
    reader.place(NtagCard.for_card(UID))
    arrival(clf)
    clf.exchange(b"\x30\x00", 0.005)
    there = reader.stats
    clf.exchange(b"\x30\x00", 0.005)
    answered = reader.stats - there
    reader.lift()
    gone = reader.stats
    with pytest.raises(nfc.clf.TimeoutError):
        clf.exchange(b"\x30\x00", 0.005)
    missed = reader.stats - gone
    # 5 ms rounds up to 6.4 ms on the PN532's timeout grid, instead of 2.0 ms of READ on air
    assert missed.modelled_s - answered.modelled_s == pytest.approx(0.0064 - 0.00202, abs=2e-4)


def test_an_empty_sense_pays_the_field_guard_and_two_tries(
    reader: EmulatedPN532, clf: nfc.ContactlessFrontend
) -> None:
    assert reader.chip.passive_activation_retries == 1  # nfcpy's RFConfiguration item 5
    before = reader.stats
    assert clf.sense(A, iterations=1) is None
    empty = reader.stats - before
    assert empty.round_trips == 4  # field off, InListPassiveTarget, ReadRegister, field off
    assert 0.0091 <= empty.modelled_s <= 0.016  # 5.1 ms guard + 2 x 2 ms + link


def test_dropped_reads_time_out_and_the_card_stays_selected() -> None:
    emulated = EmulatedPN532("lossy", "ideal", drop_reads=1.0)
    try:
        clf = nfc.ContactlessFrontend(emulated.path)
        emulated.place(NtagCard.for_card(UID))
        assert clf.sense(A, iterations=1) is not None
        with pytest.raises(nfc.clf.TimeoutError):
            clf.exchange(b"\x30\x00", 0.005)
        assert bytes(clf.exchange(b"\x60", 0.01))[:3] == bytes.fromhex("000404")
        clf.close()
    finally:
        emulated.close()


def test_a_missing_reader_cannot_be_opened_until_plugged() -> None:
    emulated = EmulatedPN532("missing", "ideal", present=False)
    try:
        assert not os.path.exists(emulated.device)
        assert not nfc.ContactlessFrontend().open(emulated.path)
        emulated.plug()
        clf = nfc.ContactlessFrontend(emulated.path)
        emulated.unplug()
        with pytest.raises((OSError, termios.error)):  # pyserial's flush meets the closed pty
            clf.sense(A, iterations=1)
    finally:
        emulated.close()


# the frames, byte by byte


@pytest.fixture
def port(reader: EmulatedPN532) -> Iterator[int]:
    fd = os.open(reader.device, os.O_RDWR | os.O_NOCTTY)
    yield fd
    os.close(fd)


def talk(fd: int, data: bytes, expect: int) -> bytes:
    os.write(fd, data)
    got = b""
    while len(got) < expect and select.select([fd], [], [], 2)[0]:
        got += os.read(fd, 512)
    return got


def command(code: int, data: bytes = b"") -> bytes:
    return information_frame(bytes([0xD4, code]) + data)


@pytest.mark.parametrize("reader", ["ideal"], indirect=True)
def test_malformed_frames_get_a_nack_and_unknown_commands_the_error_frame(
    reader: EmulatedPN532, port: int
) -> None:
    good = command(0x02)
    assert talk(port, good, 19) == ACK + answer_frame(0x02, bytes.fromhex("32010607"))
    bad_length = good[:4] + b"\x00" + good[5:]
    assert talk(port, bad_length, 6) == NACK
    bad_data = good[:-2] + b"\x00\x00"
    assert talk(port, bad_data, 6) == NACK
    assert talk(port, command(0x03), 14) == ACK + ERROR_FRAME  # no such command
    assert talk(port, command(0x14, b"\x09"), 14) == ACK + ERROR_FRAME  # SAM mode 9
    assert talk(port, command(0x8C, bytes(40)), 14) == ACK + ERROR_FRAME  # target mode
    before = reader.stats
    assert talk(port, ACK, 0) == b""  # the host's ACK aborts; nothing comes back
    eventually(lambda: reader.stats != before, timeout=2, what="the emulator counting the exchange")
    assert reader.stats - before == LinkStats(bytes_to_chip=6)


@pytest.mark.parametrize("reader", ["ideal"], indirect=True)
def test_extended_frames_and_the_line_test(reader: EmulatedPN532, port: int) -> None:
    data = b"\x00" + bytes(range(256)) + bytes(5)  # Diagnose 0: the data comes back
    frame = command(0x00, data)
    assert frame[3:5] == b"\xff\xff"  # an extended frame
    reply = talk(port, frame, 6 + 8 + len(data) + 4)
    assert reply == ACK + answer_frame(0x00, data)
    assert reply[9:11] == b"\xff\xff"


@pytest.mark.parametrize("reader", ["ideal"], indirect=True)
def test_a_powered_down_chip_wakes_only_on_a_long_preamble(
    reader: EmulatedPN532, port: int
) -> None:
    assert talk(port, command(0x16, b"\xb0\x00"), 16) == ACK + answer_frame(0x16, b"\x00")
    assert talk(port, command(0x02), 0) == b""  # asleep: the frame is lost
    assert reader.chip.asleep
    woken = talk(port, bytes(10) + command(0x02), 19)
    assert woken == ACK + answer_frame(0x02, bytes.fromhex("32010607"))


def test_the_serving_thread_runs_ahead_of_ordinary_threads(reader: EmulatedPN532) -> None:
    # nfcpy gives each command 100 ms to be ACKed: on a loaded machine an ordinary thread can
    # wait longer than that to run, and the open or the command fails (EIO, ETIMEDOUT)
    (serving,) = [t for t in threading.enumerate() if t.name == f"sim-pn532-{reader.name}"]
    assert serving.native_id is not None
    policy = os.sched_getscheduler(serving.native_id)
    nice = os.getpriority(os.PRIO_PROCESS, serving.native_id)
    assert policy == os.SCHED_RR or nice < 0


@pytest.mark.parametrize("reader", ["ideal"], indirect=True)
def test_set_serial_baudrate_takes_effect_on_the_host_ack(reader: EmulatedPN532, port: int) -> None:
    assert talk(port, command(0x10, b"\x07"), 15) == ACK + answer_frame(0x10, b"")
    assert reader.chip.baud == 115200
    talk(port, ACK, 0)
    eventually(lambda: reader.chip.baud == 921600, timeout=2, what="the emulator at 921600 baud")


def test_a_reader_that_cannot_open_says_why() -> None:
    with pytest.raises(ValueError, match="no PN532 link profile 'usb-2'; use one of ideal"):
        EmulatedPN532("x", "usb-2")
    with pytest.raises(EmulatorUnavailable, match=r"cannot write .*sim:udp"):
        EmulatedPN532("x", device_dir="/proc")


def test_pwd_auth_answers_pack_and_authenticate_goes_mute(
    reader: EmulatedPN532, clf: nfc.ContactlessFrontend
) -> None:
    reader.place(NtagCard.for_card(UID))
    assert clf.sense(A, iterations=1) is not None
    assert bytes(clf.exchange(b"\x1b\xff\xff\xff\xff", 0.01)) == b"\x00\x00"  # the PACK
    assert bytes(clf.exchange(b"\x1b\x01\x02\x03\x04", 0.01)) == b"\x00"  # a NAK
    assert clf.sense(A, iterations=1) is not None
    with pytest.raises(nfc.clf.TimeoutError):  # MIFARE Ultralight C's AUTHENTICATE: no answer
        clf.exchange(b"\x1a\x00", 0.01)
    with pytest.raises(nfc.clf.TimeoutError):  # and the NTAG went back to idle
        clf.exchange(b"\x30\x00", 0.005)


def test_general_status_and_the_field_follow_rf_configuration(
    reader: EmulatedPN532, clf: nfc.ContactlessFrontend
) -> None:
    chipset = clf.device.chipset
    assert chipset.get_general_status()[1] == 0  # nfcpy's open ends with the field off
    reader.place(NtagCard.for_card(UID))
    assert clf.sense(A, iterations=1) is not None
    assert chipset.get_general_status()[1:3] == bytearray([1, 1])  # field on, one target
    assert reader.chip.retry_timeout == 0x0A  # nfcpy's open programs 51.2 ms
    clf.exchange(b"\x30\x00", 0.005)
    assert reader.chip.retry_timeout == 0x07  # 5 ms rounded up to 6.4 ms


class FakeClock:
    """The emulator's clock in the waiting-search tests: it moves when the emulator sleeps
    (its answers' modelled delays) and when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def timed() -> Iterator[tuple[EmulatedPN532, FakeClock, int]]:
    clock = FakeClock()
    emulated = EmulatedPN532("waiting", "pi-uart-921600", sleep=clock.sleep, clock=clock)
    fd = os.open(emulated.device, os.O_RDWR | os.O_NOCTTY)
    yield emulated, clock, fd
    os.close(fd)
    emulated.close()


SEARCH = command(0x4A, b"\x01\x00")
FOUND = answer_frame(0x4A, bytes.fromhex("01010044000704A1B2C3D4E5F6"))


def search_began(emulated: EmulatedPN532) -> float:
    """When the chip began the RF work of a search sent at the clock's start (100.0): the
    frame and the ACK on the wire at 115200 (no baud change here), then its firmware time."""
    link = emulated.profile
    return link.uart_s(len(SEARCH), 115200) + link.uart_s(len(ACK), 115200) + link.firmware_s


def test_a_card_put_on_during_an_endless_search_answers_on_the_next_try(
    timed: tuple[EmulatedPN532, FakeClock, int],
) -> None:
    emulated, clock, port = timed
    assert emulated.chip.passive_activation_retries == 0xFF  # power-on: search until found
    assert talk(port, SEARCH, 6) == ACK  # no card: the chip keeps searching, the host waits
    clock.now = 100.0301  # 30.1 ms after the search was sent
    emulated.place(NtagCard.for_card(UID))
    got = b""
    while len(got) < len(FOUND) and select.select([port], [], [], 2)[0]:
        got += os.read(port, 512)
    assert got == FOUND
    # it came 30.1 ms after the frame; tries start 5.1 ms (the guard) after the RF work began
    # and every 2 ms after that: the first try after it met it, 4.4 ms of activation later the
    # answer went out
    began = search_began(emulated)
    met = 0.0051 + math.ceil((0.0301 - began - 0.0051) / 0.002) * 0.002
    answer_wire = emulated.profile.uart_s(len(FOUND), 115200)
    assert emulated.stats.modelled_s == pytest.approx(began + met + 0.0044 + answer_wire)
    assert emulated.stats.round_trips == 1


def test_the_host_ack_aborts_a_search_and_the_chip_takes_the_next_command(
    timed: tuple[EmulatedPN532, FakeClock, int],
) -> None:
    emulated, clock, port = timed
    assert talk(port, SEARCH, 6) == ACK
    sent = emulated.stats
    assert talk(port, ACK, 0) == b""  # the host gives up on it
    eventually(
        lambda: emulated.stats.bytes_to_chip == sent.bytes_to_chip + len(ACK),
        timeout=2,
        what="the emulator taking the host's ACK",
    )
    emulated.place(NtagCard.for_card(UID))  # too late: nothing answers the aborted search
    firmware = answer_frame(0x02, bytes.fromhex("32010607"))
    assert talk(port, command(0x02), 6 + len(firmware)) == ACK + firmware
    assert emulated.chip.field_on  # an aborted search leaves the field on
    assert talk(port, SEARCH, 6 + len(FOUND)) == ACK + FOUND  # the next search finds it


def test_a_finite_search_answers_no_target_after_its_tries(
    timed: tuple[EmulatedPN532, FakeClock, int],
) -> None:
    emulated, clock, port = timed
    configured = answer_frame(0x32, b"")
    assert talk(port, command(0x32, b"\x05\xff\x01\x03"), 6 + len(configured)) == ACK + configured
    before = emulated.stats
    started = clock.now
    assert talk(port, SEARCH, 6) == ACK
    clock.now = started + 0.1  # past its four tries: it gives up at its next look
    none = answer_frame(0x4A, b"\x00")
    got = b""
    while len(got) < len(none) and select.select([port], [], [], 2)[0]:
        got += os.read(port, 512)
    assert got == none
    spent = emulated.stats - before
    link = emulated.profile
    ends = 0.0051 + 4 * 0.002
    assert spent.modelled_s == pytest.approx(
        search_began(emulated) + ends + link.uart_s(len(none), 115200)
    )


def test_another_command_instead_of_the_ack_also_ends_the_search(
    timed: tuple[EmulatedPN532, FakeClock, int],
) -> None:
    emulated, clock, port = timed
    assert talk(port, SEARCH, 6) == ACK
    firmware = answer_frame(0x02, bytes.fromhex("32010607"))
    assert talk(port, command(0x02), 6 + len(firmware)) == ACK + firmware
    emulated.place(NtagCard.for_card(UID))
    assert talk(port, command(0x02), 6 + len(firmware)) == ACK + firmware  # no stray answer
