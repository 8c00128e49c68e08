"""The store's files are its owner's only (mode 0600): games, bindings and raw reads are
nobody else's business on a shared machine, and SQLite gives ``-wal`` and ``-shm`` the mode of
the database file."""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)
PRIVATE = 0o600
SUFFIXES = ("", "-wal", "-shm")


def create_private(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if it does not exist (SQLite then adopts it)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        return
    except OSError:
        return  # a missing folder: SQLite's own open says so
    os.close(fd)


def make_private(path: Path) -> None:
    """Narrow the database, its ``-wal`` and ``-shm`` to 0600 (a warning if not allowed)."""
    for suffix in SUFFIXES:
        file = Path(f"{path}{suffix}")
        try:
            if file.exists() and file.stat().st_mode & 0o777 != PRIVATE:
                file.chmod(PRIVATE)
        except OSError as exc:
            log.warning("%s: cannot make it private (%s)", file, exc.strerror)
