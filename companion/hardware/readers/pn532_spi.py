"""Emulated PN532s on one SPI bus, each behind its own chip select: what the reader board's
firmware (``firmware/pn532.py``) talks to when it runs on the host.

The PN532's SPI (UM0701-02 §6.2.5): each transfer begins with an operation byte, ``01`` write
a frame, ``02`` read the status (bit 0 set: an answer is ready), ``03`` read the answer; bits
go LSB first, so a host whose SPI sends MSB first bit-reverses every byte, and so does this
bus. A chip acknowledges a frame, then answers once its modelled time (firmware plus RF, from
the profile) has passed on ``clock``; the answer waits until the host reads it.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from companion.hardware.readers import pn532_timing as timing
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_chip import Pn532Chip, SyntaxFault
from companion.hardware.readers.pn532_emulator import LinkStats
from companion.hardware.readers.pn532_frames import (
    ACK,
    ERROR_FRAME,
    NACK,
    FrameParser,
    answer_frame,
)

SPI_WRITE, SPI_STATUS, SPI_READ = 0x01, 0x02, 0x03
_REVERSED = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))


def reverse_bits(data: bytes) -> bytes:
    return data.translate(_REVERSED)


class SpiChip:
    """One PN532 on the bus: its chip select is :meth:`value`, as a ``machine.Pin``'s."""

    def __init__(self, bus: SpiBus, profile: timing.Profile, *, relist_quirk: bool) -> None:
        self.bus = bus
        self.chip = Pn532Chip(profile, relist_quirk=relist_quirk)
        self.stats = LinkStats()
        self._parser = FrameParser()
        self._outbox: deque[tuple[float, bytes]] = deque()  # (ready at, frame)
        self._operation = 0

    def value(self, level: int) -> None:
        self.bus.select(self if level == 0 else None)

    def place(self, card: NtagCard | None) -> None:
        with self.bus.lock:
            self.chip.place(card)

    def write(self, data: bytes) -> None:
        data = reverse_bits(data)
        self._operation = data[0] if data else 0
        if self._operation == SPI_WRITE:
            self._frames(data[1:])

    def read(self, count: int) -> bytes:
        if self._operation == SPI_STATUS:
            ready = bool(self._outbox) and self._outbox[0][0] <= self.bus.clock()
            return reverse_bits(b"\x01" if ready else b"\x00")
        answer = b""
        if self._operation == SPI_READ and self._outbox:
            answer = self._outbox.popleft()[1]
            self.stats = self.stats + LinkStats(bytes_from_chip=len(answer))
        return reverse_bits(answer.ljust(count, b"\x00")[:count])

    def _frames(self, data: bytes) -> None:
        now = self.bus.clock()
        for frame in self._parser.feed(data):
            self.stats = self.stats + LinkStats(bytes_to_chip=frame.size)
            if frame.kind == "ack":
                self._outbox.clear()  # the host aborts what it waited for
                self.chip.host_ack()
            elif frame.kind == "bad":
                self._outbox.append((now, NACK))
            elif frame.kind == "command":
                self._outbox.extend(self._execute(frame.body, now))

    def _execute(self, body: bytes, now: float) -> list[tuple[float, bytes]]:
        try:
            answer = self.chip.command(body[1], body[2:])
            reply, busy = answer_frame(body[1], answer.data), answer.busy_s
        except SyntaxFault:
            reply, busy = ERROR_FRAME, 0.0
        took = self.chip.profile.firmware_s + busy
        self.stats = self.stats + LinkStats(round_trips=1, modelled_s=took)
        return [(now, ACK), (now + took, reply)]


class SpiBus:
    """The board's SPI bus: ``write`` and ``read`` go to the chip whose select is low.
    ``relist_quirk`` as :class:`~.pn532_chip.Pn532Chip` has it."""

    def __init__(
        self,
        chips: int,
        profile: str = timing.DEFAULT_PROFILE,
        *,
        clock: Callable[[], float],
        relist_quirk: bool = False,
    ) -> None:
        self.clock = clock
        self.lock = threading.Lock()
        link = timing.profile_named(profile)
        self.chips = [SpiChip(self, link, relist_quirk=relist_quirk) for _ in range(chips)]
        self._selected: SpiChip | None = None

    def select(self, chip: SpiChip | None) -> None:
        self._selected = chip

    def write(self, data: bytes) -> None:
        with self.lock:
            if self._selected is not None:
                self._selected.write(bytes(data))

    def read(self, count: int) -> bytes:
        with self.lock:
            if self._selected is None:
                return b"\xff" * count  # nothing drives MISO: the line floats high
            return self._selected.read(count)
