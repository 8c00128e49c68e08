"""A zone reader's serial device as the system sees it: found under its udev name, usable by
this user, which kernel driver runs its link, and an FTDI bridge's latency timer.

Reads ``/dev`` and ``/sys`` only (roots injectable, so tests lay out a fake sysfs); opens no
device. The lines it returns are :class:`~companion.hardware.checkup.Check`\\ s.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from companion.hardware.checkup import Check, Verdict, ok, skipped

__all__ = ["DeviceFacts", "System", "device_checks", "groups_check", "tty_device"]

# nfcpy's own tty path: tty:<name>[:driver]; S0, AMA0, USB0, ACM0 are /dev/tty<name>
_TTY_PATH = re.compile(r"tty:([^:]+)(?::.*)?")
_NUMBERED = re.compile(r"(S|ACM|AMA|USB)\d+")
#: Linux's default for an FTDI bridge since 4.10; each read of an answer may wait this long
FTDI_DEFAULT_LATENCY_MS = 16
#: the udev rule that sets it to 1 ms (hardware/udev/99-companion-nfc.rules)
FTDI_RULE = 'ACTION!="remove", SUBSYSTEM=="usb-serial", DRIVER=="ftdi_sio", ATTR{latency_timer}="1"'


@dataclass(frozen=True, slots=True)
class System:
    """Where devices and their kernel facts are, and who asks (the real system by default)."""

    dev: Path = Path("/dev")
    sysfs: Path = Path("/sys")
    user: str = field(default_factory=lambda: _user_name())
    groups: frozenset[str] = field(default_factory=lambda: _group_names())
    can_use: Callable[[Path], bool] = field(default=lambda path: os.access(path, os.R_OK | os.W_OK))
    group_exists: Callable[[str], bool] = field(default=lambda name: _group_exists(name))


@dataclass(frozen=True, slots=True)
class DeviceFacts:
    """What was found of a reader's device (``None`` where it is not a local tty)."""

    device: Path | None = None
    found: bool = False
    #: the kernel driver behind it (``ftdi_sio``, ``cp210x``, ``uart-pl011``...), if known
    driver: str | None = None
    latency_timer_ms: int | None = None


def tty_device(nfc_path: str, dev: Path = Path("/dev")) -> Path | None:
    """The device node an nfcpy ``tty:`` path opens (``tty:nfc-zone1:pn532`` ->
    ``/dev/nfc-zone1``, ``tty:USB0`` -> ``/dev/ttyUSB0``), None for other paths."""
    match = _TTY_PATH.fullmatch(nfc_path)
    if match is None:
        return None
    name = match.group(1)
    return dev / (f"tty{name}" if _NUMBERED.fullmatch(name) else name)


def device_checks(zone: str, nfc_path: str, system: System) -> tuple[list[Check], DeviceFacts]:
    """The lines about ``zone``'s device, and what was found of it."""
    device = tty_device(nfc_path, system.dev)
    if device is None:
        return [], DeviceFacts()
    if not device.exists():
        return [_missing(zone, device)], DeviceFacts(device)
    real = device.resolve()
    checks = [_found(zone, device, real), _access(zone, real, system)]
    driver, latency = _kernel_facts(real, system)
    if driver == "ftdi_sio":
        checks.append(_latency_check(zone, latency))
    return checks, DeviceFacts(device, True, driver, latency)


def groups_check(system: System, wanted: Iterable[str]) -> Check:
    """Whether the user running the doctor is in the groups the table needs (``dialout`` for
    serial readers, ``gpio`` for the pins), as the installed service's user is."""
    needed = sorted(name for name in set(wanted) if system.group_exists(name))
    if not needed:
        return skipped("table", "user groups", "no device group needed on this machine")
    if system.user == "root":
        return Check(
            "table",
            "user groups",
            Verdict.WARN,
            "running as root, who may use every device",
            f"the table's user, in {', '.join(needed)}",
            fix="Run the doctor as the table's user, so it finds what the table will: "
            "`sudo -u companion companion doctor --table /etc/companion/table.toml`.",
        )
    missing = [name for name in needed if name not in system.groups]
    if not missing:
        return ok("table", "user groups", f"{system.user} is in {', '.join(needed)}")
    return Check(
        "table",
        "user groups",
        Verdict.FAIL,
        f"{system.user} is not in {', '.join(missing)}",
        f"in {', '.join(needed)}",
        fix=f"`sudo usermod -aG {','.join(missing)} {system.user}`, then log out and in again "
        "(`sudo companion install` puts the service's user companion in them).",
    )


def _missing(zone: str, device: Path) -> Check:
    return Check(
        zone,
        "reader found",
        Verdict.FAIL,
        f"{device} does not exist",
        f"{device} present",
        fix=(
            f"No reader is plugged in under the name {device.name}. Check that this zone's "
            "reader is plugged into the hub port labelled for it and that the hub has power. "
            "If it is, the udev rule does not name that port yet: see "
            "/etc/udev/rules.d/99-companion-nfc.rules (its comments show how to find the port), "
            "then `ls -l /dev/nfc-zone*` should list one name per reader."
        ),
    )


def _found(zone: str, device: Path, real: Path) -> Check:
    if device.is_symlink():
        return ok(zone, "reader found", f"{device} -> {real}", "a udev name", device=str(real))
    return Check(
        zone,
        "reader found",
        Verdict.WARN,
        f"{device} (not a udev name)",
        "a udev name such as /dev/nfc-zone1",
        fix=(
            f"{device.name} is numbered in plug-in order, so zones can swap after a restart or a "
            "replug. Name the reader's hub port in /etc/udev/rules.d/99-companion-nfc.rules and "
            'use that name in the table config (reader = "nfc:tty:nfc-zone1:pn532").'
        ),
    )


def _access(zone: str, real: Path, system: System) -> Check:
    group = _group_of(real)
    if system.can_use(real):
        return ok(zone, "device permissions", f"{system.user} may read and write ({group})")
    fix = (
        f"Add the user to the group {group}: `sudo usermod -aG {group} {system.user}`, then log "
        "out and in again (the installed service's user `companion` is already in dialout)."
    )
    if group in system.groups:
        fix = (
            f"{system.user} is in {group}, but the device does not let {group} write: the udev "
            'rule must set GROUP="dialout", MODE="0660" (sudo companion install puts it back).'
        )
    return Check(
        zone,
        "device permissions",
        Verdict.FAIL,
        f"{system.user} may not open {real} (group {group}; {system.user} is in "
        f"{', '.join(sorted(system.groups)) or 'no group'})",
        "read and write for this user",
        fix,
    )


def _kernel_facts(real: Path, system: System) -> tuple[str | None, int | None]:
    """The kernel driver of a tty and, for an FTDI bridge, its latency timer."""
    name = (
        str(real.relative_to(system.dev)).replace("/", "!")
        if real.is_relative_to(system.dev)
        else real.name
    )
    node = system.sysfs / "class" / "tty" / name / "device"
    driver_link = node / "driver"
    driver = os.path.basename(os.readlink(driver_link)) if driver_link.is_symlink() else None
    latency = None
    with contextlib.suppress(OSError, ValueError):
        latency = int((node / "latency_timer").read_text().strip())
    return driver, latency


def _latency_check(zone: str, latency: int | None) -> Check:
    if latency == 1:
        return ok(zone, "FTDI latency timer", "1 ms", "1 ms", latency_timer_ms=1)
    shown = "unreadable" if latency is None else f"{latency} ms"
    return Check(
        zone,
        "FTDI latency timer",
        Verdict.FAIL,
        shown,
        "1 ms",
        fix=(
            f"This reader's FTDI USB bridge holds every answer up to {shown} (Linux's default is "
            f"{FTDI_DEFAULT_LATENCY_MS} ms): cards are seen about half a second late. "
            f"Add this line to /etc/udev/rules.d/99-companion-nfc.rules (a new install has it): "
            f"{FTDI_RULE} then run `sudo udevadm control --reload && sudo udevadm trigger "
            "--subsystem-match=usb-serial` (or unplug the reader and plug it in again). Better "
            "still, use a CP2102 or CH340 bridge (hardware/bom.md)."
        ),
        value=float(latency) if latency is not None else None,
    )


def _group_of(path: Path) -> str:
    gid = path.stat().st_gid
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return f"gid {gid}"


def _user_name() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def _group_names() -> frozenset[str]:
    names = set()
    for gid in os.getgroups():
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            names.add(f"gid {gid}")
    return frozenset(names)


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True
