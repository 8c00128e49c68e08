"""The board firmware's own PN532 code against emulated PN532s on a fake SPI bus, end to end
into ``serial:`` zones over a pty: the firmware's frames, its poll and debounce, the protocol
lines and the host's serial reader, all real. Waits have deadlines; nothing sleeps to pass."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from companion.hardware.readers.base import TagRead
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_spi import SPI_READ, SPI_WRITE, SpiBus, reverse_bits
from companion.hardware.readers.registry import ReaderContext, open_reader
from tests.firmware_board import EmulatedBoard, firmware_pn532
from tests.waiting import eventually

UID = "04A1B2C3D4E5F6"


@pytest.fixture
def board() -> Iterator[EmulatedBoard]:
    emulated = EmulatedBoard(channels=2)
    yield emulated
    emulated.close()


@pytest.fixture
def zones(board: EmulatedBoard) -> Iterator[queue.Queue[TagRead]]:
    reads: queue.Queue[TagRead] = queue.Queue()
    context = ReaderContext(time.monotonic)
    readers = [
        open_reader(f"serial:{board.port}#{n}", f"base-{n + 1}", reads.put, time.monotonic, context)
        for n in range(2)
    ]
    for reader in readers:
        reader.start()
    yield reads
    for reader in readers:
        reader.stop()
    context.close()


def test_the_firmware_reports_arrivals_with_card_ids_and_departures(
    board: EmulatedBoard, zones: queue.Queue[TagRead]
) -> None:
    board.place(0, NtagCard.for_card(UID, "core/king-rex"))
    arrived = zones.get(timeout=5)
    assert (arrived.zone, arrived.uid, arrived.kind, arrived.card) == (
        "base-1",
        UID,
        "arrived",
        "core/king-rex",
    )
    board.place(1, NtagCard.for_card("04AABBCCDDEEFF", model="NTAG215"))
    other = zones.get(timeout=5)
    assert (other.zone, other.uid, other.card) == ("base-2", "04AABBCCDDEEFF", None)
    board.lift(0)
    left = zones.get(timeout=5)
    assert (left.zone, left.uid, left.kind) == ("base-1", UID, "left")


def test_the_firmware_polls_one_round_trip_and_reads_a_new_card_in_a_few(
    board: EmulatedBoard, zones: queue.Queue[TagRead]
) -> None:
    chip = board.chip(0)
    eventually(  # set-up done, empty polls going
        lambda: chip.stats.round_trips >= 10, timeout=5, what="the firmware polling"
    )
    before = chip.stats
    board.place(0, NtagCard.for_card(UID, "core/king-rex"))
    assert zones.get(timeout=5).card == "core/king-rex"
    spent = chip.stats - before
    # InListPassiveTarget per poll; the arrival adds its card-id READs (4 pages each)
    assert spent.round_trips >= 3
    assert chip.chip.passive_activation_retries == 1  # the firmware's MAX_RETRIES


def test_the_firmware_driver_gets_a_nack_for_a_garbled_frame() -> None:
    bus = SpiBus(1, "ideal", clock=time.monotonic)
    chip = bus.chips[0]
    frame = bytearray(firmware_pn532.frame(0x02))
    frame[-2] ^= 0xFF  # a bad data checksum
    chip.value(0)
    bus.write(reverse_bits(bytes([SPI_WRITE]) + bytes(frame)))
    chip.value(1)
    chip.value(0)
    bus.write(reverse_bits(bytes([SPI_READ])))
    assert reverse_bits(bus.read(6)) == firmware_pn532.NACK
    chip.value(1)
    driver = firmware_pn532.PN532(bus, chip, lambda ms: None)
    driver.init()  # and a good one is answered
    with pytest.raises(ValueError, match="error frame"):
        driver.call(0x03)  # a command the PN532 does not know


def test_a_pn532_that_lists_a_resting_card_every_second_time_still_keeps_it_present() -> None:
    """pn532-timing.md §1.2: the firmware's bare InListPassiveTarget may find a resting NTAG
    only every second poll; its MISSES = 3 debounce must hold the card (no left/arrived)."""
    board = EmulatedBoard(channels=1, relist_quirk=True)
    reads: queue.Queue[TagRead] = queue.Queue()
    context = ReaderContext(time.monotonic)
    zone = open_reader(f"serial:{board.port}#0", "base-1", reads.put, time.monotonic, context)
    zone.start()
    try:
        board.place(0, NtagCard.for_card(UID, "core/king-rex"))
        assert reads.get(timeout=5).kind == "arrived"
        chip = board.chip(0)
        polls = chip.stats.round_trips
        eventually(
            lambda: chip.stats.round_trips >= polls + 20,
            timeout=5,
            what="twenty polls of the resting card",
        )
        assert reads.empty()
        board.lift(0)
        assert reads.get(timeout=5).kind == "left"
    finally:
        zone.stop()
        context.close()
        board.close()
