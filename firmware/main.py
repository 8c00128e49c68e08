"""MicroPython entry point for the Pico reader board (copied to the board as main.py).

Hardware access lives only here; the protocol, poller and frame logic are plain modules
tested on the host. Wiring: see README.md.
"""

import sys
import time

from machine import SPI, Pin  # MicroPython only
from pn532 import PN532
from poller import ChannelPoller
from protocol import encode

FIRMWARE = "1.0"
CHIP_SELECTS = (17, 20, 21, 22)
HEALTH_EVERY_MS = 2000


def emit(event, fields):
    sys.stdout.write(encode(event, **fields) + "\n")


def main():
    spi = SPI(0, baudrate=1_000_000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19), miso=Pin(16))
    readers = [PN532(spi, Pin(cs, Pin.OUT), time.sleep_ms, time.ticks_ms) for cs in CHIP_SELECTS]
    pollers = [ChannelPoller(n) for n in range(len(readers))]
    emit("hello", {"fw": FIRMWARE, "channels": len(readers)})
    last_health = time.ticks_ms()
    while True:
        for reader, poller in zip(readers, pollers):
            now = time.ticks_ms()
            if not poller.ok:
                if not poller.needs_init(now):
                    continue
                try:
                    reader.init()
                    poller.initialised(now)
                except (OSError, ValueError) as exc:
                    for event, fields in poller.failed(now, str(exc)):
                        emit(event, fields)
                    continue
            try:
                uid = reader.poll()
            except (OSError, ValueError) as exc:
                for event, fields in poller.failed(now, str(exc)):
                    emit(event, fields)
                continue
            for event, fields in poller.result(now, uid):
                emit(event, fields)
        now = time.ticks_ms()
        if time.ticks_diff(now, last_health) >= HEALTH_EVERY_MS:
            emit("health", {"t": now, "ch": [p.health() for p in pollers]})
            last_health = now


main()
