"""The stores this process has open, so that opening one again never reads its files with
Python.

SQLite's locks on a store are POSIX locks, and those belong to the process: closing *any*
descriptor of a file drops all of them, whichever connection took them, and the next program to
open the store believes it unused (it checkpoints and deletes the live ``-wal``). A second
opening in a process that has the store open already (a command run in-process, a view, a test)
therefore skips the checks that read the file with Python (its header, the integrity check's
copy): the first opening made them.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path

_lock = threading.Lock()
_open: Counter[str] = Counter()


def key(path: Path) -> str:
    """One name per file, however the path to it is written."""
    return os.path.realpath(path)


def is_open_here(path: Path) -> bool:
    with _lock:
        return _open[key(path)] > 0


def opened(name: str) -> None:
    with _lock:
        _open[name] += 1


def closed(name: str) -> None:
    with _lock:
        _open[name] -= 1
        if _open[name] <= 0:
            del _open[name]
