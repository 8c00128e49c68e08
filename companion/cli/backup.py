"""``companion backup``: a consistent copy of the store, safe while the table runs."""

from __future__ import annotations

from pathlib import Path

import click

from companion.cli.common import DEFAULT_DB, echo, fail
from companion.errors import StoreError
from companion.storage.backup import backup_store
from companion.storage.store import EventStore


@click.command()
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite file of games.")
def backup(target: Path, db: str) -> None:
    """Back up the store to TARGET (a new file, readable by you only). It is checked first;
    the table may keep running. To restore, stop the table and copy TARGET over the store."""
    try:
        # refuses a file not ours or damaged; an old one is copied as it is (before an update)
        with EventStore.open_read_only(db, any_schema=True) as store:
            games = store.log.count_games()
        backup_store(db, target)
    except StoreError as exc:
        fail(str(exc))
    echo(f"backed up {db} ({games} game{'s' if games != 1 else ''}) to {target}")
