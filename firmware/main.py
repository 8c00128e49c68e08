"""The reader board's loop (copied to the Pico as ``main.py``; wiring in README.md).

Only :func:`main` touches the hardware (``machine``, ``time.ticks_*``); :class:`Board` polls any
objects with ``init()``, ``poll()`` and ``read(page)`` and writes protocol lines, so the host
tests run it against scripted chips.
"""

import sys

import ntag
from pn532 import PN532
from poller import ChannelPoller
from protocol import encode

FIRMWARE = "1.0"
SPI_ID, SPI_BAUD = 0, 1000000
SCK, MOSI, MISO = 18, 19, 16
CHIP_SELECTS = (17, 20, 21, 22)  # channel 0, 1, 2, 3
HEALTH_EVERY_MS = 2000


class Uptime:
    """Milliseconds since start that never wrap (``ticks_ms`` wraps after 2**30 ms)."""

    def __init__(self, ticks_ms, ticks_diff):
        self.ticks_ms, self.ticks_diff = ticks_ms, ticks_diff
        self.last = ticks_ms()
        self.ms = 0

    def __call__(self):
        now = self.ticks_ms()
        self.ms += self.ticks_diff(now, self.last)
        self.last = now
        return self.ms


class Board:
    """Polls each channel in turn, one poll per :meth:`step`, and writes its events."""

    def __init__(self, readers, write, clock):
        self.readers = readers
        self.pollers = [ChannelPoller(n) for n in range(len(readers))]
        self.write = write  # one line, without its newline
        self.clock = clock
        self.last_health = 0

    def start(self):
        self.emit("hello", {"fw": FIRMWARE, "channels": len(self.readers)})
        self.last_health = self.clock()

    def step(self):
        for reader, poller in zip(self.readers, self.pollers):
            self.poll(reader, poller)
        now = self.clock()
        if now - self.last_health >= HEALTH_EVERY_MS:
            self.emit("health", {"t": now, "ch": [p.health() for p in self.pollers]})
            self.last_health = now

    def poll(self, reader, poller):
        if not poller.ok:
            now = self.clock()
            if not poller.needs_init(now):
                return
            try:
                reader.init()
            except Exception as exc:  # any failure of this chip, never the whole board's
                self.emit_all(poller.update(now, exc))
                return
            poller.initialised(now)
        try:
            result = reader.poll()
        except Exception as exc:
            result = exc
        events = poller.update(self.clock(), result)
        for name, fields in events:
            if name == "arrived":
                card = self.card(reader)
                if card is not None:
                    fields["card"] = card
        self.emit_all(events)

    def card(self, reader):
        """The card id on the tag just listed, if it has one (a failed read is no error)."""
        try:
            return ntag.read_card_id(reader.read)
        except Exception:
            return None

    def emit_all(self, events):
        for name, fields in events:
            self.emit(name, fields)

    def emit(self, name, fields):
        self.write(encode(name, **fields))


def write_line(line):
    sys.stdout.write(line + "\n")


def main():
    import time

    from machine import SPI, Pin

    pins = {"sck": Pin(SCK), "mosi": Pin(MOSI), "miso": Pin(MISO)}
    spi = SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0, **pins)
    readers = [PN532(spi, Pin(cs, Pin.OUT, value=1), time.sleep_ms) for cs in CHIP_SELECTS]
    board = Board(readers, write_line, Uptime(time.ticks_ms, time.ticks_diff))
    board.start()
    while True:
        try:
            board.step()
        except Exception:  # a bug must not stop the board; the host sees health go stale
            time.sleep_ms(100)
        time.sleep_ms(1)  # failing channels wait out their back-off without a busy loop


if __name__ == "__main__":
    main()
