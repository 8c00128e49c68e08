"""The install plan: everything a table needs on the Pi, as steps (pure: reads only the
shipped files, through ``read``)."""

from __future__ import annotations

from collections.abc import Callable

from companion.install.layout import (
    APP_DIR,
    COMMAND_LINK,
    CONFIG_DIR,
    DEVICE_GROUPS,
    MODPROBE_BLACKLIST,
    NO_LOGIN_SHELL,
    SERVICE_UNIT,
    SERVICE_USER,
    STATE_DIR,
    SYSTEM_PYTHON,
    TABLE_CONFIG,
    UDEV_RULES,
    UNIT_FILE,
    VENV_DIR,
)
from companion.install.sources import lan_table_config, packaged_text
from companion.install.steps import (
    EnsureDirectory,
    EnsureEnabled,
    EnsureFile,
    EnsureLink,
    EnsureUser,
    EnsureVenv,
    PackageSource,
    RunAfterChange,
    Step,
)

__all__ = ["plan_install"]


def plan_install(
    package: PackageSource,
    *,
    read: Callable[[str], str] = packaged_text,
    python: str = SYSTEM_PYTHON,
) -> tuple[Step, ...]:
    """The steps, in order: the service user, the code (and a ``companion`` command on root's
    PATH), the state and config folders, the
    device rules, the unit; then reloads where those changed, enabling, and a restart when
    anything the running service uses changed."""
    owner = SERVICE_USER
    user = EnsureUser(owner, STATE_DIR, NO_LOGIN_SHELL, tuple(DEVICE_GROUPS.items()))
    venv = EnsureVenv(VENV_DIR, python, package)
    config = EnsureFile(
        TABLE_CONFIG,
        lan_table_config(read("table.example.toml")),
        0o640,
        "root",
        owner,
        keep_edited=True,
        note="the readers and pins of your table: edit it, then restart the service",
    )
    rules = EnsureFile(
        UDEV_RULES,
        read("99-companion-nfc.rules"),
        0o644,
        keep_edited=True,
        note="name each reader by its USB port there (see the comments in it)",
    )
    blacklist = EnsureFile(
        MODPROBE_BLACKLIST,
        read("companion-nfc-blacklist.conf"),
        0o644,
        note="takes effect at the next boot (only native USB PN533 readers need it)",
    )
    unit = EnsureFile(UNIT_FILE, read("companion.service"), 0o644)
    return (
        user,
        EnsureDirectory(APP_DIR, 0o755, "root", "root"),
        venv,
        EnsureLink(COMMAND_LINK, VENV_DIR / "bin" / "companion"),
        EnsureDirectory(STATE_DIR, 0o700, owner, owner),
        EnsureDirectory(CONFIG_DIR, 0o750, "root", owner),
        config,
        rules,
        blacklist,
        unit,
        RunAfterChange(("systemctl", "daemon-reload"), after=(unit,)),
        RunAfterChange(("udevadm", "control", "--reload"), after=(rules,)),
        RunAfterChange(
            # usb-serial: the FTDI latency timer rule is on the bridge, not its tty
            ("udevadm", "trigger", "--subsystem-match=tty", "--subsystem-match=usb-serial"),
            after=(rules,),
        ),
        EnsureEnabled(SERVICE_UNIT),
        RunAfterChange(("systemctl", "restart", SERVICE_UNIT), after=(user, venv, config, unit)),
    )
