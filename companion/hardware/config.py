"""The table config: which reader sits under each zone, and which pins drive the feedback.

See ``hardware/table.example.toml``::

    [table]
    name = "Kitchen table"
    db = "companion.db"
    bind = "127.0.0.1"
    port = 8080

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

    [league]
    url = "http://192.168.1.20:8700"
    table_key = "tk_..."

Zones are ``base-N`` or ``discard``; readers are spec strings for
:func:`companion.hardware.readers.registry.open_reader` (only checked here, never opened);
pins are validated by :mod:`companion.hardware.pinmap` and are all optional (a laptop has
none). ``[league]`` is optional: the store's league server and this table's key
(``companion league table add NAME`` prints it); with it, finished games are shipped there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import CompanionError
from companion.hardware.pinmap import PinMap, PinMapError, build_pin_map, is_zone_name
from companion.hardware.readers.registry import DRIVERS, split_arrival
from companion.hardware.tomlfile import read_toml

__all__ = [
    "ConfigError",
    "LeagueConfig",
    "TableConfig",
    "ZoneConfig",
    "check_reader_spec",
    "load_table_config",
]


class ConfigError(CompanionError, ValueError):
    """The table config is wrong; the message names the file, the key and what to write."""


_TABLE_KEYS: dict[str, type] = {"name": str, "db": str, "bind": str, "port": int}
_TABLE_DEFAULTS = {"name": "Smash Up table", "db": "companion.db", "bind": "127.0.0.1"}
_SECTIONS = ("table", "zones", "buzzer", "buttons", "league")
_LEAGUE_KEYS = ("url", "table_key", "settle_s")
# nfcpy's tty path only accepts /dev names made of letters, digits and dashes.
_NFC_TTY = re.compile(r"tty:[A-Za-z0-9-]+(:[A-Za-z0-9]+)?")


@dataclass(frozen=True, slots=True)
class ZoneConfig:
    name: str
    reader: str
    led: int | None = None


@dataclass(frozen=True, slots=True)
class LeagueConfig:
    """Where this table ships its finished games, and the key it ships them with."""

    url: str
    table_key: str
    #: seconds a finished game waits before it is shipped (an undo can still take it back)
    settle_s: float = 30.0


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A validated table config (see the module docstring)."""

    zones: tuple[ZoneConfig, ...]
    name: str = "Smash Up table"
    db: str = "companion.db"
    bind: str = "127.0.0.1"
    port: int = 8080
    pins: PinMap = field(default_factory=PinMap)
    source: str = "<defaults>"
    league: LeagueConfig | None = None

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(zone.name for zone in self.zones)

    @property
    def readers(self) -> dict[str, str]:
        """Zone name -> reader spec."""
        return {zone.name: zone.reader for zone in self.zones}

    @classmethod
    def simulated(cls, zones: int = 5) -> TableConfig:
        """The default simulated table: ``base-1`` .. ``base-<zones>`` and ``discard``, every
        reader ``sim:``, no pins (runs on a laptop)."""
        if zones < 1:
            raise ConfigError(f"a table needs at least one base zone, not {zones}")
        names = [f"base-{n}" for n in range(1, zones + 1)] + ["discard"]
        return cls(
            zones=tuple(ZoneConfig(name, "sim:") for name in names),
            name="Simulated table",
            source="<simulated>",
        )


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


def _section(document: Mapping[str, object], name: str, where: str) -> dict[str, object]:
    value = document.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: {name} must be a table, written [{name}]")
    return value


def _table_values(table: dict[str, object], where: str) -> tuple[str, str, str, int]:
    """``name, db, bind, port`` from ``[table]``, with the defaults."""
    for key, value in table.items():
        if key not in _TABLE_KEYS:
            raise ConfigError(
                f"{where}: table.{key}: unknown key; [table] takes {', '.join(_TABLE_KEYS)}"
            )
        wanted = _TABLE_KEYS[key]
        if isinstance(value, bool) or not isinstance(value, wanted):
            example = "port = 8080" if wanted is int else f'{key} = "..."'
            kind = "an integer" if wanted is int else "a string"
            raise ConfigError(f"{where}: table.{key}: expected {kind}, e.g. {example}")
    port = table.get("port", 8080)
    assert isinstance(port, int)
    if not 1 <= port <= 65535:
        raise ConfigError(f"{where}: table.port: {port} is not a TCP port; write e.g. port = 8080")
    name, db, bind = (str(table.get(key, default)) for key, default in _TABLE_DEFAULTS.items())
    return name, db, bind, port


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


def _league(section: dict[str, object], where: str) -> LeagueConfig | None:
    if not section:
        return None
    example = 'write [league] url = "http://192.168.1.20:8700" and table_key = "tk_..."'
    extra = sorted(set(section) - set(_LEAGUE_KEYS))
    if extra:
        raise ConfigError(f"{where}: league.{extra[0]}: unknown key; [league] takes url, table_key")
    url, key = section.get("url"), section.get("table_key")
    if not isinstance(url, str) or not re.fullmatch(r"https?://[^\s/]+(/\S*)?", url):
        raise ConfigError(f"{where}: league.url: the league server's address is needed; {example}")
    if not isinstance(key, str) or not key.strip():
        raise ConfigError(
            f"{where}: league.table_key: this table's key is needed (`companion league table "
            f"add NAME` on the league server prints it); {example}"
        )
    settle = section.get("settle_s", 30.0)
    if isinstance(settle, bool) or not isinstance(settle, int | float) or not 0 <= settle <= 3600:
        raise ConfigError(f"{where}: league.settle_s: seconds from 0 to 3600, e.g. settle_s = 30")
    return LeagueConfig(url.rstrip("/"), key.strip(), float(settle))


def load_table_config(path: str | Path) -> TableConfig:
    """Read and validate a table config file.

    :raises ConfigError: a missing or malformed file, an unknown section or key, a bad zone name,
        reader spec or pin.
    """
    where = str(path)
    document = read_toml(path, "table config", _SECTIONS, ConfigError)
    name, db, bind, port = _table_values(_section(document, "table", where), where)
    zones_table = _section(document, "zones", where)
    if not zones_table:
        raise ConfigError(f'{where}: no zones; add [zones.base-1] with reader = "sim:"')
    zones, leds = _zones(zones_table, where)
    buzzer = _section(document, "buzzer", where)
    extra = sorted(set(buzzer) - {"pin"})
    if extra:
        raise ConfigError(f"{where}: buzzer.{extra[0]}: unknown key; write [buzzer] pin = 18")
    try:
        pins = build_pin_map(
            where,
            leds,
            buzzer.get("pin"),
            _section(document, "buttons", where),
            led_key="zones.{zone}.led",
        )
    except PinMapError as exc:
        raise ConfigError(str(exc)) from exc
    with_leds = tuple(ZoneConfig(z.name, z.reader, pins.led(z.name)) for z in zones)
    league = _league(_section(document, "league", where), where)
    return TableConfig(with_leds, name, db, bind, port, pins, where, league)
