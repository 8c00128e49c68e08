"""Applying the install plan into a temporary root: files, modes, owners, the venv, the
commands, and running it again."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.install.apply import Installer
from companion.install.layout import TABLE_CONFIG, UDEV_RULES, UNIT_FILE, VENV_DIR
from companion.install.package import from_wheel
from companion.install.plan import plan_install
from companion.install.steps import EnsureVenv, InstallError, Outcome, PackageSource
from tests.installing import make_wheel

AS_ROOT = os.geteuid() == 0
# owners in the fake system's /etc: distinct ids when we may chown to them, else our own
ROOT_IDS = (0, 0) if AS_ROOT else (os.getuid(), os.getgid())
SERVICE_IDS = (4242, 4242) if AS_ROOT else (os.getuid(), os.getgid())
PACKAGE = PackageSource(
    "table-companion", "0.1.0", "/wheels/table_companion-0.1.0-py3-none-any.whl"
)


class FakeSystem:
    """A running system's commands played against the files under ``root``: useradd and
    usermod edit its /etc/passwd and /etc/group, systemctl remembers enabled units, venv and
    pip make the files the installer looks at. Every call is recorded."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.calls: list[tuple[str, ...]] = []
        self.enabled: set[str] = set()
        (root / "etc").mkdir(parents=True)
        (root / "etc/passwd").write_text(f"root:x:{ROOT_IDS[0]}:{ROOT_IDS[1]}::/root:/bin/sh\n")
        (root / "etc/group").write_text(f"root:x:{ROOT_IDS[1]}:\ndialout:x:20:\ngpio:x:997:\n")

    def __call__(self, argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        call = tuple(argv)
        self.calls.append(call)
        out, code = "", 0
        if call[0] == "useradd":
            self._useradd(call)
        elif call[0] == "usermod":
            self._join(call[-1], call[call.index("--groups") + 1].split(","))
        elif call[:2] == ("systemctl", "is-enabled"):
            out, code = ("enabled", 0) if call[2] in self.enabled else ("disabled", 1)
        elif call[:2] == ("systemctl", "enable"):
            self.enabled.add(call[2])
        elif call[1:3] == ("-m", "venv"):
            venv = Path(call[-1])
            (venv / "bin").mkdir(parents=True)
            (venv / "bin/python").touch()
            (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
        elif call[1:4] == ("-m", "pip", "install"):
            version = from_wheel(Path(call[-1]).with_suffix(".whl")).version
            site = Path(call[0]).parents[1] / "lib/python3.11/site-packages"
            for old in site.glob("table_companion-*.dist-info"):
                old.rmdir()
            (site / f"table_companion-{version}.dist-info").mkdir(parents=True)
        return subprocess.CompletedProcess(call, code, out, "")

    def _useradd(self, call: tuple[str, ...]) -> None:
        name, (uid, gid) = call[-1], SERVICE_IDS
        with (self.root / "etc/passwd").open("a") as passwd:
            passwd.write(f"{name}:x:{uid}:{gid}::/var/lib/{name}:/usr/sbin/nologin\n")
        with (self.root / "etc/group").open("a") as group:
            group.write(f"{name}:x:{gid}:\n")
        self._join(name, call[call.index("--groups") + 1].split(","))

    def _join(self, user: str, groups: list[str]) -> None:
        path = self.root / "etc/group"
        lines = []
        for line in path.read_text().splitlines():
            name, _, _, members = line.split(":")
            if name in groups:
                line += ("," if members else "") + user
            lines.append(line)
        path.write_text("\n".join(lines) + "\n")

    def wheel(self, version: str) -> PackageSource:
        """A package source whose wheel exists (the fake pip reads its name only)."""
        wheel = self.root.parent / f"table_companion-{version}-py3-none-any.whl"
        wheel.touch()
        return from_wheel(wheel)


def _changes(outcomes: list[Outcome]) -> list[str]:
    return [f"{o.status} {o.subject}" for o in outcomes if o.changed]


def _content(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def _mode(path: Path) -> str:
    return f"{stat.S_IMODE(path.stat().st_mode):04o}"


@pytest.fixture
def system(tmp_path: Path) -> FakeSystem:
    return FakeSystem(tmp_path / "root")


def test_a_first_install_runs_each_command_once(system: FakeSystem) -> None:
    package = system.wheel("0.1.0")
    Installer(system.root, run=system).apply(plan_install(package, python="python3"))
    venv = str(system.root / "opt/companion/venv")
    assert [c[0] if c[0] in ("useradd",) else " ".join(c[:3]) for c in system.calls] == [
        "useradd",
        "python3 -m venv",
        f"{venv}/bin/python -m pip",
        "systemctl daemon-reload",
        "udevadm control --reload",
        "udevadm trigger --subsystem-match=tty",
        "systemctl is-enabled companion.service",
        "systemctl enable companion.service",
        "systemctl restart companion.service",
    ]
    assert system.calls[0][system.calls[0].index("--groups") + 1] == "gpio,dialout"
    assert system.calls[2][-1] == package.requirement


def test_a_second_run_changes_nothing_and_runs_nothing(system: FakeSystem) -> None:
    steps = plan_install(system.wheel("0.1.0"), python="python3")
    Installer(system.root, run=system).apply(steps)
    files = {p: (p.lstat().st_mtime_ns, _content(p)) for p in system.root.rglob("*")}
    system.calls.clear()
    again = Installer(system.root, run=system).apply(steps)
    assert _changes(again) == []
    assert system.calls == [("systemctl", "is-enabled", "companion.service")]
    assert {p: (p.lstat().st_mtime_ns, _content(p)) for p in system.root.rglob("*")} == files
    warnings = [str(o) for o in again if o.status == "warning"]
    assert warnings == [
        "warning   group plugdev: not on this system: "
        "no access to native USB readers opened through nfcpy"
    ]


def test_an_update_installs_the_new_version_and_restarts(system: FakeSystem) -> None:
    Installer(system.root, run=system).apply(plan_install(system.wheel("0.1.0")))
    system.calls.clear()
    newer = Installer(system.root, run=system).apply(plan_install(system.wheel("0.2.0")))
    assert _changes(newer) == [
        "updated table-companion 0.2.0",
        "ran systemctl restart companion.service",
    ]
    assert [str(o) for o in newer if o.changed][0].endswith("(was 0.1.0)")


def test_a_user_added_to_a_group_since_then_is_added_and_restarted(system: FakeSystem) -> None:
    steps = plan_install(system.wheel("0.1.0"))
    Installer(system.root, run=system).apply(steps)
    with (system.root / "etc/group").open("a") as group:
        group.write("plugdev:x:46:\n")
    system.calls.clear()
    outcomes = Installer(system.root, run=system).apply(steps)
    assert _changes(outcomes) == [
        "updated user companion",
        "ran systemctl restart companion.service",
    ]
    assert ("usermod", "--append", "--groups", "plugdev", "companion") in system.calls


def test_files_get_their_modes_and_owners(system: FakeSystem) -> None:
    Installer(system.root, run=system).apply(plan_install(system.wheel("0.1.0")))
    root = system.root
    expected = {
        "opt/companion": ("0755", ROOT_IDS),
        "var/lib/companion": ("0700", SERVICE_IDS),
        "etc/companion": ("0750", (ROOT_IDS[0], SERVICE_IDS[1])),
        "etc/companion/table.toml": ("0640", (ROOT_IDS[0], SERVICE_IDS[1])),
        "etc/systemd/system/companion.service": ("0644", ROOT_IDS),
        "etc/udev/rules.d/99-companion-nfc.rules": ("0644", ROOT_IDS),
        "etc/modprobe.d/companion-nfc-blacklist.conf": ("0644", ROOT_IDS),
    }
    for name, (mode, ids) in expected.items():
        path = root / name
        assert (_mode(path), (path.stat().st_uid, path.stat().st_gid)) == (mode, ids), name
    assert not list(root.rglob(".*.new")), "a staged file was left behind"


def test_an_edited_config_is_kept_and_wrong_modes_are_mended(system: FakeSystem) -> None:
    steps = plan_install(system.wheel("0.1.0"))
    Installer(system.root, run=system).apply(steps)
    config, rules, unit = (
        system.root / p.relative_to("/") for p in (TABLE_CONFIG, UDEV_RULES, UNIT_FILE)
    )
    config.write_text('[table]\nname = "Mine"\n')
    rules.write_text("# my ports\n")
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    (system.root / "var/lib/companion").chmod(0o755)
    system.calls.clear()
    outcomes = Installer(system.root, run=system).apply(steps)
    assert config.read_text() == '[table]\nname = "Mine"\n' and rules.read_text() == "# my ports\n"
    assert unit.read_text().startswith("# /etc/systemd/system/companion.service")
    assert _mode(system.root / "var/lib/companion") == "0700"
    assert _changes(outcomes) == [
        "updated /var/lib/companion",
        "updated /etc/systemd/system/companion.service",
        "ran systemctl daemon-reload",
        "ran systemctl restart companion.service",
    ]
    assert [o.status for o in outcomes if o.subject == str(TABLE_CONFIG)] == ["kept"]


def test_the_command_link_is_made_once_and_a_foreign_file_left_alone(system: FakeSystem) -> None:
    steps = plan_install(system.wheel("0.1.0"))
    link = system.root / "usr/local/bin/companion"
    first = Installer(system.root, run=system).apply(steps)
    assert "created   /usr/local/bin/companion: -> /opt/companion/venv/bin/companion" in map(
        str, first
    )
    assert os.readlink(link) == "/opt/companion/venv/bin/companion"
    link.unlink()
    link.write_text("#!/bin/sh\n")
    again = Installer(system.root, run=system).apply(steps)
    assert (
        "warning   /usr/local/bin/companion: a file that is not ours is there; left alone"
        in map(str, again)
    )
    assert link.read_text() == "#!/bin/sh\n"


def test_a_failing_command_stops_with_what_it_said(system: FakeSystem) -> None:
    def broken(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        if argv[0] == "useradd":
            return subprocess.CompletedProcess(argv, 9, "", "useradd: cannot lock /etc/passwd\n")
        return system(argv)

    with pytest.raises(InstallError, match=r"`useradd .*` failed \(exit 9\): .*cannot lock"):
        Installer(system.root, run=broken).apply(plan_install(system.wheel("0.1.0")))


def test_under_root_nothing_runs_but_the_offline_enable(tmp_path: Path) -> None:
    calls: list[tuple[str, ...]] = []

    def record(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        calls.append(tuple(argv))
        if "is-enabled" in argv:
            return subprocess.CompletedProcess(argv, 1, "disabled\n", "")
        return subprocess.CompletedProcess(argv, 0, "", "")

    steps = [s for s in plan_install(PACKAGE) if not isinstance(s, EnsureVenv)]
    outcomes = Installer(tmp_path, live=False, run=record).apply(steps)
    if calls:  # systemctl exists here: enable runs offline in the folder
        assert [c[:2] for c in calls] == [("systemctl", f"--root={tmp_path}")] * 2
    skipped = [o.subject for o in outcomes if o.status == "skipped"]
    assert skipped[0].startswith("useradd --system")
    assert "systemctl restart companion.service" in skipped
    assert str(outcomes[-1]).startswith("warning   owners: not set, unknown here: companion:")


# -- the venv, for real ----------------------------------------------------------------------


@pytest.mark.slow
def test_the_venv_is_made_with_system_packages_and_updated(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    first = from_wheel(make_wheel(wheels, "table-companion", "0.1.0", "companion"))
    root = tmp_path / "root"
    made = Installer(root, live=False).apply([EnsureVenv(VENV_DIR, "/usr/bin/python3", first)])
    assert [o.status for o in made] == ["created", "created"]
    venv = root / VENV_DIR.relative_to("/")
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    said = subprocess.run([venv / "bin/companion", "serve", "--x"], capture_output=True, text=True)
    assert said.stdout == "serve --x\n"
    again = Installer(root, live=False).apply([EnsureVenv(VENV_DIR, "/usr/bin/python3", first)])
    assert [o.status for o in again] == ["unchanged"]
    second = from_wheel(make_wheel(wheels, "table-companion", "0.2.0", "companion"))
    newer = Installer(root, live=False).apply([EnsureVenv(VENV_DIR, "/usr/bin/python3", second)])
    assert [str(o) for o in newer] == [
        f"updated   table-companion 0.2.0: in {VENV_DIR} (was 0.1.0)"
    ]
