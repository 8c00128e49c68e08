"""``companion install``: set a Raspberry Pi up to run the table at boot (hardware/README.md)."""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import Path

import click

from companion.cli.common import fail
from companion.errors import CompanionError
from companion.install.apply import Installer
from companion.install.layout import DISTRIBUTION, TABLE_CONFIG
from companion.install.package import from_distribution, from_wheel
from companion.install.plan import plan_install
from companion.install.steps import InstallError, Outcome, PackageSource
from companion.table.config import load_table_config
from companion.table.network import table_address


@click.command()
@click.option(
    "--wheel",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The companion wheel to put in the service's venv (default: the version running this).",
)
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write into DIR instead of /, creating no user and reloading or starting nothing "
    "(to see what the installer writes).",
)
def install(wheel: Path | None, root: Path | None) -> None:
    """Install the table as a service that starts at boot: the companion user, a venv in
    /opt/companion, /var/lib/companion, /etc/companion/table.toml (never overwritten once
    there), the udev rules and the systemd unit. Run it again any time: it changes only what
    differs, and says so."""
    if root is None and os.geteuid() != 0:
        fail("installing changes the system: run it as root, `sudo companion install`")
    try:
        steps = plan_install(_package(wheel))
        if root is None:
            installer = Installer(report=_say)
        else:
            installer = Installer(root.resolve(), live=False, report=_say)
        outcomes = installer.apply(steps)
    except InstallError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{exc.filename or 'install'}: {exc.strerror}; nothing after it was changed")
    changes = sum(outcome.changed for outcome in outcomes)
    if changes:
        click.echo(f"done: {changes} change{'s' if changes > 1 else ''}")
    else:
        click.echo("nothing to change: the table was already installed like this")
    _check_config(installer.host(TABLE_CONFIG))


def _package(wheel: Path | None) -> PackageSource:
    if wheel is not None:
        return from_wheel(wheel)
    try:
        return from_distribution(metadata.distribution(DISTRIBUTION))
    except metadata.PackageNotFoundError:
        raise InstallError(
            f"{DISTRIBUTION} is not installed as a package here: give --wheel FILE"
        ) from None


def _check_config(path: Path) -> None:
    """Say where the table will be reached, or why it will not start with this config."""
    try:
        config = load_table_config(path)
    except CompanionError as exc:
        click.echo(f"warning: the service will not start until this is fixed: {exc}", err=True)
        return
    address = table_address(config.bind, config.port)
    if not address.on_lan:
        click.echo(
            f"warning: {path} binds {config.bind}: tablets cannot reach the table; "
            'set bind = "0.0.0.0" under [table]',
            err=True,
        )
    click.echo(f"the table's address: {address.url} (its log: journalctl -u companion)")


def _say(outcome: Outcome) -> None:
    click.echo(f"  {outcome}")
