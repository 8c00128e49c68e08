"""``companion token``, and how ``serve`` and ``demo`` say to get control of the table.

``token`` finds the table it is for: the database ``--db`` names, else the one the table config
names (``--table``, else the installed service's config if there is one, else the simulated
table's, as ``serve --simulate`` uses). It refuses a database that does not exist rather than
make a token no table reads, and prints a link the table serves: the address and port the
running table bound (from the note it keeps beside its database), else the config's.
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.cli.addresses import say_token
from companion.cli.common import fail
from companion.errors import CompanionError
from companion.install.layout import TABLE_CONFIG
from companion.storage.serving import read_serving
from companion.storage.store import EventStore
from companion.storage.tokens import load_or_create_token, token_path, write_new_token
from companion.table.config import TableConfig, load_table_config
from companion.table.network import TableAddress, table_address
from companion.tape.english import plural

#: where the installed service's config lives (``companion install``)
INSTALLED_CONFIG = Path(str(TABLE_CONFIG))


@click.command()
@click.option("--db", help="SQLite file of games (default: the table config's).")
@click.option(
    "--table",
    "table_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Table config (default: the installed one, if any; else the simulated table's).",
)
@click.option("--rotate", is_flag=True, help="A new token: every paired tablet must pair again.")
def token(db: str | None, table_file: Path | None, rotate: bool) -> None:
    """Print the table's control token (a tablet needs it, or to be paired with the End-turn
    button, to change anything), as text and as a QR code of the dashboard address carrying it."""
    try:
        config = table_config(table_file)
    except CompanionError as exc:
        fail(str(exc))
    path = db or config.db
    if not Path(path).is_file():
        fail(no_table_there(path, db is not None))
    try:
        value, unpaired = rotate_token(path) if rotate else (load_token(path), 0)
    except (CompanionError, OSError) as exc:
        fail(str(exc))
    click.echo(value)
    if rotate:
        tablets = plural(unpaired, "paired tablet")
        click.echo(f"a new control token: {tablets} must pair again")
    served = read_serving(path)
    address = table_address(*((served.bind, served.port) if served else (config.bind, config.port)))
    if served is None:
        click.echo(f"the table for {path} is not running now; this link works once it is")
    say_token(address, value)


def table_config(table_file: Path | None) -> TableConfig:
    """The config named, else the installed service's, else the simulated table's."""
    if table_file is not None:
        return load_table_config(table_file)
    if INSTALLED_CONFIG.is_file():
        return load_table_config(INSTALLED_CONFIG)
    return TableConfig.simulated()


def no_table_there(path: str, named: bool) -> str:
    """Why there is no token for ``path``, and where the table's database is."""
    where = (
        f"there is no games database at {path}"
        if named
        else f"there is no games database at {path} (the default table's)"
    )
    hints = ["start the table first (`companion serve`), or give --db the file it uses"]
    if Path("demo.db").is_file() and path != "demo.db":
        hints.append("`companion demo` keeps its games in demo.db: `companion token --db demo.db`")
    return f"{where}; no token was made. " + "; ".join(hints)


def load_token(db: str) -> str:
    return load_or_create_token(token_path(db))


def rotate_token(db: str) -> tuple[str, int]:
    """A new control token, and every paired tablet forgotten (a running table notices at
    once); returns the token and how many tablets were paired."""
    value = write_new_token(token_path(db))
    with EventStore.open(db) as store:
        return value, store.tablets.forget()


def say_how_to_control(address: TableAddress, db: str, *, button: bool) -> None:
    """What ``serve`` prints: how a tablet gets control, in the words the page uses."""
    named = "" if db == "companion.db" else f" --db {db}"
    ways = ["tap Ask to control on the tablet, then press the table's End-turn button"]
    ways = ways if button else []
    ways.append(f"scan the QR code `companion token{named}` prints")
    if not address.on_lan:
        ways = [f"open the link `companion token{named}` prints, in this machine's browser"]
    click.echo("to control the table from the page: " + "; or ".join(ways))
