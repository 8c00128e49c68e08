"""The reader board's host side against a real pseudo-terminal (the test plays the board)."""

from __future__ import annotations

import json
import os
import queue
import re
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.hardware.readers.base import ReaderError, TagRead
from companion.hardware.readers.board_protocol import (
    BoardError,
    ChannelStatus,
    HealthReport,
    TagEvent,
    decode_line,
)
from companion.hardware.readers.registry import ReaderContext, open_reader
from companion.hardware.readers.serial_board import (
    BoardChannel,
    SerialBoard,
    SerialPort,
    backoff,
    open_serial,
)
from tests.waiting import eventually

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
EXAMPLES = (FIRMWARE / "examples.jsonl").read_text().splitlines()
BAD_EXAMPLES = [
    json.loads(line) for line in (FIRMWARE / "examples_bad.jsonl").read_text().split("\n") if line
]
ZONES = ("base-1", "base-2", "base-3", "sentinel")


class FakeBoard:
    """A board on a pty: the host opens the slave end through ``link``, a symlink the test takes
    away (:meth:`unplug`) and points at a new pty (:meth:`plug`)."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = self.slave = -1

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        fresh = self.link.with_name(self.link.name + ".new")
        fresh.symlink_to(os.ttyname(self.slave))
        fresh.replace(self.link)

    def unplug(self) -> None:
        self.link.unlink(missing_ok=True)
        if self.master >= 0:
            os.close(self.master)
            os.close(self.slave)
        self.master = self.slave = -1

    def send(self, **fields: Any) -> None:
        self.write(json.dumps({"v": 1, **fields}).encode() + b"\n")

    def write(self, data: bytes) -> None:
        os.write(self.master, data)


class Reads:
    """Every zone's reads, in the order the board thread delivered them."""

    def __init__(self) -> None:
        self.queue: queue.Queue[TagRead] = queue.Queue()

    def until_sentinel(self, fake: FakeBoard, timeout: float = 3.0) -> list[tuple[str, str, str]]:
        """The reads before a sentinel arrival on channel 3: lines are handled in order, so
        nothing that was sent before it can arrive after it (no sleeping to prove absence)."""
        fake.send(ev="arrived", ch=3, uid="08000001", t=1)
        fake.send(ev="left", ch=3, uid="08000001", t=2)
        got: list[tuple[str, str, str]] = []
        while True:
            read = self.queue.get(timeout=timeout)
            if read.zone == "sentinel":
                assert self.queue.get(timeout=timeout).kind == "left"
                return got
            got.append((read.zone, read.kind, read.uid))


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeBoard]:
    board = FakeBoard(tmp_path / "ttyBOARD")
    board.plug()
    yield board
    board.unplug()


@pytest.fixture
def reads() -> Reads:
    return Reads()


@pytest.fixture
def board(fake: FakeBoard, reads: Reads) -> Iterator[SerialBoard]:
    board = SerialBoard(str(fake.link), lambda: 42.0)
    for n, zone in enumerate(ZONES):
        board.channel(n, zone, reads.queue.put).start()
    assert board.connected.wait(3)  # pyserial drops what came before it opened the port
    yield board
    board.close()


def health(board: SerialBoard, n: int) -> Any:
    return board.channels[n].health.snapshot()


def test_factory_channels_deliver_arrivals_and_departures(fake: FakeBoard) -> None:
    reads: queue.Queue[TagRead] = queue.Queue()
    context = ReaderContext(lambda: 7.5)
    readers = [
        open_reader(f"serial:{fake.link}#{n}", z, reads.put, context.clock, context)
        for n, z in enumerate(["a", "b"])
    ]
    try:
        assert all(isinstance(reader, BoardChannel) for reader in readers)
        for reader in readers:
            reader.start()
        assert readers[0].board.connected.wait(3)  # type: ignore[attr-defined]
        fake.send(ev="hello", fw="1.0", channels=4)
        fake.send(ev="arrived", ch=1, uid="04a1b2c3d4e5f6", t=10)
        assert reads.get(timeout=3) == TagRead("b", "04A1B2C3D4E5F6", "arrived", 7.5)
        fake.send(ev="arrived", ch=0, uid="04AABBCCDDEEFF", t=20, card="core/king-rex")
        assert reads.get(timeout=3) == TagRead(
            "a", "04AABBCCDDEEFF", "arrived", 7.5, "core/king-rex"
        )
        fake.send(ev="left", ch=1, uid="04A1B2C3D4E5F6", t=900)
        assert reads.get(timeout=3) == TagRead("b", "04A1B2C3D4E5F6", "left", 7.5)
        assert readers[1].health.snapshot().state == "ok"
    finally:
        context.close()
    assert all(reader.health.snapshot().state == "stopped" for reader in readers)


def test_health_lines_update_each_zones_health(
    fake: FakeBoard, board: SerialBoard, reads: Reads
) -> None:
    failing = {"ch": 1, "ok": False, "polls": 3, "errors": 2, "present": None}
    fake.send(
        ev="health",
        t=2000,
        ch=[{"ch": 0, "ok": True, "polls": 9, "errors": 0, "present": None}, failing],
    )
    fake.send(ev="health", t=4000, ch=[failing])  # still failing: not another error
    fake.send(ev="error", ch=2, msg="PN532 did not acknowledge", t=4100)
    assert reads.until_sentinel(fake) == []
    assert health(board, 0).state == "ok" and health(board, 0).last_poll == 42.0
    assert (health(board, 1).state, health(board, 1).errors) == ("reopening", 1)
    assert health(board, 2).last_error == "channel 2: PN532 did not acknowledge"
    fake.send(ev="health", t=6000, ch=[{**failing, "ok": True}])
    eventually(lambda: health(board, 1).state == "ok", what="channel 1's health ok")


def test_garbled_lines_are_counted_and_skipped(
    fake: FakeBoard, board: SerialBoard, reads: Reads
) -> None:
    for bad in BAD_EXAMPLES:
        fake.write(bad["line"].encode() + b"\n")
    fake.write(b"\xff\xfe\x00\n" + b"x" * 5000)  # not UTF-8, then a line far too long
    fake.write(b"y" * 100 + b'"}\n')
    fake.send(ev="arrived", ch=0, uid="04BBBBBBBBBBBB", t=3000)
    assert reads.until_sentinel(fake) == [("base-1", "arrived", "04BBBBBBBBBBBB")]
    count = len(BAD_EXAMPLES) - 1 + 2  # the empty line is skipped, not garbled
    assert board.garbled == count
    assert health(board, 2).errors == count and health(board, 2).state == "starting"
    assert "garbled line" in health(board, 2).last_error


def test_no_phantom_events_across_an_unplugged_board(
    fake: FakeBoard, board: SerialBoard, reads: Reads
) -> None:
    fake.send(ev="arrived", ch=0, uid="04CCCCCCCCCCCC", t=10)
    fake.send(ev="arrived", ch=1, uid="04DDDDDDDDDDDD", t=10)
    fake.send(ev="arrived", ch=2, uid="04EEEEEEEEEEEE", t=10)
    assert len(reads.until_sentinel(fake)) == 3
    fake.unplug()
    eventually(
        lambda: all(health(board, n).state == "reopening" for n in range(4)),
        what="every channel reopening",
    )
    eventually(  # the vanished port, then a failed reopen
        lambda: health(board, 0).errors >= 2, what="two errors on channel 0"
    )
    assert "ttyBOARD" in health(board, 0).last_error and reads.queue.empty()
    fake.plug()
    assert board.connected.wait(3)
    eventually(lambda: health(board, 0).reopens == 1, what="the board's thread reopening the port")
    # The board restarted meanwhile: channel 0 still sees its card, channel 1 is empty, and
    # channel 2 holds another card (its arrival line was lost with the port).
    fake.send(ev="hello", fw="1.0", channels=4)
    fake.send(ev="arrived", ch=0, uid="04CCCCCCCCCCCC", t=5)
    fake.send(ev="left", ch=1, uid="04FFFFFFFFFFFF", t=6)  # never ours: nothing to say
    status = {"ok": True, "polls": 1, "errors": 0}
    present = ["04CCCCCCCCCCCC", None, "04ABABABABABAB", None]
    fake.send(
        ev="health", t=2000, ch=[{"ch": n, "present": p, **status} for n, p in enumerate(present)]
    )
    assert reads.until_sentinel(fake) == [
        ("base-2", "left", "04DDDDDDDDDDDD"),
        ("base-3", "left", "04EEEEEEEEEEEE"),
        ("base-3", "arrived", "04ABABABABABAB"),
    ]
    assert health(board, 0).state == "ok" and board.hello is not None


def test_a_failing_channels_health_is_not_a_removal(
    fake: FakeBoard, board: SerialBoard, reads: Reads
) -> None:
    fake.send(ev="arrived", ch=0, uid="04CCCCCCCCCCCC", t=10)
    fake.send(
        ev="health", t=2000, ch=[{"ch": 0, "ok": False, "polls": 0, "errors": 1, "present": None}]
    )
    assert reads.until_sentinel(fake) == [("base-1", "arrived", "04CCCCCCCCCCCC")]
    assert board.channels[0].present == "04CCCCCCCCCCCC"


def test_a_port_that_is_not_there_yet_is_retried(tmp_path: Path, reads: Reads) -> None:
    fake = FakeBoard(tmp_path / "ttyLATE")
    board = SerialBoard(str(fake.link), time.monotonic)
    channel = board.channel(3, "sentinel", reads.queue.put)
    channel.start()
    try:
        eventually(lambda: channel.health.snapshot().errors >= 3, what="three errors counted")
        snapshot = channel.health.snapshot()
        assert snapshot.state == "reopening" and "cannot open" in (snapshot.last_error or "")
        fake.plug()
        assert board.connected.wait(3)
        assert reads.until_sentinel(fake) == []
        assert channel.health.snapshot().reopens == 1
    finally:
        board.close()
        fake.unplug()


def test_backoff_doubles_from_a_tenth_to_one_second() -> None:
    assert [backoff(n) for n in range(1, 8)] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0])
    assert backoff(10_000) == 1.0


def test_nothing_ends_the_board_thread(fake: FakeBoard, reads: Reads) -> None:
    opened: list[str] = []

    def opener(path: str) -> SerialPort:
        opened.append(path)
        if len(opened) == 1:
            raise RuntimeError("a driver bug")
        return open_serial(path)

    def sink(read: TagRead) -> None:
        reads.queue.put(read)
        if read.zone == "base-1":
            raise KeyError("the tracker's bug")

    board = SerialBoard(str(fake.link), time.monotonic, opener=opener)
    board.channel(0, "base-1", sink).start()
    board.channel(3, "sentinel", reads.queue.put).start()
    try:
        assert board.connected.wait(3) and len(opened) == 2
        fake.send(ev="arrived", ch=0, uid="04CCCCCCCCCCCC", t=10)
        assert reads.until_sentinel(fake) == [("base-1", "arrived", "04CCCCCCCCCCCC")]
        assert "the sink failed" in (board.channels[0].health.snapshot().last_error or "")
    finally:
        board.close()


def test_a_silent_board_is_reopened(fake: FakeBoard, reads: Reads) -> None:
    board = SerialBoard(str(fake.link), time.monotonic, silence=0.2)
    channel = board.channel(0, "base-1", reads.queue.put)
    channel.start()
    try:
        eventually(lambda: channel.health.snapshot().reopens >= 1, what="a reopen after silence")
        assert "no lines" in (channel.health.snapshot().last_error or "")
    finally:
        board.close()


def test_stopping_the_last_channel_stops_the_thread_and_restart_catches_up(
    fake: FakeBoard, board: SerialBoard, reads: Reads
) -> None:
    fake.send(ev="arrived", ch=0, uid="04CCCCCCCCCCCC", t=10)
    assert reads.until_sentinel(fake) == [("base-1", "arrived", "04CCCCCCCCCCCC")]
    for channel in board.channels.values():
        channel.stop()
    assert not board.connected.is_set()
    assert not any(thread.name == f"board {board.port}" for thread in threading.enumerate())
    assert health(board, 0).state == "stopped"
    board.channels[0].start()  # the card was lifted while the zone was stopped
    board.channels[3].start()
    assert board.connected.wait(3)
    fake.send(
        ev="health", t=9000, ch=[{"ch": 0, "ok": True, "polls": 5, "errors": 0, "present": None}]
    )
    assert reads.until_sentinel(fake) == [("base-1", "left", "04CCCCCCCCCCCC")]


def test_channels_are_zero_to_three_one_zone_each(tmp_path: Path) -> None:
    board = SerialBoard(str(tmp_path / "tty"), time.monotonic)
    board.channel(0, "base-1", print)
    with pytest.raises(ReaderError, match="channel 0 of .* is zone base-1's"):
        board.channel(0, "base-2", print)
    with pytest.raises(ReaderError, match="channels 0 to 3"):
        board.channel(4, "base-2", print)
    board.close()


@pytest.mark.parametrize("line", EXAMPLES)
def test_host_decodes_the_firmware_examples(line: str) -> None:
    decode_line(line)
    decode_line(line.encode() + b"\r\n")


@pytest.mark.parametrize("bad", BAD_EXAMPLES, ids=[b["error"] for b in BAD_EXAMPLES])
def test_host_refuses_the_bad_examples_with_the_same_message(bad: dict[str, str]) -> None:
    with pytest.raises(ValueError, match=re.escape(bad["error"])):
        decode_line(bad["line"])


def test_decoded_lines_are_typed_values() -> None:
    assert decode_line(EXAMPLES[2]) == TagEvent(
        "arrived", 3, "04A1B2C3D4E5F7", 123460, "core/king-rex"
    )
    report = decode_line(EXAMPLES[5])
    assert isinstance(report, HealthReport) and report.t == 126000
    assert report.channels[1] == ChannelStatus(1, True, 811, 0, "04AABBCCDDEEFF")
    with pytest.raises(ValueError, match="not UTF-8"):
        decode_line(b"\xff")
    assert decode_line(EXAMPLES[-1]) == BoardError(1, "PN532 did not answer", None)  # no "t"


def test_board_lines_too_deep_or_not_numbers_are_garbled_not_a_crash() -> None:
    for raw in (b"[" * 5000 + b"]" * 5000, b'{"v": NaN, "ev": "hello"}', b'{"v": 1e999}'):
        with pytest.raises(ValueError):
            decode_line(raw)
