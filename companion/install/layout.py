"""Where an installed table lives on the Pi.

``hardware/systemd/companion.service`` names the same paths (it is a static file);
``tests/test_install_unit.py`` holds the two together.
"""

from __future__ import annotations

from pathlib import PurePosixPath

#: the distribution the venv must hold (pyproject.toml's [project] name)
DISTRIBUTION = "table-companion"

SERVICE_USER = "companion"
SERVICE_UNIT = "companion.service"
NO_LOGIN_SHELL = "/usr/sbin/nologin"

#: groups that own the devices the service opens, and what is lost without each
DEVICE_GROUPS: dict[str, str] = {
    "gpio": "the LEDs, buzzer and buttons (/dev/gpiochip*)",
    "dialout": "serial readers (USB-serial bridges, Pico reader boards)",
    "plugdev": "native USB readers opened through nfcpy",
}

#: Debian's interpreter: the one python3-lgpio (apt) is installed for
SYSTEM_PYTHON = "/usr/bin/python3"

APP_DIR = PurePosixPath("/opt/companion")
VENV_DIR = APP_DIR / "venv"
#: on root's PATH (sudo's secure_path), so later runs are `sudo companion install`
COMMAND_LINK = PurePosixPath("/usr/local/bin/companion")
STATE_DIR = PurePosixPath("/var/lib/companion")
CONFIG_DIR = PurePosixPath("/etc/companion")
TABLE_CONFIG = CONFIG_DIR / "table.toml"
UNIT_FILE = PurePosixPath("/etc/systemd/system") / SERVICE_UNIT
UDEV_RULES = PurePosixPath("/etc/udev/rules.d/99-companion-nfc.rules")
MODPROBE_BLACKLIST = PurePosixPath("/etc/modprobe.d/companion-nfc-blacklist.conf")
