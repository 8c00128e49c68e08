"""Where a running table's dashboard listens, kept beside its games database as
``<db>.serving`` while it runs, so that ``companion token`` prints a link that table serves
(the address and port ``serve`` or ``demo`` actually bound, not the config's guess).

The note names the process that wrote it: a note left by a table that died (a power cut) is
recognised as stale and ignored.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


def serving_path(db: str | Path) -> Path:
    """The note of the table serving the store at ``db``: ``<db>.serving``."""
    return Path(f"{db}.serving")


@dataclass(frozen=True, slots=True)
class Serving:
    """A running table's dashboard: the address it is bound to and its port."""

    bind: str
    port: int
    pid: int


def write_serving(db: str | Path, bind: str, port: int) -> Path:
    """Note that this process serves the store at ``db`` on ``bind``:``port``.

    :raises OSError: the folder cannot be written.
    """
    path = serving_path(db)
    fresh = path.with_name(f".{path.name}.{os.getpid()}")
    fresh.write_text(json.dumps({"bind": bind, "port": port, "pid": os.getpid()}) + "\n")
    os.replace(fresh, path)
    return path


def clear_serving(db: str | Path) -> None:
    """The table stopped: its note goes (only if this process wrote it)."""
    path = serving_path(db)
    found = read_serving(db)
    if found is not None and found.pid == os.getpid():
        path.unlink(missing_ok=True)


def read_serving(db: str | Path) -> Serving | None:
    """The table serving ``db`` now, or None: no note, an unreadable one, or one whose
    process is gone."""
    try:
        found = json.loads(serving_path(db).read_text(encoding="utf-8"))
        serving = Serving(str(found["bind"]), int(found["port"]), int(found["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return serving if _alive(serving.pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0 only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process (the service's account): it exists
        return True
    return True
