"""What every command shares: the catalogue, and failing with a message instead of a traceback."""

from __future__ import annotations

import sys
from typing import Any

import click

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.errors import CompanionError

DEFAULT_DB = "companion.db"
#: sysexits.h EX_CONFIG: a start-up failure a restart cannot fix; the systemd unit's
#: RestartPreventExitStatus=78 keeps the service stopped (and says so) instead of looping
EX_CONFIG = 78


def catalogue_or_fail() -> Catalogue:
    try:
        return load_catalogue()
    except CompanionError as exc:
        fail(str(exc))
        raise  # fail() exits; this keeps the type checker sure


def fail(message: str, status: int = 1) -> Any:
    echo(f"error: {message}", err=True)
    sys.exit(status)


def echo(text: str, *, err: bool = False) -> None:
    """``click.echo`` that cannot fail on text no encoder can write (a file name that is not
    UTF-8 comes back from the OS with lone surrogates): those are shown escaped."""
    click.echo(printable(text), err=err)


def printable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
