"""The installer's vocabulary: each step states what should be true, not how to get there.

A plan is a tuple of steps (:func:`companion.install.plan.plan_install`); the apply layer
(:mod:`companion.install.apply`) compares each with the system and changes only what differs,
which is why running the installer twice changes nothing the second time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal

from companion.errors import CompanionError

__all__ = [
    "EnsureDirectory",
    "EnsureEnabled",
    "EnsureFile",
    "EnsureLink",
    "EnsureUser",
    "EnsureVenv",
    "InstallError",
    "Outcome",
    "PackageSource",
    "RunAfterChange",
    "Status",
    "Step",
]


class InstallError(CompanionError):
    """The installer stopped; the message says what failed and what to do. Steps already done
    stay done, and running the installer again carries on from there."""


@dataclass(frozen=True, slots=True)
class PackageSource:
    """What pip installs into the venv: ``requirement`` is a wheel file, a source folder, or
    ``name==version`` from the package index, all of ``distribution`` at ``version``."""

    distribution: str
    version: str
    requirement: str


@dataclass(frozen=True, slots=True)
class EnsureUser:
    """A system user with its own group, no login, and membership of ``groups`` (name, what it
    gives) where the group exists; a missing one is reported with what it would have given."""

    name: str
    home: PurePosixPath
    shell: str
    groups: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class EnsureDirectory:
    path: PurePosixPath
    mode: int
    user: str
    group: str


@dataclass(frozen=True, slots=True)
class EnsureFile:
    """A file with this text, mode and owner. ``keep_edited``: a file already there is someone's
    configuration and keeps its text (its mode and owner are still set). ``note`` is said when
    the file is written."""

    path: PurePosixPath
    text: str
    mode: int
    user: str = "root"
    group: str = "root"
    keep_edited: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class EnsureLink:
    """A symbolic link at ``path`` pointing at ``target`` (a path of the installed system). A
    file that is not a link is left alone and reported."""

    path: PurePosixPath
    target: PurePosixPath


@dataclass(frozen=True, slots=True)
class EnsureVenv:
    """A venv made by ``python`` with ``--system-site-packages`` (apt's python3-lgpio), holding
    ``package`` at its version."""

    path: PurePosixPath
    python: str
    package: PackageSource


@dataclass(frozen=True, slots=True)
class EnsureEnabled:
    """A systemd unit enabled, so it starts at boot."""

    unit: str


@dataclass(frozen=True, slots=True)
class RunAfterChange:
    """A command run only when one of the earlier steps ``after`` changed something (a reload
    after the unit file changed, a restart after the code changed)."""

    argv: tuple[str, ...]
    after: tuple[Step, ...]


Step = (
    EnsureUser
    | EnsureDirectory
    | EnsureFile
    | EnsureLink
    | EnsureVenv
    | EnsureEnabled
    | RunAfterChange
)

Status = Literal["created", "updated", "ran", "unchanged", "kept", "skipped", "warning"]
CHANGES: frozenset[Status] = frozenset({"created", "updated", "ran"})


@dataclass(frozen=True, slots=True)
class Outcome:
    """What applying a step did to ``subject`` (a path, a user, a command)."""

    status: Status
    subject: str
    detail: str = ""

    @property
    def changed(self) -> bool:
        return self.status in CHANGES

    def __str__(self) -> str:
        return f"{self.status:<10}{self.subject}" + (f": {self.detail}" if self.detail else "")
