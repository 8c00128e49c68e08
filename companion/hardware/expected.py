"""What a PN532 zone reader is expected to measure, by the link between it and the Pi.

The figures are the estimates of ``shared/reference/pn532-timing.md`` (its section 6 is the
hardware acceptance checklist; ``hardware/README.md`` repeats it), not measurements of a real
board: ``companion doctor`` warns outside the expected range and fails only where the table's
loop no longer keeps up (a poll longer than its period, a lift noticed after a player has
moved on).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.hardware.checkup import Limits

__all__ = ["EXPECTED", "Expected", "expected_for"]


@dataclass(frozen=True, slots=True)
class Expected:
    #: how the link is called in the report
    link: str
    #: one GetFirmwareVersion round trip (§6 no. 1); over 8 ms: the latency timer or a wrong baud
    round_trip: Limits
    #: ``sense()`` with no card (§6 no. 3): what a removal's miss costs, and a ``#poll`` zone's
    #: poll (an empty PN532 otherwise waits for a card itself); over the 35 ms poll period: failing
    empty_sense: Limits
    #: READ of a resting card through ``clf.exchange`` (§6 no. 4); over the 35 ms period: failing
    resting_read: Limits
    #: card laid -> arrival event, p50 (§6 no. 7: 90-160 ms with nfcpy's activation; a bound card
    #: found by the chip's own wait is far below ``low``, which is fine)
    place_to_event: Limits
    #: card lifted -> left event, p50 (§6 no. 8; the issue-L bar is a p99 of 100 ms)
    removal: Limits


#: the share of resting-card READs that may fail (§6 no. 4 and 10: 0 in 1,000, < 0.1 %; a
#: failed READ costs a re-sense, two in a row a spurious "left")
READ_FAILURES = Limits(0.0, 0.1, 1.0, unit="%")

#: ``ContactlessFrontend.open`` of a PN532 (§6 no. 2: 0.1-0.3 s); nfcpy allows a /dev/ttyUSB
#: name 1.5 s for its first answer, so past 3 s the reader barely answers
OPEN_TIME = Limits(100, 300, 3000)

#: the share of commands the link may fail (no ACK, a garbled frame): none is expected; the
#: table's reader reopens after each, missing cards meanwhile
LINK_ERRORS = Limits(0.0, 0.0, 1.0, unit="%")

_SLOW_LINK = 8.0  # §6 no. 1: "more than 8 ms means the latency timer or a wrong baud"
_EMPTY_PERIOD = 35.0  # presence.EMPTY_PERIOD: a polled empty antenna, every 35 ms
_PRESENT_PERIOD = 35.0  # presence.PRESENT_PERIOD: a resting card every 35 ms
_PLACE = Limits(40, 160, 300)  # §5.2: 87-158 ms p50 on PL011, ~620 ms behind an FTDI at 16 ms
_REMOVAL = Limits(40, 100, 200)  # §5.2: 56-100 ms p50; an FTDI at 16 ms: ~240 ms

PL011 = Expected(
    "the Pi's own UART (PL011) at 921600 baud",
    round_trip=Limits(0.6, 2, _SLOW_LINK),
    empty_sense=Limits(6, 20, _EMPTY_PERIOD),
    resting_read=Limits(6, 15, _PRESENT_PERIOD),
    place_to_event=_PLACE,
    removal=_REMOVAL,
)
BRIDGE = Expected(
    "a USB-serial bridge (CP210x, CH340)",
    round_trip=Limits(1.5, 4, _SLOW_LINK),
    empty_sense=Limits(9, 30, _EMPTY_PERIOD),
    resting_read=Limits(9, 24, _PRESENT_PERIOD),
    place_to_event=Limits(40, 210, 300),
    removal=Limits(40, 122, 200),
)
MINI_UART = Expected(
    "the Pi's mini UART at 115200 baud",
    round_trip=Limits(2.5, 5, _SLOW_LINK),
    empty_sense=Limits(14, 30, _EMPTY_PERIOD),
    resting_read=Limits(17, 27, _PRESENT_PERIOD),
    place_to_event=Limits(40, 225, 300),
    removal=Limits(40, 122, 200),
)
#: an FTDI bridge is expected to be a CP210x's equal once its latency timer is 1 ms
FTDI = replace(BRIDGE, link="an FTDI USB-serial bridge")

#: by the kernel driver behind the device (``/sys/class/tty/<name>/device/driver``)
EXPECTED: dict[str, Expected] = {
    "uart-pl011": PL011,
    "bcm2835-aux-uart": MINI_UART,
    "cp210x": BRIDGE,
    "ch341-uart": BRIDGE,
    "pl2303": BRIDGE,
    "ftdi_sio": FTDI,
}


def expected_for(driver: str | None) -> Expected:
    """The ranges for a link driven by kernel driver ``driver``; an unknown one (a simulated
    table, an emulator on a pseudo-terminal) is held to a USB bridge's, the wider ranges."""
    if driver is None:
        return replace(BRIDGE, link="an unknown link, held to a USB bridge's ranges")
    return EXPECTED.get(driver) or replace(BRIDGE, link=f"{driver}, held to a USB bridge's ranges")
