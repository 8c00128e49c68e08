"""The data the package reads ships inside it: the repository's cards/ and hardware/ files are
reached through links in the package, byte for byte, read with importlib.resources."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HARDWARE_FILES = {
    "pins.toml": "hardware/pins.toml",
    "table.example.toml": "hardware/table.example.toml",
    "companion.service": "hardware/systemd/companion.service",
    "99-companion-nfc.rules": "hardware/udev/99-companion-nfc.rules",
    "companion-nfc-blacklist.conf": "hardware/udev/companion-nfc-blacklist.conf",
}


@pytest.mark.parametrize("source", sorted(p.name for p in (REPO / "cards").glob("*.json")))
def test_every_card_set_ships_in_the_package(source: str) -> None:
    packaged = resources.files("companion.catalogue").joinpath("data", source)
    assert packaged.read_bytes() == (REPO / "cards" / source).read_bytes()


def test_the_package_ships_no_card_set_the_repository_lacks() -> None:
    packaged = {p.name for p in resources.files("companion.catalogue").joinpath("data").iterdir()}
    assert packaged == {p.name for p in (REPO / "cards").glob("*.json")}


@pytest.mark.parametrize(("name", "source"), sorted(HARDWARE_FILES.items()))
def test_hardware_files_ship_in_the_package(name: str, source: str) -> None:
    packaged = resources.files("companion.hardware").joinpath("data", name)
    assert packaged.read_bytes() == (REPO / source).read_bytes()


@pytest.mark.parametrize("folder", ["templates", "static/js", "static/css"])
def test_the_dashboard_files_are_inside_the_package(folder: str) -> None:
    assert any(resources.files("companion.web").joinpath(folder).iterdir())
