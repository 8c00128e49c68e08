"""``companion install`` as a user runs it: this very package installed into a temporary root
(a real venv, real pip), then checked the way systemd would check it. pip installs offline: its
index is a folder of wheels repacked from this environment (``tests/installing.py``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from companion.cli.main import main
from companion.install.layout import DISTRIBUTION, UNIT_FILE, VENV_DIR
from tests.installing import systemd_analyze, wheelhouse


def _install(*args: str) -> Result:
    return CliRunner().invoke(main, ["install", *args])


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    root = tmp_path_factory.mktemp("pi")
    wheels = wheelhouse(tmp_path_factory.mktemp("wheels"), DISTRIBUTION)
    # pip looking in the package index took half of the install (its pages, the downloads,
    # the build backend) and needed the network
    with pytest.MonkeyPatch.context() as pip:
        pip.setenv("PIP_CONFIG_FILE", os.devnull)  # this machine's pip settings play no part
        pip.setenv("PIP_NO_INDEX", "1")
        pip.setenv("PIP_FIND_LINKS", str(wheels))
        return root, _install("--root", str(root))


def test_refuses_without_root_and_says_how(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("companion.cli.install.os.geteuid", lambda: 1000)
    result = _install()
    assert result.exit_code == 1
    assert result.stderr == (
        "error: installing changes the system: run it as root, `sudo companion install`\n"
    )
    assert result.stdout == ""


def test_a_wrong_wheel_is_refused_before_anything_changes(tmp_path: Path) -> None:
    wheel = tmp_path / "flask-3.0.0-py3-none-any.whl"
    wheel.touch()
    result = _install("--wheel", str(wheel), "--root", str(tmp_path / "pi"))
    assert result.exit_code == 1
    assert "not a wheel of table-companion" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "pi").exists()


@pytest.mark.slow
def test_the_first_run_installs_everything(installed: tuple[Path, Result]) -> None:
    root, result = installed
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    created = {line.split(":")[0].split()[-1] for line in lines if line.startswith("  created")}
    assert {"/opt/companion/venv", "/etc/companion/table.toml", str(UNIT_FILE)} <= created
    assert "  updated   companion.service: enabled: starts at boot" in lines
    assert lines[-2].startswith("done: ")
    assert lines[-1].startswith("the table's address: http://") and ":8080/" in lines[-1]
    assert (root / "etc/systemd/system/multi-user.target.wants/companion.service").is_symlink()


def test_the_second_run_changes_nothing_and_says_so(installed: tuple[Path, Result]) -> None:
    root, _ = installed
    again = _install("--root", str(root))
    assert again.exit_code == 0, again.stderr
    changed = [
        line
        for line in again.stdout.splitlines()
        if line[2:].startswith(("created", "updated", "ran"))
    ]
    assert changed == []
    assert "nothing to change: the table was already installed like this" in again.stdout


def test_the_installed_command_serves_with_the_units_options(
    installed: tuple[Path, Result],
) -> None:
    root, _ = installed
    command = root / VENV_DIR.relative_to("/") / "bin" / "companion"
    shown = subprocess.run([command, "serve", "--help"], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert "--table FILE" in shown.stdout and "--db" in shown.stdout


def test_systemd_verifies_the_installed_unit(installed: tuple[Path, Result]) -> None:
    root, _ = installed
    program = systemd_analyze()
    units = next(
        (p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()),
        None,
    )
    if units is None:
        pytest.skip("no systemd units here to verify against")
    # the targets and slices the unit refers to, as the Pi has them (copied, not linked:
    # systemd resolves links inside the root)
    shipped = root / "usr/lib/systemd/system"
    shipped.mkdir(parents=True, exist_ok=True)
    for unit in [*units.glob("*.target"), *units.glob("*.slice")]:
        shutil.copyfile(unit, shipped / unit.name)
    checked = subprocess.run(
        [program, "verify", f"--root={root}", "companion.service"], capture_output=True, text=True
    )
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")
