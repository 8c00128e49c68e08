"""What every command shares: the catalogue, and failing with a message instead of a traceback."""

from __future__ import annotations

import sys
from typing import Any

import click

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.errors import CompanionError

DEFAULT_DB = "companion.db"


def catalogue_or_fail() -> Catalogue:
    try:
        return load_catalogue()
    except CompanionError as exc:
        fail(str(exc))
        raise  # fail() exits; this keeps the type checker sure


def fail(message: str) -> Any:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)
