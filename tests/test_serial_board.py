"""The reader board's host side against a real pseudo-terminal (the test plays the board)."""

from __future__ import annotations

import json
import os
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.readers import ReaderContext, TagRead, open_reader
from companion.readers.serial_board import decode_line

EXAMPLES = Path(__file__).parent.parent / "firmware" / "examples.jsonl"


class FakeBoard:
    """A pty whose slave end the host opens through a symlink we can take away."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = -1
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        self.master, self.slave = master, slave
        if self.link.is_symlink():
            self.link.unlink()
        self.link.symlink_to(os.ttyname(slave))

    def unplug(self) -> None:
        self.link.unlink()
        os.close(self.master)
        os.close(self.slave)
        self.master = -1

    def send(self, **line: object) -> None:
        os.write(self.master, (json.dumps({"v": 1, **line}) + "\n").encode())

    def close(self) -> None:
        if self.master >= 0:
            self.unplug()


def eventually(check: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not met before the deadline"
        time.sleep(0.01)


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[FakeBoard, dict, queue.Queue[TagRead]]]:
    fake = FakeBoard(tmp_path / "ttyBOARD")
    reads: queue.Queue[TagRead] = queue.Queue()
    context = ReaderContext(time.monotonic)
    channels = {
        zone: open_reader(f"serial:{fake.link}#{n}", zone, reads.put, time.monotonic, context)
        for n, zone in enumerate(["base-1", "base-2"])
    }
    for channel in channels.values():
        channel.start()
    assert channels["base-1"].board.connected.wait(3)  # pyserial drops what came before open
    yield fake, channels, reads
    for channel in channels.values():
        channel.stop()
    context.close()
    fake.close()


def test_arrivals_and_departures_reach_their_zones(board) -> None:
    fake, _, reads = board
    fake.send(ev="hello", fw="1.0", channels=4)
    fake.send(ev="arrived", ch=1, uid="04a1b2c3d4e5f6", t=10)
    read = reads.get(timeout=3)
    assert (read.zone, read.uid, read.kind) == ("base-2", "04A1B2C3D4E5F6", "arrived")
    fake.send(ev="left", ch=1, uid="04A1B2C3D4E5F6", t=900)
    assert reads.get(timeout=3).kind == "left"
    fake.send(ev="arrived", ch=0, uid="04AA", t=950, card="core/king-rex")
    read = reads.get(timeout=3)
    assert (read.zone, read.card) == ("base-1", "core/king-rex")


def test_health_lines_and_garbage(board) -> None:
    fake, channels, reads = board
    fake.send(
        ev="health",
        t=2000,
        ch=[
            {"ch": 0, "ok": True, "polls": 10, "errors": 0, "present": None},
            {"ch": 1, "ok": False, "polls": 3, "errors": 2, "present": None},
        ],
    )
    eventually(lambda: channels["base-2"].health.snapshot().errors >= 1)
    assert channels["base-1"].health.snapshot().state == "ok"
    os.write(fake.master, b"{not json\n\x00\xff\n")
    eventually(lambda: channels["base-1"].board.garbled == 2)
    fake.send(ev="arrived", ch=0, uid="04BB", t=3000)
    assert reads.get(timeout=3).uid == "04BB"  # still reading after garbage


def test_unplugged_board_gives_no_phantom_events_and_comes_back(board) -> None:
    fake, channels, reads = board
    fake.send(ev="arrived", ch=0, uid="04CC", t=10)
    fake.send(ev="arrived", ch=1, uid="04DD", t=10)
    assert {reads.get(timeout=3).uid for _ in range(2)} == {"04CC", "04DD"}
    fake.unplug()
    eventually(lambda: channels["base-1"].health.snapshot().state == "reopening")
    eventually(lambda: not channels["base-1"].board.connected.is_set())
    with pytest.raises(queue.Empty):
        reads.get(timeout=0.3)
    fake.plug()
    assert channels["base-1"].board.connected.wait(3)
    # the board says channel 0 still sees its card, channel 1 is empty now
    deadline = time.monotonic() + 3
    while True:
        fake.send(
            ev="health",
            t=50,
            ch=[{"ch": 0, "ok": True, "present": "04CC"}, {"ch": 1, "ok": True, "present": None}],
        )
        try:
            read = reads.get(timeout=0.2)
            break
        except queue.Empty:
            assert time.monotonic() < deadline
    assert (read.zone, read.uid, read.kind) == ("base-2", "04DD", "left")
    with pytest.raises(queue.Empty):
        reads.get(timeout=0.3)  # nothing for the card that never left


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "not JSON"),
        ('{"v": 2, "ev": "hello"}', "version 1"),
        ('{"v": 1, "ev": "boom"}', "unknown event"),
        ('{"v": 1, "ev": "arrived", "ch": 7, "uid": "04"}', "0 to 3"),
        ('{"v": 1, "ev": "arrived", "ch": 0, "uid": "zz"}', "hex digits"),
        ('{"v": 1, "ev": "health", "ch": 3}', "list of channel objects"),
    ],
)
def test_decoder_errors_say_what_is_wrong(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        decode_line(line)


def test_host_decodes_the_protocol_examples_of_the_firmware_readme() -> None:
    lines = [line for line in EXAMPLES.read_text().splitlines() if line.strip()]
    assert lines
    for line in lines:
        decode_line(line)
