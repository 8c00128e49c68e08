"""Reading a store another program may be writing: ``companion games``, ``export``, ``backup``.

A connection that may write is dangerous beside a live table even when it only reads: the last
writable connection to close checkpoints the ``-wal`` and deletes it and the ``-shm`` if it
believes it is alone. These connections are read-only, so they can neither checkpoint nor
delete the table's files:

- with a ``-wal`` beside the store (a table runs, or stopped without closing it), SQLite's
  read-only mode, which reads the recent commits in the ``-wal`` through the table's ``-shm``;
- without one (no table has the store open: a closed WAL store is whole in its file), the file
  as immutable, so nothing is created beside it (a read-only file or folder works, and a
  ``-wal`` or ``-shm`` left behind with the wrong owner or mode cannot stop the next table).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from companion.errors import StoreError


def connect_read_only(path: Path, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """A read-only connection to the store at ``path`` (see the module docstring).

    :raises StoreError: no file there, or SQLite cannot open it.
    """
    if not path.is_file():
        raise StoreError(f"{path} does not exist: no games are stored there (check --db)")
    live = Path(f"{path}-wal").exists()
    uri = f"file:{quote(str(path.resolve()))}?mode=ro" + ("" if live else "&immutable=1")
    try:
        return sqlite3.connect(uri, uri=True, check_same_thread=check_same_thread)
    except sqlite3.Error as exc:
        raise StoreError(f"{path} cannot be opened ({exc}); choose another path") from None
