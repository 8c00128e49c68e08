from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.hardware.pinmap import (
    DEFAULT_PIN_MAP,
    HEADER40,
    USABLE_GPIOS,
    PinMap,
    PinMapError,
    build_pin_map,
    load_pin_map,
    parse_pin,
)

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pins.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_pin_map_validates() -> None:
    pins = load_pin_map()
    assert pins.source == str(DEFAULT_PIN_MAP)
    assert [zone for zone, _ in pins.leds] == [f"base-{n}" for n in range(1, 6)]
    assert pins.buzzer is not None
    assert pins.button("end-turn") is not None and pins.button("undo") is not None
    used = [pin for _, pin in pins.pins()]
    assert len(used) == len(set(used)) == 8
    assert set(used) <= USABLE_GPIOS


def test_shipped_pin_map_leaves_uart_spi_and_i2c_free() -> None:
    used = {pin for _, pin in load_pin_map().pins()}
    assert not used & {2, 3, 7, 8, 9, 10, 11, 14, 15}


def test_header_has_40_pins_and_every_gpio_once() -> None:
    assert sorted(HEADER40) == list(range(1, 41))
    gpios = [v for v in HEADER40.values() if isinstance(v, int)]
    assert sorted(gpios) == list(range(28))
    assert {v for v in HEADER40.values() if isinstance(v, str)} == {"3V3", "5V", "GND"}


@pytest.mark.parametrize(
    ("value", "bcm"),
    [(17, 17), ("GPIO17", 17), ("bcm4", 4), ("BOARD11", 17), ("J8:12", 18), (" GPIO27 ", 27)],
)
def test_pin_spellings(value: object, bcm: int) -> None:
    assert parse_pin(value, "f: k") == bcm


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "GPIO0 (physical pin 27) is reserved"),
        (1, "GPIO1 (physical pin 28) is reserved"),
        (28, "no GPIO28 on the 40-pin header"),
        (40, "no GPIO40"),
        (-3, "no GPIO-3"),
        ("BOARD2", "physical pin 2 is 5V"),
        ("BOARD6", "physical pin 6 is GND"),
        ("J8:1", "physical pin 1 is 3V3"),
        ("BOARD41", "no pin 41"),
        ("GND", "power/ground pin"),
        ("5V", "power/ground pin"),
        ("pin17", "not a pin name"),
        (True, "not a pin"),
        (17.0, "not a pin"),
    ],
)
def test_bad_pins_are_refused_with_the_entry_named(value: object, message: str) -> None:
    with pytest.raises(PinMapError, match="^pins.toml: leds.base-1: ") as info:
        build_pin_map("pins.toml", {"base-1": value}, None, {})
    assert message in str(info.value)
    assert "write a BCM GPIO number from 2 to 27" in str(info.value)


def test_duplicate_pin_names_both_entries(tmp_path: Path) -> None:
    path = write(tmp_path, "[leds]\nbase-1 = 17\n[buttons]\nundo = 'BOARD11'\n")
    with pytest.raises(PinMapError) as info:
        load_pin_map(path)
    message = str(info.value)
    assert message.startswith(f"{path}: buttons.undo: GPIO17 is already used by leds.base-1")
    assert "pick a free one" in message


def test_errors_are_companion_value_errors() -> None:
    assert issubclass(PinMapError, CompanionError)
    assert issubclass(PinMapError, ValueError)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[leds]\nnorth = 17\n", "leds.north: unknown zone 'north'"),
        ("[leds]\nbase-0 = 17\n", "leds.base-0: unknown zone"),
        ("[buttons]\nreset = 23\n", "buttons.reset: unknown button 'reset'"),
        ("[buzzer]\npin = 18\nvolume = 3\n", "buzzer.volume: unknown key"),
        ("[lights]\nbase-1 = 17\n", "unknown section [lights]; a pin map has [leds]"),
        ("leds = 17\n", "leds must be a table"),
        ("[leds\n", "not valid TOML"),
    ],
)
def test_malformed_pin_maps(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(PinMapError, match=f"^{path}: ") as info:
        load_pin_map(path)
    assert message in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="cannot read the pin map"):
        load_pin_map(tmp_path / "nope.toml")


def test_empty_map_and_lookups() -> None:
    assert PinMap().is_empty
    pins = build_pin_map("x", {"discard": "GPIO4"}, 18, {"undo": 24})
    assert not pins.is_empty
    assert pins.led("discard") == 4 and pins.led("base-1") is None
    assert list(pins.pins()) == [("led discard", 4), ("buzzer", 18), ("button undo", 24)]


def test_wiring_doc_matches_the_pin_map_and_header() -> None:
    rows = re.findall(
        r"^\| (LED \S+|buzzer|button \S+) \| GPIO(\d+) \| (\d+) \| (\d+) \|",
        (HARDWARE / "wiring.md").read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    documented = {role.lower(): int(bcm) for role, bcm, _, _ in rows}
    assert documented == dict(load_pin_map().pins())
    for _, bcm, physical, ground in rows:
        assert HEADER40[int(physical)] == int(bcm)
        assert HEADER40[int(ground)] == "GND"
