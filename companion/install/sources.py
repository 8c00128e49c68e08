"""The files the installer copies onto the system, and the table config it starts from."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from companion.install.steps import InstallError

__all__ = ["LAN_BIND", "lan_table_config", "packaged_text"]

# The one place that knows where the hardware files come from. Today: the source tree's
# hardware/ folder beside the package (so the installer runs from a checkout or an editable
# install); once they ship as package data, this becomes importlib.resources.files(...).
_HARDWARE = Path(__file__).resolve().parents[2] / "hardware"

#: the address the installed table listens on: every interface, so tablets on the LAN reach it
LAN_BIND = "0.0.0.0"
_BIND_LINE = re.compile(r'^(bind\s*=\s*)"[^"]*"', re.MULTILINE)


def packaged_text(name: str) -> str:
    """The text of a shipped hardware file, by its path under ``hardware/``
    (``"systemd/companion.service"``). :raises InstallError: it is not in this installation."""
    try:
        return (_HARDWARE / name).read_text(encoding="utf-8")
    except OSError as exc:
        raise InstallError(
            f"hardware/{name} is not in this installation ({exc.strerror}); "
            "run the installer from a source checkout of the companion"
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
