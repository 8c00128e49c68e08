"""The reader board's firmware logic, run on the host (no MicroPython, no hardware)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))

import pn532  # noqa: E402
import poller  # noqa: E402
import protocol  # noqa: E402

from companion.readers.serial_board import decode_line  # noqa: E402


def test_protocol_round_trip_and_host_agreement() -> None:
    line = protocol.encode("arrived", ch=2, uid="04A1B2C3D4E5F6", t=10)
    assert protocol.decode(line)["uid"] == "04A1B2C3D4E5F6"
    assert decode_line(line).channel == 2
    for example in (FIRMWARE / "examples.jsonl").read_text().splitlines():
        assert protocol.decode(example)["v"] == 1
        decode_line(example)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("nope", "not JSON"),
        ('{"v": 9}', "version 1"),
        ('{"v": 1, "ev": "x"}', "unknown"),
        ('{"v": 1, "ev": "left", "ch": 4, "uid": "04"}', "0 to 3"),
        ('{"v": 1, "ev": "left", "ch": 0, "uid": ""}', "hex digits"),
    ],
)
def test_protocol_errors(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        protocol.decode(line)
    with pytest.raises(ValueError):
        decode_line(line)


def test_poller_arrival_at_once_removal_after_three_misses() -> None:
    channel = poller.ChannelPoller(1)
    assert channel.result(0, "04AA") == [("arrived", {"ch": 1, "uid": "04AA", "t": 0})]
    assert channel.result(10, None) == [] and channel.result(20, None) == []
    assert channel.result(30, None) == [("left", {"ch": 1, "uid": "04AA", "t": 30})]
    assert channel.present is None


def test_poller_flapping_card_is_one_arrival() -> None:
    channel = poller.ChannelPoller(0)
    events = []
    for n in range(40):
        events += channel.result(n * 10, "04AA" if n % 2 == 0 else None)
    assert [e for e, _ in events] == ["arrived"]


def test_poller_swapped_card_leaves_then_arrives() -> None:
    channel = poller.ChannelPoller(0)
    channel.result(0, "04AA")
    assert [e for e, _ in channel.result(10, "04BB")] == ["left", "arrived"]


def test_poller_errors_are_not_removals_and_back_off() -> None:
    channel = poller.ChannelPoller(0)
    channel.initialised(0)
    channel.result(0, "04AA")
    assert channel.failed(100, "SPI timeout")[0][0] == "error"
    assert channel.present == "04AA" and not channel.ok
    assert not channel.needs_init(150) and channel.needs_init(200)
    channel.failed(200, "again")
    assert not channel.needs_init(350) and channel.needs_init(400)  # back-off doubled
    channel.initialised(400)
    assert channel.result(410, "04AA") == []  # still the same card: nothing to say
    assert channel.health() == {"ch": 0, "ok": True, "polls": 2, "errors": 2, "present": "04AA"}


def test_pn532_frames() -> None:
    assert pn532.frame(0x02) == bytes.fromhex("0000FF02FED4022A00")
    assert pn532.frame(0x4A, b"\x01\x00") == bytes.fromhex("0000FF04FCD44A0100E100")
    body = bytes.fromhex("D54B01010044000704A1B2C3D4E5F6")
    response = bytes.fromhex("0000FF") + bytes([len(body), (0x100 - len(body)) & 0xFF]) + body
    response += bytes([(0x100 - sum(body)) & 0xFF, 0x00])
    assert pn532.target_uid(pn532.parse(response, 0x4A)) == "04A1B2C3D4E5F6"
    assert pn532.target_uid(pn532.parse(pn532_answer(0x4A, b"\x00"), 0x4A)) is None
    with pytest.raises(ValueError, match="checksum"):
        pn532.parse(response[:-2] + b"\x00\x00", 0x4A)
    with pytest.raises(ValueError, match="not an answer"):
        pn532.parse(response, 0x02)
    assert pn532.reverse_bits(b"\x01\x80\xf0") == b"\x80\x01\x0f"


def pn532_answer(command: int, data: bytes) -> bytes:
    body = bytes([0xD5, command + 1]) + data
    return (
        bytes.fromhex("0000FF")
        + bytes([len(body), (0x100 - len(body)) & 0xFF])
        + body
        + bytes([(0x100 - sum(body)) & 0xFF, 0x00])
    )


class FakeBus:
    """The SPI bus and chip select of one PN532 that answers like the chip (bit-reversed)."""

    def __init__(self, answers: list[bytes]) -> None:
        self.answers = answers
        self.written: list[bytes] = []
        self.pending = b""

    def value(self, level: int) -> None:
        pass

    def write(self, data: bytes) -> None:
        data = pn532.reverse_bits(data)
        self.written.append(data)
        if data[0] == pn532.SPI_WRITE:
            self.pending = self.answers.pop(0)
        self.op = data[0]

    def read(self, count: int) -> bytes:
        if self.op == pn532.SPI_STATUS:
            return pn532.reverse_bits(b"\x01")
        if count == 6:
            return pn532.reverse_bits(pn532.ACK)
        return pn532.reverse_bits(self.pending.ljust(count, b"\x00"))


def test_pn532_driver_polls_a_uid_over_a_scripted_bus() -> None:
    bus = FakeBus([pn532_answer(0x4A, bytes.fromhex("01010044000704A1B2C3D4E5F6"))])
    chip = pn532.PN532(bus, bus, lambda ms: None, iter(range(0, 10**6, 5)).__next__)
    assert chip.poll() == "04A1B2C3D4E5F6"
    assert bus.written[0] == bytes([pn532.SPI_WRITE]) + pn532.frame(0x4A, b"\x01\x00")
