"""Copies of the store with SQLite's online backup API: ``companion backup``, and the copy
taken before a migration changes a store (an update must never cost a game).

The backup API copies the database page by page through its own connection, so the copy is
consistent even while the table writes and with the write-ahead log holding recent commits (a
file copy could catch a write half done, or miss what is still in the WAL). That connection is
read-only (:mod:`.readonly`): it can neither checkpoint nor delete a live table's ``-wal``.
Every copy is a new file, readable by its owner only (it holds every game and the paired
tablets' key hashes), checked with ``PRAGMA quick_check`` before it takes its name.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from companion.errors import StoreError
from companion.storage.readonly import connect_read_only

#: ``companion.db`` -> ``companion.db.backup-20250301T201502Z``
SUFFIX = ".backup-"
PRIVATE = 0o600
NAME_ATTEMPTS = 20


class TargetExists(StoreError):
    """The backup's name was taken (by another copy made in the same second, perhaps)."""


def backup_store(source_path: str | Path, target_path: str | Path) -> Path:
    """Copy the store at ``source_path`` to ``target_path``, a file that must not exist yet
    (not even as a link). Returns the target.

    :raises StoreError: no source, a target that exists, or the copy failed (no target is left).
    """
    source, target = Path(source_path), Path(target_path)
    if not source.is_file():
        raise StoreError(f"{source} is not a store file: nothing to back up")
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    except FileExistsError:
        raise TargetExists(f"{target} exists already: choose a new name for the backup") from None
    except OSError as exc:
        raise StoreError(f"cannot back up {source} to {target} ({exc.strerror})") from None
    partial = target.with_name(f".{target.name}.partial")
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE))
        _copy(source, partial)
        os.replace(partial, target)  # the reserved name, ours: the copy takes it whole
    except (OSError, sqlite3.Error, StoreError) as exc:
        partial.unlink(missing_ok=True)
        target.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise StoreError(f"cannot back up {source} to {target} ({reason})") from None
    return target


def _copy(source: Path, target: Path) -> None:
    src = connect_read_only(source)  # it can neither checkpoint nor delete a live table's -wal
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            check = [row[0] for row in dst.execute("PRAGMA quick_check(5)")]
            if check != ["ok"]:
                raise sqlite3.DatabaseError(f"the copy fails SQLite's check: {'; '.join(check)}")
        finally:
            dst.close()
    finally:
        src.close()


def backup_path(store: Path, at: float) -> Path:
    """A name for a copy of ``store`` taken at ``at`` (seconds since the epoch, UTC) that no
    file has yet (``-2``, ``-3``... for copies within one second)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(at))
    candidate = store.with_name(f"{store.name}{SUFFIX}{stamp}")
    count = 1
    while candidate.exists():
        count += 1
        candidate = store.with_name(f"{store.name}{SUFFIX}{stamp}-{count}")
    return candidate


def back_up(store: Path, at: float) -> Path:
    """Copy ``store`` beside itself before a migration (:func:`backup_store`).

    :raises StoreError: if the copy cannot be written (then nothing must be migrated).
    """
    for _ in range(NAME_ATTEMPTS):
        target = backup_path(store, at)
        try:
            return backup_store(store, target)
        except StoreError as exc:
            if isinstance(exc, TargetExists) and target.exists():
                continue  # two programs opening the store at once chose the same name
            raise StoreError(
                f"{store} needs a schema update, and a copy must be made first, but {target} "
                f"cannot be written ({exc}); free some space or fix the folder's permissions, "
                "then start again"
            ) from None
    raise StoreError(f"{store} needs a schema update, but no free name for its copy was found")
