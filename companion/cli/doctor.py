"""``companion doctor``: check the table's readers, pins, database, port and name, line by line."""

from __future__ import annotations

import json
from pathlib import Path

import click

from companion.cli.common import EX_CONFIG, echo, fail
from companion.errors import CompanionError
from companion.hardware.checkup import Check, Verdict
from companion.hardware.doctor import ReaderOptions
from companion.hardware.readers.pn532_timing import PROFILES
from companion.hardware.readers.trial import Move, Prompt
from companion.table.config import TableConfig, load_table_config
from companion.table.doctor import DoctorOptions, DoctorReport, run_doctor

_MARKS = {Verdict.OK: " ok ", Verdict.WARN: "WARN", Verdict.FAIL: "FAIL", Verdict.SKIP: " -- "}


@click.command()
@click.option(
    "--table",
    "table_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Table config (the installed table's: /etc/companion/table.toml).",
)
@click.option("--simulate", is_flag=True, help="Check a simulated table (no hardware).")
@click.option(
    "--profile",
    type=click.Choice(list(PROFILES)),
    help="With --simulate: the PN532 link to emulate (default pi-uart-921600).",
)
@click.option("--zone", "zones", multiple=True, help="Only this zone (repeatable).")
@click.option("--db", help="SQLite file of games (default: the config's).")
@click.option("--port", type=int, help="Dashboard port (default: the config's).")
@click.option("--no-cards", is_flag=True, help="Skip the steps that need a card laid and lifted.")
@click.option(
    "--tries", default=200, show_default=True, help="Round trips, polls and READs to time."
)
@click.option("--taps", default=3, show_default=True, help="Cards laid and lifted per zone.")
@click.option("--wait", default=60.0, show_default=True, help="Seconds to wait for each card move.")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON (for scripts).")
def doctor(
    table_file: Path | None,
    simulate: bool,
    profile: str | None,
    zones: tuple[str, ...],
    db: str | None,
    port: int | None,
    no_cards: bool,
    tries: int,
    taps: int,
    wait: float,
    as_json: bool,
) -> None:
    """Check the table after wiring it: each reader (found, permissions, firmware, link speed,
    polls, a card's reads, taps), the GPIO pins, the games database, the dashboard's port and
    the table's .local name. Each line: measured, expected, verdict, and what to do. Stop the
    table first (`sudo systemctl stop companion`). Exits 1 if anything failed."""
    if profile and not simulate:
        raise click.UsageError("--profile is for --simulate (a real table's readers are real)")
    config = _config(table_file, simulate, zones, tries, taps, wait)
    readers = ReaderOptions(_ask_person(as_json) if not no_cards else None, tries, taps, wait)
    options = DoctorOptions(
        readers=readers,
        db=db,
        port=port,
        zones=zones,
        sim_profile=profile,
        on_zone=(lambda zone, spec: None) if as_json else _heading,
    )
    report = run_doctor(config, options)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2))
    else:
        _print(report)
    if report.failed:
        raise SystemExit(1)


def _config(
    table_file: Path | None,
    simulate: bool,
    zones: tuple[str, ...],
    tries: int,
    taps: int,
    wait: float,
) -> TableConfig:
    """The table to check, or a usage error saying what to write."""
    if (table_file is None) == (not simulate):
        raise click.UsageError("give --table FILE (e.g. /etc/companion/table.toml), or --simulate")
    if tries < 1 or taps < 0 or wait <= 0:
        raise click.UsageError("--tries must be at least 1, --taps 0 or more, --wait above 0")
    try:
        config = load_table_config(table_file) if table_file else TableConfig.simulated(zones=2)
    except CompanionError as exc:
        fail(str(exc), EX_CONFIG)
    unknown = sorted(set(zones) - set(config.hardware.zone_names))
    if unknown:
        raise click.UsageError(
            f"no zone {unknown[0]!r}; this table has {', '.join(config.hardware.zone_names)}"
        )
    return config


def _ask_person(quiet: bool) -> Prompt:
    def ask(zone: str, move: Move, words: str) -> float | None:
        # a person's moment is not known: the doctor estimates it from the reader's polls
        click.echo(f"  >> {words}", err=quiet)
        return None

    return ask


def _heading(zone: str, spec: str) -> None:
    click.echo(f"{zone} ({spec}): checking...")


def _print(report: DoctorReport) -> None:
    subject = None
    for check in report.checks:
        if check.subject != subject:
            subject = check.subject
            click.echo(f"\n{subject}")
        echo(_line(check))
        if check.fix:
            echo(f"         fix: {check.fix}")
    counts = ", ".join(f"{report.count(v)} {v.value}" for v in Verdict if report.count(v))
    click.echo(f"\n{'FAILED' if report.failed else 'all good'}: {counts}")


def _line(check: Check) -> str:
    expected = f"  (expected {check.expected})" if check.expected else ""
    return f"  [{_MARKS[check.verdict]}] {check.name}: {check.measured}{expected}"
