"""The reader board's firmware (``firmware/``, MicroPython) run on the host: its own ``Board``
loop and PN532 driver, against emulated PN532s on a fake SPI bus, writing its protocol lines to
a pty that the host's ``serial:`` reader opens like the Pico's USB serial port."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import tty
from pathlib import Path
from typing import Any

from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_spi import SpiBus, SpiChip

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))
import main as board_main  # noqa: E402
import pn532 as firmware_pn532  # noqa: E402

sys.path.remove(str(FIRMWARE))


def _sleep_ms(ms: int) -> None:
    time.sleep(ms / 1000)


class EmulatedBoard:
    """A Pico with ``channels`` PN532s on one SPI bus; :attr:`port` is its serial port."""

    def __init__(
        self, channels: int = 4, profile: str = "pi-uart-921600", *, relist_quirk: bool = False
    ) -> None:
        self.bus = SpiBus(channels, profile, clock=time.monotonic, relist_quirk=relist_quirk)
        readers = [firmware_pn532.PN532(self.bus, chip, _sleep_ms) for chip in self.bus.chips]
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        uptime = board_main.Uptime(lambda: int(time.monotonic() * 1000), lambda a, b: a - b)
        self.board: Any = board_main.Board(readers, self._write, uptime)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pico-board", daemon=True)
        self._thread.start()

    def chip(self, channel: int) -> SpiChip:
        return self.bus.chips[channel]

    def place(self, channel: int, card: NtagCard) -> None:
        self.chip(channel).place(card)

    def lift(self, channel: int) -> None:
        self.chip(channel).place(None)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=3)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _write(self, line: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self._master, (line + "\n").encode())

    def _run(self) -> None:
        """``main.main()``'s loop, minus the hardware."""
        self.board.start()
        while not self._stop.is_set():
            try:
                self.board.step()
            except Exception:  # as on the Pico: a bug must not stop the board
                _sleep_ms(100)
            _sleep_ms(1)
