"""The table's devices as its config file gives them: which reader sits under each zone, and
which pins drive the feedback. The rest of the file (its name, database, web address, league)
is the table's, read by :mod:`companion.table.config`, which hands this module the sections
below (:data:`SECTIONS`)::

    [zones.base-1]
    reader = "nfc:tty:nfc-zone1:pn532"
    led = 17

    [zones.discard]
    reader = "nfc:tty:nfc-zone6:pn532"

    [buzzer]
    pin = 18

    [buttons]
    end-turn = 23
    undo = 24

Zones are ``base-N`` or ``discard``; readers are spec strings for
:func:`companion.hardware.readers.registry.open_reader` (only checked here, never opened);
pins are validated by :mod:`companion.hardware.pinmap` and are all optional (a laptop has
none).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.errors import CompanionError
from companion.hardware.pinmap import PinMap, PinMapError, build_pin_map, is_zone_name
from companion.hardware.readers.registry import DRIVERS, split_arrival

__all__ = [
    "SECTIONS",
    "ConfigError",
    "HardwareConfig",
    "ZoneConfig",
    "check_reader_spec",
    "hardware_config",
    "section",
]


class ConfigError(CompanionError, ValueError):
    """The table config is wrong; the message names the file, the key and what to write."""


SECTIONS = ("zones", "buzzer", "buttons")
"""The table config's sections that are the hardware's."""
# nfcpy's tty path only accepts /dev names made of letters, digits and dashes.
_NFC_TTY = re.compile(r"tty:[A-Za-z0-9-]+(:[A-Za-z0-9]+)?")


@dataclass(frozen=True, slots=True)
class ZoneConfig:
    name: str
    reader: str
    led: int | None = None


@dataclass(frozen=True, slots=True)
class HardwareConfig:
    """A table's validated zones, readers and pins (see the module docstring)."""

    zones: tuple[ZoneConfig, ...]
    pins: PinMap = field(default_factory=PinMap)

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(zone.name for zone in self.zones)

    @property
    def readers(self) -> dict[str, str]:
        """Zone name -> reader spec."""
        return {zone.name: zone.reader for zone in self.zones}

    @classmethod
    def simulated(cls, zones: int = 5) -> HardwareConfig:
        """``base-1`` .. ``base-<zones>`` and ``discard``, every reader ``sim:``, no pins (runs
        on a laptop)."""
        if zones < 1:
            raise ConfigError(f"a table needs at least one base zone, not {zones}")
        names = [f"base-{n}" for n in range(1, zones + 1)] + ["discard"]
        return cls(tuple(ZoneConfig(name, "sim:") for name in names))


def check_reader_spec(spec: object, where: str) -> str:
    """``spec`` if it has a reader kind that
    :func:`~companion.hardware.readers.registry.open_reader` knows.

    :raises ConfigError: naming ``where`` and the kinds to choose from.
    """
    kinds = ", ".join(f"{kind}:" for kind in DRIVERS)
    example = 'e.g. reader = "nfc:tty:nfc-zone1:pn532" or reader = "sim:"'
    if not isinstance(spec, str):
        raise ConfigError(f"{where}: the reader must be a string, {example}")
    kind, colon, rest = spec.partition(":")
    if not colon or kind not in DRIVERS:
        raise ConfigError(f"{where}: unknown reader {spec!r}; use one of {kinds} ({example})")
    if kind in ("nfc", "sim"):
        try:
            rest = split_arrival(rest)[0]
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    if kind == "nfc":
        if not rest:
            raise ConfigError(f"{where}: 'nfc:' needs an nfcpy path, e.g. nfc:tty:nfc-zone1:pn532")
        if rest.startswith("tty:") and not _NFC_TTY.fullmatch(rest):
            raise ConfigError(
                f"{where}: nfcpy cannot open {rest!r}: a tty name is a /dev name of letters, "
                "digits and dashes (no '_' or '/'), e.g. nfc:tty:nfc-zone1:pn532"
            )
    if kind == "serial":
        port, _, channel = rest.partition("#")
        if not port:
            raise ConfigError(f"{where}: 'serial:' needs a port, e.g. serial:/dev/ttyACM0#0")
        if channel and (not channel.isdigit() or int(channel) > 3):
            raise ConfigError(f"{where}: a reader board has channels 0 to 3, not {channel!r}")
    return spec


def section(document: Mapping[str, object], name: str, where: str) -> dict[str, object]:
    """The config file's ``[name]`` section (empty when absent).

    :raises ConfigError: it is not a table."""
    value = document.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: {name} must be a table, written [{name}]")
    return value


def _zones(zones: dict[str, object], where: str) -> tuple[list[ZoneConfig], dict[str, object]]:
    result: list[ZoneConfig] = []
    leds: dict[str, object] = {}
    seen: dict[str, str] = {}
    for name, body in zones.items():
        key = f"zones.{name}"
        if not is_zone_name(name):
            raise ConfigError(
                f"{where}: [{key}]: unknown zone {name!r}; zones are base-1, base-2, ... and "
                "discard, e.g. [zones.base-1]"
            )
        if not isinstance(body, dict):
            raise ConfigError(
                f'{where}: {key}: write a table, [{key}] with reader = "nfc:tty:nfc-zone1:pn532"'
            )
        extra = sorted(set(body) - {"reader", "led"})
        if extra:
            raise ConfigError(f"{where}: {key}.{extra[0]}: unknown key; a zone takes reader, led")
        if "reader" not in body:
            raise ConfigError(f'{where}: {key}: no reader; add reader = "sim:" or "nfc:..."')
        reader = check_reader_spec(body["reader"], f"{where}: {key}.reader")
        identity = reader + ("#0" if reader.startswith("serial:") and "#" not in reader else "")
        if not reader.startswith(("sim:", "mock:")):
            if identity in seen:
                raise ConfigError(
                    f"{where}: {key}.reader: {reader!r} is already the reader of "
                    f"zones.{seen[identity]}; each zone needs its own reader"
                )
            seen[identity] = name
        if "led" in body:
            leds[name] = body["led"]
        result.append(ZoneConfig(name, reader))
    if not any(zone.name.startswith("base-") for zone in result):
        raise ConfigError(f'{where}: no base zone; add [zones.base-1] with reader = "..."')
    return result, leds


def hardware_config(document: Mapping[str, object], where: str) -> HardwareConfig:
    """The zones and pins of a table config file's document (read from ``where``).

    :raises ConfigError: no zones, a bad zone name, reader spec or pin, an unknown key.
    """
    zones_table = section(document, "zones", where)
    if not zones_table:
        raise ConfigError(f'{where}: no zones; add [zones.base-1] with reader = "sim:"')
    zones, leds = _zones(zones_table, where)
    buzzer = section(document, "buzzer", where)
    extra = sorted(set(buzzer) - {"pin"})
    if extra:
        raise ConfigError(f"{where}: buzzer.{extra[0]}: unknown key; write [buzzer] pin = 18")
    try:
        pins = build_pin_map(
            where,
            leds,
            buzzer.get("pin"),
            section(document, "buttons", where),
            led_key="zones.{zone}.led",
        )
    except PinMapError as exc:
        raise ConfigError(str(exc)) from exc
    return HardwareConfig(
        tuple(ZoneConfig(z.name, z.reader, pins.led(z.name)) for z in zones), pins
    )
