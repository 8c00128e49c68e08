"""Backups of the store with SQLite's online backup: a consistent copy even while the table
writes to it (a file copy could catch a write half done, or miss what is still in the WAL)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.errors import StoreError
from companion.storage.files import PRIVATE


def backup_store(source_path: str | Path, target_path: str | Path) -> Path:
    """Copy the store at ``source_path`` to ``target_path`` (a new file, mode 0600), checked
    with ``PRAGMA quick_check`` before it takes its name. Returns the target.

    :raises StoreError: no source, an existing target, or SQLite failed (no target is left).
    """
    source, target = Path(source_path), Path(target_path)
    if not source.is_file():
        raise StoreError(f"{source} is not a store file: nothing to back up")
    if target.exists():
        raise StoreError(f"{target} exists already: choose a new name for the backup")
    partial = target.with_name(f".{target.name}.partial")
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
        os.close(fd)
        _copy(source, partial)
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise StoreError(f"cannot back up {source} to {target} ({reason})") from None
    return target


def _copy(source: Path, target: Path) -> None:
    src = sqlite3.connect(source)
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
    for suffix in ("-wal", "-shm"):
        leftover = Path(f"{target}{suffix}")
        if leftover.exists():
            leftover.chmod(PRIVATE)
