"""The simulated table: one antenna per ``sim:`` zone, each an emulated PN532 on a pty (nfcpy's
own ``pn532`` driver reads it) or, with ``sim:udp``, an antenna of the UDP simulator (nfcpy's
``udp`` driver).

``sim:`` uses the table's default link profile (``pi-uart-921600`` unless the reader context
says otherwise), ``sim:<profile>`` a named one (``sim:ideal`` answers at once). Where no PN532
can be emulated (``/dev`` not writable: not root) a zone falls back to the UDP simulator and
says so in the log. Every antenna takes the same calls: ``place``, ``lift``, ``card``, ``close``
(the reader vanishes), ``reopen`` and ``path``.
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

from companion.hardware.readers import pn532_timing as timing
from companion.hardware.readers.ntag_sim import NtagCard, Simulator
from companion.hardware.readers.pn532_emulator import (
    DEVICE_DIR,
    EmulatedPN532,
    EmulatorUnavailable,
)

log = logging.getLogger(__name__)

UDP = "udp"


class Antenna(Protocol):
    """A simulated antenna cards are put on and lifted from."""

    @property
    def path(self) -> str: ...

    @property
    def card(self) -> NtagCard | None: ...

    def place(self, card: NtagCard) -> None: ...

    def lift(self) -> NtagCard | None: ...

    def close(self) -> None: ...

    def reopen(self) -> None: ...


def antenna_kinds() -> list[str]:
    """What may follow ``sim:``: a link profile, or ``udp``."""
    return [*timing.PROFILES, UDP]


class SimulatedTable:
    """Named antennas (thread-safe). ``profile`` is what a bare ``sim:`` zone gets (a link
    profile, or ``udp``);
    ``device_dir`` where emulated PN532s link their ptys."""

    def __init__(self, profile: str = timing.DEFAULT_PROFILE, device_dir: str = DEVICE_DIR) -> None:
        if profile != UDP:
            timing.profile_named(profile)
        self.profile = profile
        self.device_dir = device_dir
        self._zones: dict[str, Antenna] = {}
        self._udp: Simulator | None = None
        self._lock = threading.Lock()
        self._warned = False

    @property
    def zones(self) -> dict[str, Antenna]:
        """The antennas by zone name (a copy)."""
        with self._lock:
            return dict(self._zones)

    def zone(self, name: str) -> Antenna:
        with self._lock:
            return self._zones[name]

    def add_zone(self, name: str, kind: str = "") -> Antenna:
        """A new antenna: ``kind`` is a link profile, ``udp``, or empty for the default.

        :raises ValueError: for a zone that exists or an unknown kind.
        """
        kind = kind or self.profile
        if kind != UDP:
            timing.profile_named(kind)
        with self._lock:
            if name in self._zones:
                raise ValueError(f"the simulated table already has a zone {name!r}")
            self._zones[name] = self._antenna(name, kind)
            return self._zones[name]

    def _antenna(self, name: str, kind: str) -> Antenna:
        if kind != UDP:
            try:
                return EmulatedPN532(name, kind, device_dir=self.device_dir)
            except EmulatorUnavailable as exc:
                if not self._warned:
                    log.warning("%s; zone %s uses the UDP simulator instead", exc, name)
                    self._warned = True
        if self._udp is None:
            self._udp = Simulator()
        return self._udp.add_zone(name)

    def close(self) -> None:
        for antenna in self.zones.values():
            antenna.close()
        if self._udp is not None:
            self._udp.close()
