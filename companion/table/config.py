"""The table config file as a whole: the table's name, its database, where its dashboard
listens, its league, and its devices (``hardware``, read by :mod:`companion.hardware.config`).

See ``hardware/table.example.toml``::

    [table]
    name = "Kitchen table"
    db = "companion.db"
    bind = "127.0.0.1"
    port = 8080

    [zones.base-1]          # and [buzzer], [buttons]: the devices
    reader = "nfc:tty:nfc-zone1:pn532"

    [league]
    url = "http://192.168.1.20:8700"
    table_key = "tk_..."

``[zones.*]``, ``[buzzer]`` and ``[buttons]`` are the hardware's, shown whole in
:mod:`companion.hardware.config`. ``[league]`` is optional: the store's league server and this
table's key (``companion league table add NAME`` prints it); with it, finished games are
shipped there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.hardware.config import SECTIONS as HARDWARE_SECTIONS
from companion.hardware.config import ConfigError, HardwareConfig, hardware_config, section
from companion.hardware.tomlfile import read_toml

__all__ = ["LeagueConfig", "TableConfig", "load_table_config"]

_TABLE_KEYS: dict[str, type] = {"name": str, "db": str, "bind": str, "port": int}
_TABLE_DEFAULTS = {"name": "Smash Up table", "db": "companion.db", "bind": "127.0.0.1"}
_SECTIONS = ("table", *HARDWARE_SECTIONS, "league")
_LEAGUE_KEYS = ("url", "table_key", "settle_s")


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

    hardware: HardwareConfig
    """The zones, their readers and the pins: what :mod:`companion.hardware` is given."""
    name: str = "Smash Up table"
    db: str = "companion.db"
    bind: str = "127.0.0.1"
    port: int = 8080
    source: str = "<defaults>"
    league: LeagueConfig | None = None

    @classmethod
    def simulated(cls, zones: int = 5) -> TableConfig:
        """The default simulated table: ``base-1`` .. ``base-<zones>`` and ``discard``, every
        reader ``sim:``, no pins (runs on a laptop)."""
        return cls(HardwareConfig.simulated(zones), name="Simulated table", source="<simulated>")


def load_table_config(path: str | Path) -> TableConfig:
    """Read and validate a table config file.

    :raises ConfigError: a missing or malformed file, an unknown section or key, a bad zone name,
        reader spec or pin.
    """
    where = str(path)
    document = read_toml(path, "table config", _SECTIONS, ConfigError)
    name, db, bind, port = _table_values(section(document, "table", where), where)
    devices = hardware_config(document, where)
    league = _league(section(document, "league", where), where)
    return TableConfig(devices, name, db, bind, port, where, league)


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
