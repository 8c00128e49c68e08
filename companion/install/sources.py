"""The files the installer copies onto the system, and the table config it starts from."""

from __future__ import annotations

import re
import tomllib
from importlib import resources

from companion.install.steps import InstallError

__all__ = ["LAN_BIND", "lan_table_config", "packaged_text"]

# The one place that knows where the shipped files come from: the package data of
# companion.hardware (in a checkout, links to the repository's hardware/ folder).
_DATA = resources.files("companion.hardware").joinpath("data")

#: the address the installed table listens on: every interface, so tablets on the LAN reach it
LAN_BIND = "0.0.0.0"
_BIND_LINE = re.compile(r'^(bind\s*=\s*)"[^"]*"', re.MULTILINE)


def packaged_text(name: str) -> str:
    """The text of a file shipped in the package's hardware data (``"companion.service"``).
    :raises InstallError: it is not in this installation."""
    try:
        return _DATA.joinpath(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise InstallError(
            f"{name} is missing from this installation's hardware data ({exc.strerror}); "
            "reinstall the companion's wheel"
        ) from exc


def lan_table_config(example: str) -> str:
    """The example table config, listening on the LAN instead of only on the Pi itself (a Pi
    without a screen is only ever used from a tablet). :raises InstallError: the example no
    longer has exactly one ``bind = "..."`` line under [table]."""
    text, count = _BIND_LINE.subn(rf'\g<1>"{LAN_BIND}"', example)
    try:
        bind = tomllib.loads(text).get("table", {}).get("bind") if count == 1 else None
    except tomllib.TOMLDecodeError:
        bind = None
    if bind != LAN_BIND:
        raise InstallError("the example table config has no single [table] bind line to set")
    return text
