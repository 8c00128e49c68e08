"""Applying an install plan: compare each step with the system, change only what differs.

Everything here works on a root folder: ``/`` for a real install, or any folder (``--root``)
where the files are written the same way but, the folder not being a running system, no user
is created and nothing is reloaded or restarted (systemctl enables the unit there offline).
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePosixPath

from companion.install.accounts import Accounts, missing_groups, user_commands
from companion.install.package import installed_version
from companion.install.steps import (
    EnsureDirectory,
    EnsureEnabled,
    EnsureFile,
    EnsureLink,
    EnsureUser,
    EnsureVenv,
    InstallError,
    Outcome,
    RunAfterChange,
    Status,
    Step,
)

__all__ = ["Installer", "Runner", "run_command"]

Runner = Callable[[Sequence[str]], subprocess.CompletedProcess[str]]


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run a command to completion, its output captured. :raises InstallError: no such program."""
    try:
        return subprocess.run(list(argv), capture_output=True, text=True, check=False)
    except OSError as exc:
        raise InstallError(f"cannot run {argv[0]}: {exc.strerror}") from exc


class Installer:
    """Applies steps to the system under ``root``, telling ``report`` each outcome as it
    happens. ``live``: ``root`` is the running system, whose users, udev and systemd the
    commands change (through ``run``)."""

    def __init__(
        self,
        root: Path = Path("/"),
        *,
        live: bool = True,
        run: Runner = run_command,
        report: Callable[[Outcome], None] | None = None,
    ) -> None:
        self.root = root
        self.live = live
        self.run = run
        self.report = report
        self.changed: set[Step] = set()
        #: owners named by the plan that this system does not know (no user created yet)
        self.unknown_owners: set[str] = set()

    def apply(self, steps: Iterable[Step]) -> list[Outcome]:
        """Every step in order. :raises InstallError: a step failed (the ones before it stay
        applied; running again carries on)."""
        outcomes: list[Outcome] = []
        # files and the venv must be readable by the service user whatever umask sudo kept
        previous = os.umask(0o022)
        try:
            for step in steps:
                for outcome in self._apply(step):
                    self._tell(outcome, outcomes)
                    if outcome.changed:
                        self.changed.add(step)
        finally:
            os.umask(previous)
        if self.unknown_owners:
            owners = ", ".join(sorted(self.unknown_owners))
            self._tell(Outcome("warning", "owners", f"not set, unknown here: {owners}"), outcomes)
        return outcomes

    def _tell(self, outcome: Outcome, outcomes: list[Outcome]) -> None:
        outcomes.append(outcome)
        if self.report is not None:
            self.report(outcome)

    def _apply(self, step: Step) -> list[Outcome]:
        match step:
            case EnsureUser():
                return self._user(step)
            case EnsureDirectory():
                return self._directory(step)
            case EnsureFile():
                return self._file(step)
            case EnsureLink():
                return self._link(step)
            case EnsureVenv():
                return self._venv(step)
            case EnsureEnabled():
                return self._enabled(step)
            case RunAfterChange():
                return self._after_change(step)

    def host(self, path: PurePosixPath) -> Path:
        """Where ``path`` of the installed system is on this machine."""
        return self.root / path.relative_to("/")

    # -- users -------------------------------------------------------------------------------

    def accounts(self) -> Accounts:
        texts = [self.host(PurePosixPath(f"/etc/{name}")) for name in ("passwd", "group")]
        passwd, group = (path.read_text() if path.exists() else "" for path in texts)
        return Accounts.parse(passwd, group)

    def _user(self, step: EnsureUser) -> list[Outcome]:
        accounts = self.accounts()
        gives = dict(step.groups)
        outcomes = [
            Outcome("warning", f"group {name}", f"not on this system: no access to {gives[name]}")
            for name in missing_groups(step, accounts)
        ]
        commands = user_commands(step, accounts)
        if not commands:
            groups = ", ".join(sorted(accounts.groups_of(step.name)))
            return [*outcomes, Outcome("unchanged", f"user {step.name}", f"groups {groups}")]
        for argv in commands:
            if not self.live:
                outcomes.append(Outcome("skipped", shlex.join(argv), "no users made under --root"))
                continue
            self._check(argv)
            status: Status = "created" if argv[0] == "useradd" else "updated"
            groups = ", ".join(sorted(self.accounts().groups_of(step.name)))
            outcomes.append(Outcome(status, f"user {step.name}", f"groups {groups}"))
        return outcomes

    # -- files -------------------------------------------------------------------------------

    def _directory(self, step: EnsureDirectory) -> list[Outcome]:
        path = self.host(step.path)
        created = not path.is_dir()
        if created:
            path.mkdir(parents=True)
        fixes = self._settle(path, step.mode, step.user, step.group)
        status: Status = "created" if created else "updated" if fixes else "unchanged"
        detail = "; ".join([_shape(step), *([] if created else fixes)])
        return [Outcome(status, str(step.path), detail)]

    def _file(self, step: EnsureFile) -> list[Outcome]:
        path = self.host(step.path)
        text = step.text.encode("utf-8")
        current = path.read_bytes() if path.is_file() else None
        if current is not None and current != text and step.keep_edited:
            fixes = self._settle(path, step.mode, step.user, step.group)
            kept = "yours differs from the shipped one and is kept"
            detail = "; ".join([kept, *fixes])
            return [Outcome("updated" if fixes else "kept", str(step.path), detail)]
        if current == text:
            fixes = self._settle(path, step.mode, step.user, step.group)
            detail = "; ".join([_shape(step), *fixes])
            return [Outcome("updated" if fixes else "unchanged", str(step.path), detail)]
        path.parent.mkdir(parents=True, exist_ok=True)
        staged = path.with_name(f".{path.name}.new")
        staged.write_bytes(text)
        self._settle(staged, step.mode, step.user, step.group)
        os.replace(staged, path)  # never a half-written unit or rule after a power cut
        detail = "; ".join(filter(None, [_shape(step), step.note]))
        return [Outcome("created" if current is None else "updated", str(step.path), detail)]

    def _link(self, step: EnsureLink) -> list[Outcome]:
        path, subject = self.host(step.path), str(step.path)
        if path.is_symlink() and os.readlink(path) == str(step.target):
            return [Outcome("unchanged", subject, f"-> {step.target}")]
        if path.exists() and not path.is_symlink():
            return [Outcome("warning", subject, "a file that is not ours is there; left alone")]
        existed = path.is_symlink()
        if existed:
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(step.target)
        return [Outcome("updated" if existed else "created", subject, f"-> {step.target}")]

    def _settle(self, path: Path, mode: int, user: str, group: str) -> list[str]:
        """Set mode and owner where they differ; what was fixed, in words."""
        fixes = []
        now = path.stat()
        if stat.S_IMODE(now.st_mode) != mode:
            path.chmod(mode)
            fixes.append(f"mode {stat.S_IMODE(now.st_mode):04o} -> {mode:04o}")
        accounts = self.accounts()
        uid, gid = accounts.uid(user), accounts.gid(group)
        if uid is None or gid is None:
            self.unknown_owners.add(f"{user}:{group}")
        elif (now.st_uid, now.st_gid) != (uid, gid):
            os.chown(path, uid, gid)
            fixes.append(f"owner -> {user}:{group}")
        return fixes

    # -- the venv ----------------------------------------------------------------------------

    def _venv(self, step: EnsureVenv) -> list[Outcome]:
        path = self.host(step.path)
        package = step.package
        outcomes = []
        if not _is_system_site_venv(path):
            existed = (path / "pyvenv.cfg").exists()
            self._check((step.python, "-m", "venv", "--system-site-packages", str(path)))
            detail = "a venv that also sees apt's Python packages (python3-lgpio)"
            outcomes.append(Outcome("updated" if existed else "created", str(step.path), detail))
        had = _venv_version(path, package.distribution)
        subject = f"{package.distribution} {package.version}"
        if had == package.version:
            return [*outcomes, Outcome("unchanged", subject, f"in {step.path}")]
        pip = (str(path / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check")
        self._check((*pip, package.requirement))
        has = _venv_version(path, package.distribution)
        if has != package.version:
            raise InstallError(
                f"pip installed {package.requirement} but the venv holds {has}, "
                f"not {package.version}"
            )
        detail = f"in {step.path}" + (f" (was {had})" if had else f" from {package.requirement}")
        return [*outcomes, Outcome("updated" if had else "created", subject, detail)]

    # -- systemd and udev --------------------------------------------------------------------

    def _enabled(self, step: EnsureEnabled) -> list[Outcome]:
        systemctl: tuple[str, ...] = ("systemctl",)
        if not self.live:
            if shutil.which("systemctl") is None:
                return [Outcome("skipped", f"enable {step.unit}", "no systemctl here")]
            systemctl += (f"--root={self.root}",)  # offline: only makes the links in root
        state = self.run((*systemctl, "is-enabled", step.unit)).stdout.strip()
        if state == "enabled":
            return [Outcome("unchanged", step.unit, "enabled: starts at boot")]
        self._check((*systemctl, "enable", step.unit))
        return [Outcome("updated", step.unit, "enabled: starts at boot")]

    def _after_change(self, step: RunAfterChange) -> list[Outcome]:
        if not any(earlier in self.changed for earlier in step.after):
            return []
        command = shlex.join(step.argv)
        if not self.live:
            return [Outcome("skipped", command, "no running system under --root")]
        self._check(step.argv)
        return [Outcome("ran", command)]

    def _check(self, argv: Sequence[str]) -> str:
        result = self.run(argv)
        if result.returncode != 0:
            said = (result.stderr or result.stdout).strip().splitlines()
            last = said[-1] if said else "no output"
            raise InstallError(f"`{shlex.join(argv)}` failed (exit {result.returncode}): {last}")
        return result.stdout


def _shape(step: EnsureDirectory | EnsureFile) -> str:
    return f"{step.mode:04o} {step.user}:{step.group}"


def _is_system_site_venv(path: Path) -> bool:
    config = path / "pyvenv.cfg"
    if not config.is_file() or not (path / "bin" / "python").exists():
        return False
    settings = dict(
        (key.strip(), value.strip())
        for key, _, value in (line.partition("=") for line in config.read_text().splitlines())
    )
    return settings.get("include-system-site-packages") == "true"


def _venv_version(path: Path, distribution: str) -> str | None:
    entries = [entry.name for entry in path.glob("lib/python3*/site-packages/*.dist-info")]
    return installed_version(entries, distribution)
