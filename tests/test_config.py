from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.hardware.config import ConfigError, ZoneConfig
from companion.hardware.pinmap import load_pin_map
from companion.table.config import TableConfig, load_table_config

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
EXAMPLE = HARDWARE / "table.example.toml"

MINIMAL = '[zones.base-1]\nreader = "sim:"\n'


FIVE_BASES_AND_DISCARD = ("base-1", "base-2", "base-3", "base-4", "base-5", "discard")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_table_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message


def test_example_config_loads() -> None:
    config = load_table_config(EXAMPLE)
    assert config.source == str(EXAMPLE)
    assert (config.db, config.bind, config.port) == ("companion.db", "127.0.0.1", 8080)
    assert config.hardware.zone_names == FIVE_BASES_AND_DISCARD
    assert config.hardware.readers["base-1"] == "nfc:tty:nfc-zone1:pn532"
    assert config.hardware.readers["discard"] == "nfc:tty:nfc-zone6:pn532"
    assert config.hardware.zones[0] == ZoneConfig("base-1", "nfc:tty:nfc-zone1:pn532", 17)
    assert config.hardware.zones[-1].led is None
    assert config.hardware.pins.buzzer == 18
    assert dict(config.hardware.pins.buttons) == {"end-turn": 23, "undo": 24}


def test_example_config_matches_the_shipped_pin_map() -> None:
    shipped = load_pin_map()
    config = load_table_config(EXAMPLE)
    assert config.hardware.pins.leds == shipped.leds
    assert config.hardware.pins.buzzer == shipped.buzzer
    assert config.hardware.pins.buttons == shipped.buttons


def test_minimal_config_has_defaults_and_no_pins(tmp_path: Path) -> None:
    config = load_table_config(write(tmp_path, MINIMAL))
    assert config.hardware.zones == (ZoneConfig("base-1", "sim:"),)
    assert config.hardware.pins.is_empty
    assert config.port == 8080 and config.db == "companion.db"


def test_simulated_shape() -> None:
    config = TableConfig.simulated()
    assert config.hardware.zone_names == FIVE_BASES_AND_DISCARD
    assert set(config.hardware.readers.values()) == {"sim:"}
    assert config.hardware.pins.is_empty
    assert all(zone.led is None for zone in config.hardware.zones)
    assert TableConfig.simulated(zones=2).hardware.zone_names == ("base-1", "base-2", "discard")
    with pytest.raises(ConfigError, match="at least one base zone"):
        TableConfig.simulated(zones=0)


def test_config_is_frozen() -> None:
    config = TableConfig.simulated()
    with pytest.raises(AttributeError):
        config.port = 1  # type: ignore[misc]


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(ConfigError, match=f"^{path}: cannot read the table config"):
        load_table_config(path)


def test_malformed_toml(tmp_path: Path) -> None:
    message = load_error(tmp_path, "[table\nport = 8080\n")
    assert "not valid TOML" in message


def test_errors_are_companion_value_errors() -> None:
    assert issubclass(ConfigError, CompanionError)
    assert issubclass(ConfigError, ValueError)


@pytest.mark.parametrize("zone", ["north", "base-0", "base1", "Base-1", "base-01", "discards"])
def test_bad_zone_names(tmp_path: Path, zone: str) -> None:
    message = load_error(tmp_path, f'[zones.{zone}]\nreader = "sim:"\n')
    assert f"[zones.{zone}]: unknown zone {zone!r}" in message
    assert "e.g. [zones.base-1]" in message


@pytest.mark.parametrize(
    ("reader", "message"),
    [
        ("pn532:/dev/ttyS0", "unknown reader 'pn532:/dev/ttyS0'; use one of nfc:,"),
        ("sim", "unknown reader 'sim'"),
        ("udp:127.0.0.1:5000", "unknown reader"),
        ("nfc:", "'nfc:' needs an nfcpy path"),
        ("nfc:tty:nfc_zone1:pn532", "nfcpy cannot open 'tty:nfc_zone1:pn532'"),
        ("serial:", "'serial:' needs a port"),
        ("serial:/dev/ttyACM0#4", "channels 0 to 3, not '4'"),
    ],
)
def test_bad_reader_kinds(tmp_path: Path, reader: str, message: str) -> None:
    error = load_error(tmp_path, f'[zones.base-1]\nreader = "{reader}"\n')
    assert "zones.base-1.reader: " in error
    assert message in error


@pytest.mark.parametrize(
    "reader", ["nfc:usb:054c:06c3", "nfc:tty:USB0:pn532", "serial:/dev/ttyACM0#3", "mock:"]
)
def test_good_reader_kinds(tmp_path: Path, reader: str) -> None:
    config = load_table_config(write(tmp_path, f'[zones.base-1]\nreader = "{reader}"\n'))
    assert config.hardware.readers == {"base-1": reader}


def test_one_reader_cannot_serve_two_zones(tmp_path: Path) -> None:
    text = (
        '[zones.base-1]\nreader = "serial:/dev/ttyACM0"\n'
        '[zones.base-2]\nreader = "serial:/dev/ttyACM0#0"\n'
    )
    message = load_error(tmp_path, text)
    assert "zones.base-2.reader: " in message and "already the reader of zones.base-1" in message


def test_simulated_readers_may_repeat(tmp_path: Path) -> None:
    text = MINIMAL + '[zones.base-2]\nreader = "sim:"\n'
    assert load_table_config(write(tmp_path, text)).hardware.zone_names == ("base-1", "base-2")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no zones; add [zones.base-1]"),
        ('[zones.discard]\nreader = "sim:"\n', "no base zone"),
        ("[zones.base-1]\nled = 17\n", 'zones.base-1: no reader; add reader = "sim:"'),
        ('[zones.base-1]\nreader = "sim:"\ncolour = "red"\n', "zones.base-1.colour: unknown key"),
        ("[zones]\nbase-1 = 'sim:'\n", "zones.base-1: write a table, [zones.base-1]"),
        (MINIMAL + "[tabel]\nport = 1\n", "unknown section [tabel]"),
        (MINIMAL + "[table]\nprot = 8080\n", "table.prot: unknown key"),
        (MINIMAL + '[table]\nport = "8080"\n', "table.port: expected an integer, e.g. port = 8080"),
        (MINIMAL + "[table]\nport = 70000\n", "table.port: 70000 is not a TCP port"),
        (MINIMAL + "[table]\nname = 3\n", 'table.name: expected a string, e.g. name = "..."'),
        (MINIMAL + "[buzzer]\ngpio = 18\n", "buzzer.gpio: unknown key; write [buzzer] pin = 18"),
        ("buttons = 3\n" + MINIMAL, "buttons must be a table"),
    ],
)
def test_structure_errors(tmp_path: Path, text: str, message: str) -> None:
    assert message in load_error(tmp_path, text)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("led = 0\n", "zones.base-1.led: GPIO0 (physical pin 27) is reserved"),
        ("led = 28\n", "zones.base-1.led: there is no GPIO28"),
        ('led = "BOARD2"\n', "zones.base-1.led: physical pin 2 is 5V"),
        (
            "led = 18\n[buzzer]\npin = 18\n",
            "buzzer.pin: GPIO18 is already used by zones.base-1.led",
        ),
        ("[buttons]\npause = 25\n", "buttons.pause: unknown button 'pause'"),
    ],
)
def test_pins_are_validated_through_the_pin_map(tmp_path: Path, extra: str, message: str) -> None:
    assert message in load_error(tmp_path, MINIMAL + extra)
