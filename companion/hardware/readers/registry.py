"""Readers behind one interface, chosen by a string per zone (gpiozero-style).

=====================  =====================================================================
``nfc:<nfcpy path>``   an nfcpy reader: ``nfc:tty:nfc-zone1:pn532``, ``nfc:usb:054c:06c3``, ...
``serial:<port>#<n>``  channel ``n`` (0-3) of a reader board on a USB serial port (``#0`` default)
``sim:[<profile>]``    a zone of the simulated NFC table: an emulated PN532 that nfcpy's own
                       ``pn532`` driver reads (``sim:ideal``, ``sim:cp210x-115200``, ...;
                       bare ``sim:`` takes the context's profile), or ``sim:udp`` (nfcpy's
                       ``udp`` driver against the NTAG simulator)
``mock:``              in memory, for unit tests (:class:`.mock.MockReader`)
=====================  =====================================================================

``nfc:`` and ``sim:`` take ``#poll`` at the end (``nfc:tty:nfc-zone1:pn532#poll``): an empty
antenna is polled with ``sense()`` every period instead of the PN532 waiting for a card itself
(for a chip that does not honour the wait: ``hardware/README.md``'s acceptance checklist).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from companion.hardware.readers.base import Clock, Reader, ReaderError, Sink
from companion.hardware.readers.mock import MockReader
from companion.hardware.readers.nfc_zone import ARRIVALS, NfcZoneReader
from companion.hardware.readers.pn532_timing import DEFAULT_PROFILE
from companion.hardware.readers.serial_board import SerialBoard
from companion.hardware.readers.sim_table import SimulatedTable, antenna_kinds

SIM_PROFILE_ENV = "COMPANION_SIM_PROFILE"


class ReaderContext:
    """Resources zones share: the simulated table, and serial reader boards (one port serves
    up to four zones). Close it to stop them. ``sim_profile`` is the PN532 link profile a
    bare ``sim:`` zone emulates: by default ``$COMPANION_SIM_PROFILE``, else
    ``pi-uart-921600`` (the test suite sets ``ideal``: today's simulator speed)."""

    def __init__(
        self,
        clock: Clock,
        sim_profile: str | None = None,
        known: Callable[[str], bool] | None = None,
    ) -> None:
        self.clock = clock
        self.sim_profile = sim_profile or os.environ.get(SIM_PROFILE_ENV) or DEFAULT_PROFILE
        #: whether the table knows a uid (bound to a card): nfc readers skip reading its card
        #: id. Set by the table (it owns the bindings); asked from the reader threads.
        self.known_tag: Callable[[str], bool] = known or (lambda uid: False)
        self._simulator: SimulatedTable | None = None
        self._boards: dict[str, SerialBoard] = {}

    @property
    def simulator(self) -> SimulatedTable:
        """The simulated NFC table, started on first use."""
        if self._simulator is None:
            self._simulator = SimulatedTable(self.sim_profile)
        return self._simulator

    def is_known(self, uid: str) -> bool:
        return self.known_tag(uid)

    def board(self, port: str) -> SerialBoard:
        if port not in self._boards:
            self._boards[port] = SerialBoard(port, self.clock)
        return self._boards[port]

    def close(self) -> None:
        for board in self._boards.values():
            board.close()
        self._boards.clear()
        if self._simulator is not None:
            self._simulator.close()
            self._simulator = None


Driver = Callable[[str, str, Sink, Clock, ReaderContext], Reader]


def split_arrival(rest: str) -> tuple[str, str]:
    """An ``nfc:``/``sim:`` spec's rest without its ``#`` option, and how an empty antenna
    waits for a card (``wait`` unless ``#poll``).

    :raises ValueError: for another option, saying what to write."""
    rest, hashed, option = rest.partition("#")
    if hashed and option not in ARRIVALS[1:]:
        raise ValueError(
            f"'#{option}' is not a reader option; write '#poll' at the end to poll an empty "
            "antenna every period, or nothing to let the PN532 wait for a card itself"
        )
    return rest, option or ARRIVALS[0]


def _nfc(spec: str, zone: str, sink: Sink, clock: Clock, context: ReaderContext) -> Reader:
    try:
        rest, arrival = split_arrival(spec)
    except ValueError as exc:
        raise ReaderError(f"zone {zone}: {exc}") from None
    if not rest:
        raise ReaderError(f"zone {zone}: 'nfc:' needs an nfcpy path, e.g. nfc:tty:nfc-zone1:pn532")
    return NfcZoneReader(zone, sink, clock, path=rest, known=context.is_known, arrival=arrival)


def _sim(spec: str, zone: str, sink: Sink, clock: Clock, context: ReaderContext) -> Reader:
    try:
        rest, arrival = split_arrival(spec)
    except ValueError as exc:
        raise ReaderError(f"zone {zone}: {exc}") from None
    if rest and rest not in antenna_kinds():
        kinds = ", ".join(["sim:", *(f"sim:{kind}" for kind in antenna_kinds())])
        raise ReaderError(f"zone {zone}: unknown simulated reader 'sim:{rest}'; use {kinds}")
    try:
        sim_zone = context.simulator.add_zone(zone, rest)
    except ValueError as exc:
        raise ReaderError(f"zone {zone}: {exc}") from None
    path = sim_zone.path
    return NfcZoneReader(zone, sink, clock, path=path, known=context.is_known, arrival=arrival)


def _serial(rest: str, zone: str, sink: Sink, clock: Clock, context: ReaderContext) -> Reader:
    port, _, channel = rest.partition("#")
    if not port:
        raise ReaderError(f"zone {zone}: 'serial:' needs a port, e.g. serial:/dev/ttyACM0#0")
    if channel and (not channel.isdigit() or int(channel) > 3):
        raise ReaderError(f"zone {zone}: a reader board has channels 0 to 3, not {channel!r}")
    return context.board(port).channel(int(channel or 0), zone, sink)


def _mock(rest: str, zone: str, sink: Sink, clock: Clock, context: ReaderContext) -> Reader:
    return MockReader(zone, sink, clock)


DRIVERS: dict[str, Driver] = {"nfc": _nfc, "sim": _sim, "serial": _serial, "mock": _mock}


def open_reader(spec: str, zone: str, sink: Sink, clock: Clock, context: ReaderContext) -> Reader:
    """The reader a spec string names (not started yet).

    :raises ReaderError: for an unknown kind or a malformed spec, saying what to write.
    """
    kind, colon, rest = spec.partition(":")
    if not colon or kind not in DRIVERS:
        kinds = ", ".join(f"{k}:" for k in DRIVERS)
        raise ReaderError(f"zone {zone}: unknown reader {spec!r}; use one of {kinds}")
    return DRIVERS[kind](rest, zone, sink, clock, context)
