"""The install plan and its pure parts: accounts, the package source, the shipped files."""

from __future__ import annotations

import json
import tomllib
from importlib import metadata
from pathlib import Path, PurePosixPath

import pytest

from companion.install.accounts import Accounts, missing_groups, user_commands
from companion.install.layout import DEVICE_GROUPS, TABLE_CONFIG, UDEV_RULES, UNIT_FILE, VENV_DIR
from companion.install.package import from_distribution, from_wheel, installed_version
from companion.install.plan import plan_install
from companion.install.sources import LAN_BIND, lan_table_config, packaged_text
from companion.install.steps import (
    EnsureDirectory,
    EnsureEnabled,
    EnsureFile,
    EnsureLink,
    EnsureUser,
    EnsureVenv,
    InstallError,
    PackageSource,
    RunAfterChange,
)
from tests.installing import REPO

PACKAGE = PackageSource("table-companion", "0.1.0", "/tmp/table_companion-0.1.0-py3-none-any.whl")
PLAN = plan_install(PACKAGE)
HARDWARE = REPO / "hardware"


def _step(kind: type, path: str) -> object:
    return next(s for s in PLAN if isinstance(s, kind) and str(getattr(s, "path", "")) == path)


def test_folders_and_files_with_their_modes_and_owners() -> None:
    shapes = {
        str(s.path): (type(s).__name__, f"{s.mode:04o}", s.user, s.group)
        for s in PLAN
        if isinstance(s, EnsureDirectory | EnsureFile)
    }
    assert shapes == {
        "/opt/companion": ("EnsureDirectory", "0755", "root", "root"),
        "/var/lib/companion": ("EnsureDirectory", "0700", "companion", "companion"),
        "/etc/companion": ("EnsureDirectory", "0750", "root", "companion"),
        "/etc/companion/table.toml": ("EnsureFile", "0640", "root", "companion"),
        "/etc/udev/rules.d/99-companion-nfc.rules": ("EnsureFile", "0644", "root", "root"),
        "/etc/modprobe.d/companion-nfc-blacklist.conf": ("EnsureFile", "0644", "root", "root"),
        "/etc/systemd/system/companion.service": ("EnsureFile", "0644", "root", "root"),
    }


def test_shipped_files_are_copied_as_they_are() -> None:
    for path, source in [
        ("/etc/systemd/system/companion.service", "systemd/companion.service"),
        ("/etc/udev/rules.d/99-companion-nfc.rules", "udev/99-companion-nfc.rules"),
        ("/etc/modprobe.d/companion-nfc-blacklist.conf", "udev/companion-nfc-blacklist.conf"),
    ]:
        step = _step(EnsureFile, path)
        assert isinstance(step, EnsureFile)
        assert step.text == (HARDWARE / source).read_text(encoding="utf-8")


def test_only_what_people_edit_is_kept_once_there() -> None:
    kept = {str(s.path) for s in PLAN if isinstance(s, EnsureFile) and s.keep_edited}
    assert kept == {str(TABLE_CONFIG), str(UDEV_RULES)}


def test_the_table_config_is_the_example_listening_on_the_lan() -> None:
    step = _step(EnsureFile, str(TABLE_CONFIG))
    assert isinstance(step, EnsureFile)
    example = tomllib.loads((HARDWARE / "table.example.toml").read_text(encoding="utf-8"))
    installed = tomllib.loads(step.text)
    assert installed["table"].pop("bind") == LAN_BIND
    example["table"].pop("bind")
    assert installed == example


def test_lan_config_refuses_an_example_without_one_bind_line() -> None:
    with pytest.raises(InstallError, match="bind"):
        lan_table_config('[table]\nname = "x"\n')
    with pytest.raises(InstallError, match="bind"):
        lan_table_config('[table]\nbind = "a"\n[zones.base-1]\nbind = "b"\n')


def test_user_venv_and_the_commands_after_changes() -> None:
    user = PLAN[0]
    assert isinstance(user, EnsureUser)
    assert (user.name, str(user.home), user.shell) == (
        "companion",
        "/var/lib/companion",
        "/usr/sbin/nologin",
    )
    assert [name for name, _ in user.groups] == ["gpio", "dialout", "plugdev"]
    venv = PLAN[2]
    assert isinstance(venv, EnsureVenv)
    assert (venv.path, venv.python, venv.package) == (VENV_DIR, "/usr/bin/python3", PACKAGE)
    assert PLAN[3] == EnsureLink(
        PurePosixPath("/usr/local/bin/companion"),
        PurePosixPath("/opt/companion/venv/bin/companion"),
    )
    unit = _step(EnsureFile, str(UNIT_FILE))
    rules = _step(EnsureFile, str(UDEV_RULES))
    config = _step(EnsureFile, str(TABLE_CONFIG))
    after = {s.argv: s.after for s in PLAN if isinstance(s, RunAfterChange)}
    assert after == {
        ("systemctl", "daemon-reload"): (unit,),
        ("udevadm", "control", "--reload"): (rules,),
        ("udevadm", "trigger", "--subsystem-match=tty", "--subsystem-match=usb-serial"): (rules,),
        ("systemctl", "restart", "companion.service"): (user, venv, config, unit),
    }
    order = [type(s).__name__ for s in PLAN]
    assert order.index("EnsureEnabled") > order.index("EnsureFile")
    assert isinstance(PLAN[-1], RunAfterChange) and PLAN[-1].argv[1] == "restart"
    assert any(isinstance(s, EnsureEnabled) and s.unit == "companion.service" for s in PLAN)


# -- accounts --------------------------------------------------------------------------------

PASSWD = "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n"
GROUP = "root:x:0:\ndialout:x:20:pi\ngpio:x:997:pi\npi:x:1000:\n"
USER = EnsureUser(
    "companion",
    PurePosixPath("/var/lib/companion"),
    "/usr/sbin/nologin",
    (
        ("gpio", "GPIO"),
        ("dialout", "serial"),
        ("plugdev", "USB"),
    ),
)


def test_a_new_user_gets_the_groups_that_exist_and_the_rest_are_reported() -> None:
    accounts = Accounts.parse(PASSWD, GROUP)
    assert missing_groups(USER, accounts) == ["plugdev"]
    assert user_commands(USER, accounts) == [
        (
            "useradd",
            "--system",
            "--user-group",
            "--groups",
            "gpio,dialout",
            "--home-dir",
            "/var/lib/companion",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            "--comment",
            "Table companion service",
            "companion",
        )
    ]


def test_an_existing_user_only_gets_the_groups_it_lacks() -> None:
    passwd = PASSWD + "companion:x:999:999::/var/lib/companion:/usr/sbin/nologin\n"
    group = GROUP.replace("gpio:x:997:pi", "gpio:x:997:pi,companion") + "companion:x:999:\n"
    accounts = Accounts.parse(passwd, group)
    assert accounts.groups_of("companion") == {"companion", "gpio"}
    assert user_commands(USER, accounts) == [
        ("usermod", "--append", "--groups", "dialout", "companion")
    ]
    done = Accounts.parse(passwd, group.replace("dialout:x:20:pi", "dialout:x:20:pi,companion"))
    assert user_commands(USER, done) == []


def test_a_leftover_group_of_the_users_name_becomes_its_group() -> None:
    accounts = Accounts.parse(PASSWD, GROUP + "companion:x:999:\n")
    (command,) = user_commands(USER, accounts)
    assert command[2:4] == ("--gid", "companion")


def test_accounts_skip_comments_and_malformed_lines() -> None:
    accounts = Accounts.parse("# x\nbad line\nroot:x:0:0::/:/bin/sh\n", "+:::\nroot:x:0:\n")
    assert accounts.users == {"root": (0, 0)} and accounts.gid("root") == 0
    assert accounts.uid("nobody") is None


# -- the package -----------------------------------------------------------------------------


def test_a_wheel_is_checked_by_name_and_must_exist(tmp_path: Path) -> None:
    wheel = tmp_path / "table_companion-0.2.0-py3-none-any.whl"
    with pytest.raises(InstallError, match="no such file"):
        from_wheel(wheel)
    wheel.write_bytes(b"")
    assert from_wheel(wheel) == PackageSource("table-companion", "0.2.0", str(wheel))
    other = tmp_path / "flask-3.0.0-py3-none-any.whl"
    other.write_bytes(b"")
    with pytest.raises(InstallError, match="not a wheel of table-companion"):
        from_wheel(other)
    with pytest.raises(InstallError, match="not a wheel"):
        from_wheel(tmp_path / "table_companion-0.2.0.tar.gz")


def test_the_running_distribution_is_installed_from_where_it_came() -> None:
    # the tests run from a checkout (an editable install, or metadata in the tree): a checkout
    # is what pip would install
    running = metadata.distribution("table-companion")
    source = from_distribution(running)
    assert (source.distribution, source.version) == ("table-companion", running.version)
    pyproject = tomllib.loads((Path(source.requirement) / "pyproject.toml").read_text())
    assert pyproject["project"]["name"] == "table-companion"


class _Installed(metadata.Distribution):
    """A distribution installed in ``site`` (by default a folder with no pyproject.toml)."""

    def __init__(self, direct_url: str | None, site: Path = Path("/nonexistent")) -> None:
        self.direct_url = direct_url
        self.site = site

    def read_text(self, filename: str) -> str | None:
        if filename == "METADATA":
            return "Metadata-Version: 2.1\nName: table-companion\nVersion: 0.3.0\n"
        return self.direct_url if filename == "direct_url.json" else None

    def locate_file(self, path: object) -> Path:
        return self.site / str(path)


def test_an_index_install_or_a_vanished_file_is_fetched_by_version(tmp_path: Path) -> None:
    wheel = tmp_path / "table_companion-0.3.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    url = json.dumps({"url": wheel.as_uri(), "archive_info": {}})
    assert from_distribution(_Installed(url)).requirement == str(wheel)
    by_version = "table-companion==0.3.0"
    assert from_distribution(_Installed(None)).requirement == by_version
    gone = json.dumps({"url": (tmp_path / "gone.whl").as_uri()})
    assert from_distribution(_Installed(gone)).requirement == by_version
    remote = json.dumps({"url": "https://example.org/x.whl"})
    assert from_distribution(_Installed(remote)).requirement == by_version


def test_metadata_in_a_source_tree_installs_that_tree(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").touch()
    assert from_distribution(_Installed(None, tmp_path)).requirement == str(tmp_path)


def test_installed_version_reads_dist_info_names() -> None:
    entries = ["flask-3.0.0.dist-info", "Table_Companion-0.1.0.dist-info", "x.py"]
    assert installed_version(entries, "table-companion") == "0.1.0"
    assert installed_version(entries, "zeroconf") is None


def test_a_missing_shipped_file_is_a_clear_error() -> None:
    with pytest.raises(InstallError, match="nope.conf is missing from this installation"):
        packaged_text("nope.conf")
    assert set(DEVICE_GROUPS) == {"gpio", "dialout", "plugdev"}
