"""Reading a TOML settings file (table config, pin map): the same errors for both."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def read_toml(
    path: str | Path, what: str, sections: Sequence[str], error: type[Exception]
) -> dict[str, Any]:
    """The file's document. :raises error: a missing or unreadable file, bad TOML, or a
    section other than ``sections`` (each message starts with the path and says what to do)."""
    where = str(path)
    try:
        with open(path, "rb") as file:
            document = tomllib.load(file)
    except OSError as exc:
        raise error(f"{where}: cannot read the {what}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML: {exc}") from exc
    unknown = sorted(set(document) - set(sections))
    if unknown:
        raise error(
            f"{where}: unknown section [{unknown[0]}]; a {what} has "
            + ", ".join(f"[{name}]" for name in sections)
        )
    return document
