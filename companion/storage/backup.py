"""A copy of the store taken before a migration changes it: an update must never cost a game.

SQLite's online backup API copies the database page by page through its own connection, so
the copy is consistent even with the write-ahead log holding recent commits. The copy lies
next to the store, named for the moment it was taken, readable by its owner only (it holds
every game and the paired tablets' key hashes).
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from companion.errors import StoreError

#: ``companion.db`` -> ``companion.db.backup-20250301T201502Z``
SUFFIX = ".backup-"


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


def back_up(conn: sqlite3.Connection, store: Path, at: float) -> Path:
    """Copy the open database ``conn`` (the file ``store``) beside it, mode 0600.

    :raises StoreError: if the copy cannot be written (then nothing must be migrated).
    """
    target = backup_path(store, at)
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as exc:
        raise StoreError(cannot_copy(store, target, exc)) from None
    try:
        copy = sqlite3.connect(target)
        try:
            conn.backup(copy)
        finally:
            copy.close()
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)  # ours, and half written
        raise StoreError(cannot_copy(store, target, exc)) from None
    return target


def cannot_copy(store: Path, target: Path, exc: Exception) -> str:
    return (
        f"{store} needs a schema update, and a copy must be made first, but {target} cannot be "
        f"written ({exc}); free some space or fix the folder's permissions, then start again"
    )
