"""`companion doctor`: the self-check a person runs on the Pi after wiring the table.

Every reader of the table config (:func:`companion.hardware.doctor.check_reader`), then the
table as a whole: GPIO pins, the games database, the dashboard's port, the ``.local`` name.
A simulated zone (``sim:``, an emulated PN532 on nfcpy's own driver, or the UDP simulator)
moves its own card when a step asks for one, so the whole check runs on a laptop too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.hardware.checkup import Check, Verdict, ok, skipped
from companion.hardware.devices import groups_check
from companion.hardware.doctor import ReaderOptions, check_reader
from companion.hardware.host_checks import gpio_check
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.registry import ReaderContext
from companion.hardware.readers.sim_table import SimulatedTable
from companion.hardware.readers.trial import Move, Prompt
from companion.storage.writable import probe_store
from companion.table.config import TableConfig
from companion.table.network_checks import (
    SUBJECT,
    Resolver,
    name_check,
    port_check,
    running_check,
    table_running,
)

__all__ = ["DoctorOptions", "DoctorReport", "run_doctor", "simulated_prompt"]

#: the tag a simulated zone lays when the doctor asks for a card
DOCTOR_UID = "04D0C7042E1A80"


@dataclass(frozen=True, slots=True)
class DoctorOptions:
    readers: ReaderOptions = field(default_factory=ReaderOptions)
    db: str | None = None  #: the games database (default: the config's)
    port: int | None = None  #: the dashboard's port (default: the config's)
    zones: tuple[str, ...] = ()  #: only these zones (default: every one)
    pin_factory: Any = None
    #: the PN532 link a bare ``sim:`` zone emulates (default: the reader context's)
    sim_profile: str | None = None
    resolver: Resolver | None = None
    #: told when a zone's checks start (the CLI prints a heading)
    on_zone: Callable[[str, str], None] = lambda zone, spec: None


@dataclass(frozen=True, slots=True)
class DoctorReport:
    checks: tuple[Check, ...]

    @property
    def failed(self) -> bool:
        return any(check.verdict is Verdict.FAIL for check in self.checks)

    def count(self, verdict: Verdict) -> int:
        return sum(check.verdict is verdict for check in self.checks)

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": not self.failed,
            "counts": {verdict.value: self.count(verdict) for verdict in Verdict},
            "checks": [check.as_json() for check in self.checks],
        }


def run_doctor(config: TableConfig, options: DoctorOptions) -> DoctorReport:
    """Every check, in the order a person fixes things: readers first, then the table."""
    checks: list[Check] = []
    port = config.port if options.port is None else options.port
    zones = [z for z in config.hardware.zones if not options.zones or z.name in options.zones]
    if port and table_running(config.bind, port):  # its readers are busy: leave them be
        checks.append(running_check(port))
        checks += [skipped(z.name, "reader", "the table is running") for z in zones]
        zones = []
    context = ReaderContext(time.monotonic, options.sim_profile)
    try:
        for zone in zones:
            options.on_zone(zone.name, zone.reader)
            checks += _zone_checks(zone.name, zone.reader, context, options.readers)
    finally:
        context.close()
    checks.append(groups_check(options.readers.system, _groups_needed(config)))
    checks.append(gpio_check(config.hardware.pins, options.pin_factory))
    checks.append(store_check(Path(options.db or config.db)))
    checks.append(port_check(config.bind, port))
    checks.append(name_check(config.bind, options.resolver))
    return DoctorReport(tuple(checks))


def _groups_needed(config: TableConfig) -> set[str]:
    """``dialout`` for serial readers, ``gpio`` for pins."""
    needed = set()
    if any(spec.startswith(("nfc:tty:", "serial:")) for spec in config.hardware.readers.values()):
        needed.add("dialout")
    if not config.hardware.pins.is_empty:
        needed.add("gpio")
    return needed


def _zone_checks(
    zone: str, spec: str, context: ReaderContext, options: ReaderOptions
) -> list[Check]:
    kind, _, rest = spec.partition(":")
    if kind == "nfc":
        return check_reader(zone, rest, options)
    if kind == "sim":
        try:
            antenna = context.simulator.add_zone(zone, rest)
        except ValueError as exc:  # the config check lets any sim: through
            return [Check(zone, "reader", Verdict.FAIL, str(exc), "a simulated reader")]
        prompt = simulated_prompt(context.simulator) if options.prompt is not None else None
        return check_reader(zone, antenna.path, replace(options, prompt=prompt))
    if kind == "serial":
        return [
            skipped(
                zone,
                "reader",
                f"{spec} is a channel of a Pico reader board: its own firmware polls the PN532 "
                "(firmware/README.md); the readers page shows its health",
            )
        ]
    return [skipped(zone, "reader", f"{spec} is an in-memory reader (tests)")]


def simulated_prompt(simulator: SimulatedTable) -> Prompt:
    """A prompt that does what it asks on the simulated table, at once."""

    def move(zone: str, action: Move, words: str) -> float:
        antenna = simulator.zone(zone)
        if action == "lay":
            antenna.place(NtagCard.for_card(DOCTOR_UID))
        else:
            antenna.lift()
        return time.monotonic()

    return move


def store_check(path: Path) -> Check:
    access = probe_store(path)
    if access.state in ("writable", "new"):
        return ok(SUBJECT, "games database", access.message, "writable")
    if access.state == "busy":
        return Check(
            SUBJECT,
            "games database",
            Verdict.WARN,
            access.message,
            "writable",
            fix="A running table is writing to it (`systemctl status companion`); run the "
            "doctor again with the table stopped to be sure.",
        )
    fix = (
        "The table cannot keep its games there. Run the table as the owner of the file and its "
        "folder (the installed table: user companion, /var/lib/companion), check the disk is "
        "not full (`df -h`), or choose another file ([table] db in the table config)."
    )
    if access.state == "foreign":
        fix = "That file belongs to another program: choose another file ([table] db)."
    return Check(SUBJECT, "games database", Verdict.FAIL, access.message, "writable", fix)
