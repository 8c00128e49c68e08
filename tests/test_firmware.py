"""The reader board's firmware logic, run on the host (no MicroPython, no hardware)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import ndef
import pytest

from companion.hardware.readers.board_protocol import decode_line
from companion.hardware.readers.ndef_card import encode_card_id

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))
import main as board_main  # noqa: E402
import ntag  # noqa: E402
import pn532  # noqa: E402
import poller  # noqa: E402
import protocol  # noqa: E402

sys.path.remove(str(FIRMWARE))

EXAMPLES = (FIRMWARE / "examples.jsonl").read_text().splitlines()
BAD_EXAMPLES = [
    json.loads(line) for line in (FIRMWARE / "examples_bad.jsonl").read_text().split("\n") if line
]
UID = "04A1B2C3D4E5F6"


# protocol


@pytest.mark.parametrize("line", EXAMPLES)
def test_example_lines_decode_and_round_trip(line: str) -> None:
    data = protocol.decode(line)
    fields = {k: v for k, v in data.items() if k not in ("v", "ev")}
    assert protocol.decode(protocol.encode(data["ev"], **fields)) == data


@pytest.mark.parametrize("bad", BAD_EXAMPLES, ids=[b["error"] for b in BAD_EXAMPLES])
def test_bad_lines_say_what_is_wrong(bad: dict[str, str]) -> None:
    with pytest.raises(ValueError, match=re.escape(bad["error"])):
        protocol.decode(bad["line"])


def test_decode_takes_bytes_with_crlf_and_refuses_bad_utf8() -> None:
    assert protocol.decode(EXAMPLES[0].encode() + b"\r\n")["ev"] == "hello"
    with pytest.raises(ValueError, match="not UTF-8"):
        protocol.decode(b'{"v": 1, "ev": "\xff"}')


def test_encode_refuses_what_decode_would() -> None:
    with pytest.raises(ValueError, match="unknown event"):
        protocol.encode("placed", ch=0)
    with pytest.raises(ValueError, match="hex digits"):
        protocol.encode("arrived", ch=0, uid="04-A1", t=1)
    with pytest.raises(ValueError, match='"t"'):
        protocol.encode("left", ch=0, uid=UID)


# poller


def feed(channel: Any, results: list[Any], start: int = 0, step: int = 10) -> list[tuple[str, int]]:
    events = []
    for n, result in enumerate(results):
        events += [
            (name, fields.get("t")) for name, fields in channel.update(start + n * step, result)
        ]
    return events


def test_arrival_on_one_poll_removal_after_three_misses() -> None:
    channel = poller.ChannelPoller(1)
    assert channel.update(0, UID) == [("arrived", {"ch": 1, "uid": UID, "t": 0})]
    assert channel.update(10, UID) == []
    assert channel.update(20, None) == [] and channel.update(30, None) == []
    assert channel.update(40, None) == [("left", {"ch": 1, "uid": UID, "t": 40})]
    assert channel.present is None and channel.update(50, None) == []


def test_misses_are_configurable() -> None:
    assert feed(poller.ChannelPoller(0, misses=5), [UID] + [None] * 5) == [
        ("arrived", 0),
        ("left", 50),
    ]


def test_a_flapping_card_is_one_arrival() -> None:
    channel = poller.ChannelPoller(0)
    pattern = [UID, None, UID, None, None, UID, None, None, UID] * 5
    assert feed(channel, pattern) == [("arrived", 0)]
    assert feed(channel, [None] * 3, start=1000) == [("left", 1020)]


def test_a_swapped_card_leaves_then_arrives_at_once() -> None:
    channel = poller.ChannelPoller(0)
    assert feed(channel, [UID, "04AABBCCDDEEFF"]) == [("arrived", 0), ("left", 10), ("arrived", 10)]
    assert channel.present == "04AABBCCDDEEFF"


def test_reader_errors_are_never_removals() -> None:
    channel = poller.ChannelPoller(0)
    error = OSError("PN532 did not answer")
    events = feed(channel, [UID, None, None, error, error, error, error, error])
    assert [name for name, _ in events] == ["arrived", "error"]  # one error per failing spell
    assert channel.present == UID and not channel.ok
    assert channel.health() == {"ch": 0, "ok": False, "polls": 3, "errors": 5, "present": UID}
    # errors did not reset the misses: one more empty poll makes three in a row
    assert feed(channel, [None], start=500) == [("left", 500)]


def test_same_card_after_recovery_says_nothing() -> None:
    channel = poller.ChannelPoller(2)
    feed(channel, [UID, OSError("SPI"), ValueError("bad PN532 data checksum")])
    channel.initialised(100)
    assert channel.update(110, UID) == [] and channel.ok


def test_reinit_backs_off_doubling_to_two_seconds_and_resets() -> None:
    channel = poller.ChannelPoller(0)
    assert channel.needs_init(0) and not channel.ok and channel.health()["ok"] is False
    now, waits = 0, []
    for _ in range(7):
        channel.update(now, OSError("PN532 did not acknowledge"))
        wait = channel.next_init_ms - now
        assert not channel.needs_init(now + wait - 1) and channel.needs_init(now + wait)
        waits.append(wait)
        now += wait
    assert waits == [100, 200, 400, 800, 1600, 2000, 2000]
    channel.initialised(now)
    assert channel.update(now, None) == [] and channel.ok
    channel.update(now + 10, OSError("again"))
    assert channel.next_init_ms == now + 10 + 100  # a good poll reset the back-off


def test_one_error_event_per_failing_spell_which_a_good_poll_ends() -> None:
    channel = poller.ChannelPoller(3)
    assert channel.update(0, OSError("no ACK")) == [("error", {"ch": 3, "msg": "no ACK", "t": 0})]
    channel.initialised(100)  # set-up succeeded, but polls still fail: the same spell
    assert feed(channel, [OSError("a"), OSError("b")], start=100) == []
    channel.initialised(500)
    assert feed(channel, [None, RuntimeError()], start=500) == [("error", 510)]
    assert channel.errors == 4
    assert channel.update(600, RuntimeError()) == [] and channel.health()["errors"] == 5


# PN532 frames (byte sequences from the PN532 user manual, section 6.2)

ACK = bytes.fromhex("0000FF00FF00")
FIRMWARE_VERSION_ANSWER = bytes.fromhex("0000FF06FAD50332010607E800")
LIST_ANSWER_7_BYTE_UID = bytes.fromhex("0000FF0FF1D54B01010044000704A1B2C3D4E5F6CA00")
LIST_ANSWER_NO_TARGET = bytes.fromhex("0000FF03FDD54B00E000")


@pytest.mark.parametrize(
    ("command", "params", "frame"),
    [
        (0x02, b"", "0000FF02FED4022A00"),  # GetFirmwareVersion
        (0x14, b"\x01\x14\x01", "0000FF05FBD4140114010200"),  # SAMConfiguration
        (0x32, b"\x05\xff\x01\x01", "0000FF06FAD43205FF0101F400"),  # RFConfiguration MaxRetries
        (0x4A, b"\x01\x00", "0000FF04FCD44A0100E100"),  # InListPassiveTarget MaxTg=1 106A
        (0x40, b"\x01\x30\x04", "0000FF05FBD440013004B700"),  # InDataExchange READ page 4
    ],
)
def test_frames(command: int, params: bytes, frame: str) -> None:
    assert pn532.frame(command, params) == bytes.fromhex(frame)


def test_parse_answers() -> None:
    assert pn532.parse(FIRMWARE_VERSION_ANSWER, 0x02) == bytes.fromhex("32010607")
    data = pn532.parse(b"\x00\x00" + LIST_ANSWER_7_BYTE_UID + b"\x00\x00", 0x4A)
    assert data == bytes.fromhex("01010044000704A1B2C3D4E5F6")
    assert pn532.target_uid(data) == UID
    assert pn532.target_uid(pn532.parse(LIST_ANSWER_NO_TARGET, 0x4A)) is None
    assert pn532.target_uid(bytes.fromhex("01 01 0004 08 04 DEADBEEF")) == "DEADBEEF"
    assert pn532.is_ack(ACK) and pn532.is_ack(b"\x00" + ACK) and pn532.ACK == ACK
    assert not pn532.is_ack(pn532.NACK) and not pn532.is_ack(FIRMWARE_VERSION_ANSWER)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x00\x00\x00", "start code"),
        (LIST_ANSWER_7_BYTE_UID[:8], "too short"),
        (LIST_ANSWER_7_BYTE_UID[:4] + b"\xf0" + LIST_ANSWER_7_BYTE_UID[5:], "length checksum"),
        (LIST_ANSWER_7_BYTE_UID[:-2] + b"\x00\x00", "data checksum"),
        (bytes.fromhex("0000FF01FF7F8100"), "error frame"),
        (ACK, "ACK"),
        (FIRMWARE_VERSION_ANSWER, "not an answer to command 0x4A"),
        (bytes.fromhex("0000FF03FDD44B00E100"), "not an answer"),  # TFI D4: host to PN532
    ],
)
def test_parse_refuses(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pn532.parse(data, 0x4A)


def test_target_and_page_data_errors() -> None:
    with pytest.raises(ValueError, match="NFCID1 length"):
        pn532.target_uid(bytes.fromhex("0101004400070411"))
    assert pn532.pages(b"\x00" + bytes(range(16)) + b"\x90\x00") == bytes(range(16))
    with pytest.raises(OSError, match="tag error 0x01"):
        pn532.pages(b"\x01")
    assert pn532.reverse_bits(b"\x01\x80\xf0\x02") == b"\x80\x01\x0f\x40"


def answer(command: int, data: bytes) -> bytes:
    body = bytes([0xD5, command + 1]) + data
    return (
        b"\x00\x00\xff"
        + bytes([len(body), -len(body) & 0xFF])
        + body
        + bytes([-sum(body) & 0xFF, 0])
    )


NO_ACK = b""


class ScriptedPN532:
    """A PN532 on SPI, scripted expect -> respond: each frame the host writes must be the next
    expected one; it is acknowledged and answered (None: acknowledged, never answered;
    NO_ACK: ignored). Bytes are bit-reversed both ways, as on the wire."""

    def __init__(self, script: list[tuple[bytes, bytes | None]]) -> None:
        self.script = script
        self.selected = False
        self.outbox: list[bytes] = []
        self.op = 0
        self.aborted = 0

    def value(self, level: int) -> None:  # the chip select
        self.selected = level == 0

    def write(self, data: bytes) -> None:
        assert self.selected
        data = pn532.reverse_bits(data)
        self.op = data[0]
        if self.op != pn532.SPI_WRITE:
            return
        if data[1:] == ACK:
            self.aborted += 1
            self.outbox.clear()
            return
        expected, reply = self.script.pop(0)
        assert data[1:] == expected
        self.outbox = [] if reply == NO_ACK else [ACK] + ([reply] if reply is not None else [])

    def read(self, count: int) -> bytes:
        assert self.selected
        if self.op == pn532.SPI_STATUS:
            return pn532.reverse_bits(b"\x01" if self.outbox else b"\x00")
        assert self.op == pn532.SPI_READ and self.outbox
        return pn532.reverse_bits(self.outbox.pop(0).ljust(count, b"\x00")[:count])

    def assert_done(self) -> None:
        assert not self.script and not self.outbox


def chip(script: list[tuple[bytes, bytes | None]]) -> tuple[Any, ScriptedPN532]:
    bus = ScriptedPN532(script)
    return pn532.PN532(bus, bus, lambda ms: None), bus


def test_driver_initialises_polls_and_reads_over_a_scripted_bus() -> None:
    page4 = bytes(range(16))
    driver, bus = chip(
        [
            (pn532.frame(0x02), FIRMWARE_VERSION_ANSWER),
            (pn532.frame(0x14, b"\x01\x14\x01"), answer(0x14, b"")),
            (pn532.frame(0x32, b"\x05\xff\x01\x01"), answer(0x32, b"")),
            (pn532.frame(0x4A, b"\x01\x00"), LIST_ANSWER_7_BYTE_UID),
            (pn532.frame(0x40, b"\x01\x30\x04"), answer(0x40, b"\x00" + page4)),
            (pn532.frame(0x4A, b"\x01\x00"), LIST_ANSWER_NO_TARGET),
        ]
    )
    driver.init()
    assert driver.poll() == UID
    assert driver.read(4) == page4
    assert driver.poll() is None
    bus.assert_done()


def test_driver_failures_are_errors_not_empty_antennas() -> None:
    driver, bus = chip([(pn532.frame(0x4A, b"\x01\x00"), None)])
    with pytest.raises(OSError, match="did not answer"):
        driver.poll()
    assert bus.aborted == 1  # the pending command was aborted with an ACK
    driver, bus = chip([(pn532.frame(0x4A, b"\x01\x00"), NO_ACK)])
    with pytest.raises(OSError, match="did not acknowledge"):
        driver.poll()
    driver, bus = chip([(pn532.frame(0x02), answer(0x02, b"\x07\x01\x06\x07"))])
    with pytest.raises(OSError, match="not a PN532"):
        driver.init()
    driver, bus = chip(
        [(pn532.frame(0x4A, b"\x01\x00"), LIST_ANSWER_7_BYTE_UID[:-2] + b"\x01\x00")]
    )
    with pytest.raises(ValueError, match="checksum"):
        driver.poll()


# NTAG memory: the card id record


def memory(*tlvs: bytes) -> bytes:
    data = b"".join(tlvs) + b"\xfe"
    return data + bytes(-len(data) % 16)


def ndef_tlv(message: bytes) -> bytes:
    if len(message) < 0xFF:
        return bytes([0x03, len(message)]) + message
    return b"\x03\xff" + len(message).to_bytes(2, "big") + message


def reader_of(data: bytes) -> tuple[Any, list[int]]:
    pages: list[int] = []

    def read(page: int) -> bytes:
        pages.append(page)
        offset = (page - ntag.FIRST_PAGE) * 4
        return data[offset : offset + 16].ljust(16, b"\x00")

    return read, pages


def test_reads_the_card_id_the_host_writes_with_no_more_reads_than_needed() -> None:
    message = encode_card_id("core/king-rex")
    read, pages = reader_of(memory(ndef_tlv(message)))
    assert ntag.read_card_id(read) == "core/king-rex"
    assert pages == [4, 8, 12][: (len(message) + 2 + 15) // 16]


@pytest.mark.parametrize(
    ("data", "card"),
    [
        (
            memory(b"\x01\x03\xa0\x0c\x34", b"\x00\x00", ndef_tlv(encode_card_id("oops/x"))),
            "oops/x",
        ),
        (
            memory(
                ndef_tlv(
                    b"".join(
                        ndef.message_encoder(
                            [
                                ndef.UriRecord("https://x.org"),
                                *ndef.message_decoder(encode_card_id("a/b")),
                            ]
                        )
                    )
                )
            ),
            "a/b",
        ),
        (
            memory(b"\x03\xff\x00" + bytes([len(encode_card_id("c/d"))]) + encode_card_id("c/d")),
            "c/d",
        ),
        (memory(ndef_tlv(b"".join(ndef.message_encoder([ndef.UriRecord("https://x.org")])))), None),
        (memory(ndef_tlv(b"")), None),
        (memory(), None),
        (memory(ndef_tlv(encode_card_id("core/rex")[:-3])), None),
        (memory(ndef_tlv(b"\xd4\x13\x02tablecompanion:card\x01\x02")), None),
        (bytes(256), None),
    ],
    ids=[
        "lock-tlv",
        "second-record",
        "long-tlv",
        "foreign",
        "empty",
        "no-ndef",
        "truncated",
        "control-chars",
        "blank",
    ],
)
def test_card_id_parsing(data: bytes, card: str | None) -> None:
    read, _ = reader_of(data)
    assert ntag.read_card_id(read) == card


def test_card_read_errors_propagate() -> None:
    def read(page: int) -> bytes:
        raise OSError("tag error 0x01")

    with pytest.raises(OSError):
        ntag.read_card_id(read)


# the board loop (main.py) with scripted chips


class FakeChip:
    def __init__(self, polls: list[Any], init_errors: int = 0, memory: bytes = b"") -> None:
        self.polls, self.init_errors, self.memory, self.inits = polls, init_errors, memory, 0

    def init(self) -> None:
        self.inits += 1
        if self.init_errors:
            self.init_errors -= 1
            raise OSError("PN532 did not acknowledge")

    def poll(self) -> Any:
        result = self.polls.pop(0) if self.polls else None
        if isinstance(result, Exception):
            raise result
        return result

    def read(self, page: int) -> bytes:
        offset = (page - 4) * 4
        return self.memory[offset : offset + 16].ljust(16, b"\x00")


class Clock:
    now = 0

    def __call__(self) -> int:
        return self.now


def run(chips: list[FakeChip], steps: int, every_ms: int = 50) -> list[dict[str, Any]]:
    lines: list[str] = []
    clock = Clock()
    board = board_main.Board(chips, lines.append, clock)
    board.start()
    for _ in range(steps):
        clock.now += every_ms
        board.step()
    for line in lines:
        decode_line(line)  # the host understands every line the board writes
    return [protocol.decode(line) for line in lines]


def test_board_reports_arrivals_cards_errors_and_health() -> None:
    card_memory = memory(ndef_tlv(encode_card_id("core/king-rex")))
    chips = [
        FakeChip([None, UID, UID, None, None, None], memory=card_memory),
        FakeChip([], init_errors=3),
        FakeChip([None, "04AABBCCDDEEFF"] + [OSError("PN532 did not answer")] * 40),
    ]
    lines = run(chips, steps=45)
    assert lines[0] == {"v": 1, "ev": "hello", "fw": board_main.FIRMWARE, "channels": 3}
    events = [(line["ev"], line["ch"]) for line in lines[1:] if line["ev"] != "health"]
    assert events == [("error", 1), ("arrived", 0), ("arrived", 2), ("error", 2), ("left", 0)]
    arrived = next(line for line in lines if line["ev"] == "arrived" and line["ch"] == 0)
    assert (arrived["uid"], arrived["card"]) == (UID, "core/king-rex")
    assert chips[1].inits == 4  # 3 failures, backing off 100, 200, 400 ms, then success
    health = [line for line in lines if line["ev"] == "health"]
    assert [line["t"] for line in health] == [2000]
    assert health[0]["ch"][1] == {"ch": 1, "ok": True, "polls": 26, "errors": 3, "present": None}
    # channel 2 keeps failing: no "left", its card still present, re-initialised with back-off
    assert health[0]["ch"][2]["present"] == "04AABBCCDDEEFF" and not health[0]["ch"][2]["ok"]


def test_uptime_does_not_wrap() -> None:
    period = 1 << 30
    ticks = iter([period - 20, period - 5, 10, 400])
    uptime = board_main.Uptime(
        ticks.__next__, lambda a, b: (a - b + period // 2) % period - period // 2
    )
    assert [uptime(), uptime(), uptime()] == [15, 30, 420]


def test_readme_documents_the_pins_and_its_example_lines_decode() -> None:
    readme = (FIRMWARE / "README.md").read_text()
    for pin in (board_main.SCK, board_main.MOSI, board_main.MISO, *board_main.CHIP_SELECTS):
        assert f"GP{pin}" in readme
    for event in protocol.EVENTS:
        assert f"`{event}`" in readme
    block = readme.split("```jsonl\n", 1)[1].split("```", 1)[0]
    assert block.strip()
    for line in block.splitlines():
        protocol.decode(line)
        decode_line(line)
