"""hardware/systemd/companion.service: sandboxed, and running what the installer installs."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import PurePosixPath

import click

from companion.cli.table import serve
from companion.install.layout import (
    SERVICE_USER,
    STATE_DIR,
    TABLE_CONFIG,
    UNIT_FILE,
    VENV_DIR,
)
from companion.install.plan import plan_install
from companion.install.steps import EnsureDirectory, EnsureFile, EnsureVenv, PackageSource
from tests.installing import REPO, UNIT, exposure, systemd_analyze, unit_settings

SETTINGS = unit_settings(UNIT.read_text(encoding="utf-8"))
PLAN = plan_install(PackageSource("table-companion", "0.1.0", "table-companion==0.1.0"))


def _only(key: str) -> str:
    values = SETTINGS[key]
    assert len(values) == 1, f"{key} given {len(values)} times"
    return values[0]


def test_security_exposure_is_4_or_better() -> None:
    score, report = exposure(systemd_analyze(), UNIT)
    assert score <= 4.0, report


def test_execstart_runs_the_installed_companion_serve() -> None:
    argv = shlex.split(_only("Service.ExecStart"))
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    command = next(name for name, target in scripts.items() if target == "companion.cli.main:main")
    venv = next(step for step in PLAN if isinstance(step, EnsureVenv))
    assert venv.path == VENV_DIR
    assert argv[:2] == [str(VENV_DIR / "bin" / command), "serve"]
    options = dict(zip(argv[2::2], argv[3::2], strict=True))
    assert options["--table"] == str(TABLE_CONFIG)
    assert PurePosixPath(options["--db"]).parent == STATE_DIR
    known = {
        name for param in serve.params if isinstance(param, click.Option) for name in param.opts
    }
    assert set(options) <= known, f"serve has no {set(options) - known}"


def test_the_unit_runs_as_the_planned_user_in_the_planned_folders() -> None:
    assert _only("Service.User") == SERVICE_USER
    assert PurePosixPath("/var/lib") / _only("Service.StateDirectory") == STATE_DIR
    assert _only("Service.WorkingDirectory") == str(STATE_DIR)
    state = next(s for s in PLAN if isinstance(s, EnsureDirectory) and s.path == STATE_DIR)
    assert (state.mode, state.user) == (int(_only("Service.StateDirectoryMode"), 8), SERVICE_USER)
    unit = next(s for s in PLAN if isinstance(s, EnsureFile) and s.path == UNIT_FILE)
    assert unit.text == UNIT.read_text(encoding="utf-8")
    assert _only("Install.WantedBy") == "multi-user.target"


def test_restarts_on_failure_but_not_on_a_config_error() -> None:
    assert _only("Service.Restart") == "on-failure"
    assert "78" in _only("Service.RestartPreventExitStatus").split()
    assert int(_only("Service.RestartSec")) >= 1
    # the groups come from the user (the installer skips missing ones); naming them here
    # would make a missing group fatal
    assert "Service.SupplementaryGroups" not in SETTINGS
