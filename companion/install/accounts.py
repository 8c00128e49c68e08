"""Users and groups as the system's ``/etc/passwd`` and ``/etc/group`` list them (parsed, not
looked up, so the installer reads the tree it writes into), and the commands that bring the
service user to what an :class:`~companion.install.steps.EnsureUser` step asks."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.install.steps import EnsureUser

__all__ = ["Accounts", "missing_groups", "user_commands"]


@dataclass(frozen=True, slots=True)
class Accounts:
    """``users``: name -> (uid, primary gid); ``groups``: name -> (gid, member names)."""

    users: dict[str, tuple[int, int]] = field(default_factory=dict)
    groups: dict[str, tuple[int, frozenset[str]]] = field(default_factory=dict)

    @classmethod
    def parse(cls, passwd: str, group: str) -> Accounts:
        """From the text of ``/etc/passwd`` and ``/etc/group`` (malformed lines are skipped)."""
        users: dict[str, tuple[int, int]] = {}
        for fields in _records(passwd, 7):
            if fields[2].isdigit() and fields[3].isdigit():
                users[fields[0]] = (int(fields[2]), int(fields[3]))
        groups: dict[str, tuple[int, frozenset[str]]] = {}
        for fields in _records(group, 4):
            if fields[2].isdigit():
                members = frozenset(m for m in fields[3].split(",") if m)
                groups[fields[0]] = (int(fields[2]), members)
        return cls(users, groups)

    def uid(self, user: str) -> int | None:
        found = self.users.get(user)
        return None if found is None else found[0]

    def gid(self, group: str) -> int | None:
        found = self.groups.get(group)
        return None if found is None else found[0]

    def groups_of(self, user: str) -> set[str]:
        """The groups ``user`` is in: its primary group and every group listing it."""
        primary = self.users[user][1] if user in self.users else None
        return {
            name
            for name, (gid, members) in self.groups.items()
            if gid == primary or user in members
        }


def _records(text: str, width: int) -> list[list[str]]:
    rows = (line.split(":") for line in text.splitlines() if line and not line.startswith("#"))
    return [row for row in rows if len(row) == width]


def missing_groups(step: EnsureUser, accounts: Accounts) -> list[str]:
    """The wanted groups this system does not have."""
    return [name for name, _ in step.groups if name not in accounts.groups]


def user_commands(step: EnsureUser, accounts: Accounts) -> list[tuple[str, ...]]:
    """``useradd`` for a missing user, ``usermod --append`` for groups it lacks; nothing when
    the user is already as asked."""
    present = [name for name, _ in step.groups if name in accounts.groups]
    if step.name not in accounts.users:
        own_group = ("--gid", step.name) if step.name in accounts.groups else ("--user-group",)
        groups = ("--groups", ",".join(present)) if present else ()
        return [
            (
                "useradd",
                "--system",
                *own_group,
                *groups,
                "--home-dir",
                str(step.home),
                "--no-create-home",
                "--shell",
                step.shell,
                "--comment",
                "Table companion service",
                step.name,
            )
        ]
    lacking = [name for name in present if name not in accounts.groups_of(step.name)]
    if lacking:
        return [("usermod", "--append", "--groups", ",".join(lacking), step.name)]
    return []
