"""Pin maps as data: which GPIO drives each zone LED, the buzzer and the buttons.

A pin map lives in a TOML file (``hardware/pins.toml`` is the default build)::

    [leds]              # one LED per zone, BCM numbering
    base-1 = 17
    [buzzer]
    pin = 18
    [buttons]
    end-turn = 23
    undo = 24

A pin is a BCM number (``17``) or a string gpiozero also understands: ``"GPIO17"``,
``"BCM17"``, ``"BOARD11"`` or ``"J8:11"`` (physical header pin 11). Every pin is normalised to
its BCM number and checked against :data:`HEADER40`: it must be a usable GPIO (2 to 27, since
GPIO0/1 are the HAT ID EEPROM bus), and no pin may be used twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from companion.errors import CompanionError
from companion.hardware.tomlfile import read_toml

__all__ = [
    "BUTTONS",
    "DEFAULT_PIN_MAP",
    "HEADER40",
    "USABLE_GPIOS",
    "PinMap",
    "PinMapError",
    "build_pin_map",
    "is_zone_name",
    "load_pin_map",
    "parse_pin",
]


class PinMapError(CompanionError, ValueError):
    """A pin map is malformed; the message names the file, the entry and what to write."""


DEFAULT_PIN_MAP = Path(str(resources.files("companion.hardware").joinpath("data", "pins.toml")))
"""The default build's pin map, shipped in the package (the repository's ``hardware/pins.toml``)."""

HEADER40: dict[int, int | str] = {
    # physical pin: BCM GPIO number, or the name of a power/ground pin
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}  # fmt: skip
"""The Raspberry Pi 40-pin header (J8), identical on the Pi 2B through the Pi 5."""

PHYSICAL: dict[int, int] = {bcm: pin for pin, bcm in HEADER40.items() if isinstance(bcm, int)}
"""BCM GPIO number -> physical header pin."""

USABLE_GPIOS = frozenset(range(2, 28))
"""GPIOs a pin map may use: all of the header's GPIOs except GPIO0/1 (ID_SD/ID_SC)."""

BUTTONS = ("end-turn", "undo")
"""Button names the companion knows."""

_ZONE = re.compile(r"base-[1-9][0-9]*|discard")
_PIN_TEXT = re.compile(r"(?:(GPIO|BCM)|(BOARD|J8:))([0-9]+)", re.IGNORECASE)
_POWER_NAMES = {"3V3", "3.3V", "5V", "GND"}


def is_zone_name(name: str) -> bool:
    """Whether ``name`` is a zone the tracker knows: ``base-N`` (N >= 1) or ``discard``."""
    return _ZONE.fullmatch(name) is not None


@dataclass(frozen=True, slots=True)
class PinMap:
    """BCM pins per role; an empty map (the default) means "no GPIO on this machine"."""

    leds: tuple[tuple[str, int], ...] = ()
    buzzer: int | None = None
    buttons: tuple[tuple[str, int], ...] = ()
    source: str = "<pin map>"

    @property
    def is_empty(self) -> bool:
        return not self.leds and self.buzzer is None and not self.buttons

    def led(self, zone: str) -> int | None:
        """The LED pin of ``zone``, or None."""
        return dict(self.leds).get(zone)

    def button(self, name: str) -> int | None:
        """The pin of button ``name`` (``end-turn``, ``undo``), or None."""
        return dict(self.buttons).get(name)

    def pins(self) -> Iterator[tuple[str, int]]:
        """``(role, bcm)`` for every pin used, e.g. ``("led base-1", 17)``, ``("buzzer", 18)``."""
        for zone, pin in self.leds:
            yield f"led {zone}", pin
        if self.buzzer is not None:
            yield "buzzer", self.buzzer
        for name, pin in self.buttons:
            yield f"button {name}", pin


def _free(used: set[int], count: int = 4) -> str:
    return ", ".join(str(pin) for pin in sorted(USABLE_GPIOS - used)[:count])


def parse_pin(value: object, where: str) -> int:
    """The BCM number ``value`` names (see the module docstring).

    :param where: ``"<file>: <key>"``, put at the front of error messages.
    :raises PinMapError: for anything that is not a usable GPIO on the 40-pin header.
    """
    hint = "write a BCM GPIO number from 2 to 27, e.g. 17 (physical pin 11)"
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PinMapError(f"{where}: {value!r} is not a pin; {hint}")
    if isinstance(value, str):
        text = value.strip()
        if text.upper() in _POWER_NAMES:
            raise PinMapError(f"{where}: {value!r} is a power/ground pin, not a GPIO; {hint}")
        match = _PIN_TEXT.fullmatch(text)
        if match is None:
            raise PinMapError(f"{where}: {value!r} is not a pin name; {hint}")
        number = int(match.group(3))
        if match.group(2):  # physical numbering
            if number not in HEADER40:
                raise PinMapError(f"{where}: the 40-pin header has no pin {number}; {hint}")
            target = HEADER40[number]
            if isinstance(target, str):
                raise PinMapError(
                    f"{where}: physical pin {number} is {target} (power/ground), not a GPIO; {hint}"
                )
            value = target
        else:
            value = number
    if value in (0, 1):
        raise PinMapError(
            f"{where}: GPIO{value} (physical pin {PHYSICAL[value]}) is reserved for the HAT ID "
            f"EEPROM; {hint}"
        )
    if value not in USABLE_GPIOS:
        raise PinMapError(f"{where}: there is no GPIO{value} on the 40-pin header; {hint}")
    return value


def build_pin_map(
    source: str,
    leds: Mapping[str, object],
    buzzer: object | None,
    buttons: Mapping[str, object],
    *,
    led_key: str = "leds.{zone}",
    buzzer_key: str = "buzzer.pin",
    button_key: str = "buttons.{name}",
) -> PinMap:
    """A validated :class:`PinMap` from raw values; ``*_key`` templates name entries in errors.

    :raises PinMapError: unknown zone or button, an unusable pin, or a pin used twice.
    """
    used: dict[int, str] = {}

    def claim(key: str, raw: object) -> int:
        where = f"{source}: {key}"
        pin = parse_pin(raw, where)
        if pin in used:
            raise PinMapError(
                f"{where}: GPIO{pin} is already used by {used[pin]}; each pin drives one thing, "
                f"pick a free one (e.g. {_free(set(used))})"
            )
        used[pin] = key
        return pin

    led_pins = []
    for zone, raw in leds.items():
        key = led_key.format(zone=zone)
        if not is_zone_name(zone):
            raise PinMapError(
                f"{source}: {key}: unknown zone {zone!r}; zones are base-1, base-2, ... or discard"
            )
        led_pins.append((zone, claim(key, raw)))
    buzzer_pin = None if buzzer is None else claim(buzzer_key, buzzer)
    button_pins = []
    for name, raw in buttons.items():
        key = button_key.format(name=name)
        if name not in BUTTONS:
            raise PinMapError(
                f"{source}: {key}: unknown button {name!r}; buttons are {', '.join(BUTTONS)}"
            )
        button_pins.append((name, claim(key, raw)))
    return PinMap(tuple(led_pins), buzzer_pin, tuple(button_pins), source)


def _table(document: Mapping[str, object], name: str, source: str) -> Mapping[str, object]:
    value = document.get(name, {})
    if not isinstance(value, dict):
        raise PinMapError(f"{source}: {name} must be a table, e.g. [{name}]")
    return value


def load_pin_map(path: str | Path = DEFAULT_PIN_MAP) -> PinMap:
    """Read and validate a pin map file (``[leds]``, ``[buzzer] pin``, ``[buttons]``).

    :raises PinMapError: a missing or malformed file, an unknown section or key, a bad pin.
    """
    source = str(path)
    document = read_toml(path, "pin map", ("leds", "buzzer", "buttons"), PinMapError)
    buzzer = _table(document, "buzzer", source)
    extra = sorted(set(buzzer) - {"pin"})
    if extra:
        raise PinMapError(f"{source}: buzzer.{extra[0]}: unknown key; write [buzzer] pin = 18")
    return build_pin_map(
        source,
        _table(document, "leds", source),
        buzzer.get("pin"),
        _table(document, "buttons", source),
    )
