"""The durable event store: games, their append-only logs, raw reader reads and tag bindings.

Every game must survive a power cut, so each write is one transaction, committed (WAL,
``synchronous=FULL``) before the method returns: a line is appended before it is acknowledged.
The log is append-only (undo is itself an appended line) and a game is rebuilt by replaying it.
The store knows lines and events as JSON data, never the rules.

The store owns the connection and its lock; its parts each take the locked connection and
nothing else of it: ``store.log`` (:mod:`.log`: games, logs, reads), ``store.bindings``
(:mod:`.bindings`: tags), ``store.outbox`` (:mod:`.outbox`: games waiting for the league) and
``store.tablets`` (:mod:`.tablets`: paired tablets). Beside them: :mod:`.schema` (our files,
migrations, pragmas), :mod:`.backup` (the copy taken before a migration), :mod:`.records` (what
it hands out).

Threading: one writer. The store is meant to be used from one thread at a time; its connection
is opened with ``check_same_thread=False`` and every use of it goes through one lock, so the web
server thread and a reader thread may share one store safely.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlite_utils import Database

from companion.errors import StoreBusy, StoreError
from companion.storage.bindings import TagBindings
from companion.storage.files import create_private, make_private
from companion.storage.integrity import check_store
from companion.storage.log import READ_KINDS as READ_KINDS
from companion.storage.log import GameLog
from companion.storage.opened import closed, is_open_here, key, opened
from companion.storage.outbox import Outbox
from companion.storage.readonly import connect_read_only
from companion.storage.records import Binding as Binding
from companion.storage.records import GameRecord as GameRecord
from companion.storage.records import LogEntry as LogEntry
from companion.storage.schema import APPLICATION_ID as APPLICATION_ID
from companion.storage.schema import (
    SETUP_ATTEMPTS,
    check_file,
    check_writable,
    prepare,
    prove_writable,
    require_current_schema,
)
from companion.storage.tablets import PairedTablets


class EventStore:
    """Games and their append-only logs in one SQLite file (see the module docstring)."""

    def __init__(self, db: Database, *, name: str, clock: Callable[[], float]) -> None:
        """Use :meth:`open` or :meth:`memory`; ``db`` must already be checked and migrated."""
        self.db = db
        """The sqlite-utils database, for inspection; write only through the methods."""
        self.name = name
        self._lock = threading.Lock()
        self._closed = False
        self._open_as: str | None = None  #: its name among the stores this process has open
        #: the copy taken before this opening migrated the file, if it did
        self.migration_backup: Path | None = None
        self.log = GameLog(self._locked, name=name, clock=clock)
        """Games, their append-only logs and the raw reads."""
        self.bindings = TagBindings(self._locked, clock=clock)
        """Which card each tag is stuck on."""
        self.outbox = Outbox(self._locked, clock=clock)
        """Games waiting for the league, and the league's cached player names."""
        self.tablets = PairedTablets(self._locked, clock=clock)
        """Tablets paired at the table, by their tokens' hashes."""

    @classmethod
    def open(cls, path: str | Path, *, clock: Callable[[], float] = time.time) -> EventStore:
        """Open (or create) the store at ``path``: checked first (:mod:`.integrity`), then
        proved writable; its files are readable by their owner only.

        :raises StoreError: the file is not ours, is damaged, or cannot be written.
        """
        path = Path(path)
        if not is_open_here(path):  # else reading it with Python would drop this process's locks
            check_file(path)
            check_store(path)
        check_writable(path)
        create_private(path)
        try:
            conn = sqlite3.connect(path, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"{path} cannot be opened ({exc}); choose another path") from None
        store = cls._start(Database(conn), str(path), clock, on_disk=True)
        try:
            prove_writable(store.db, str(path))
        except StoreError:
            store.close()
            raise
        make_private(path)
        store._held_open(path)
        return store

    @classmethod
    def open_read_only(
        cls, path: str | Path, *, clock: Callable[[], float] = time.time, any_schema: bool = False
    ) -> EventStore:
        """The store at ``path`` for reading only (every write fails), safe beside a live table:
        it can neither checkpoint nor delete the table's files (:mod:`.readonly`). Checked first
        like :meth:`open`; nothing is created or changed. ``any_schema``: a store an older
        companion wrote is taken too (to copy it, not to read its games).

        :raises StoreError: missing, not ours, damaged, or (unless ``any_schema``) written by an
            older companion.
        """
        path = Path(path)
        if not is_open_here(path):  # else reading it with Python would drop this process's locks
            check_file(path, writing=False)
            check_store(path)
        conn = connect_read_only(path, check_same_thread=False)
        try:
            if not any_schema:
                require_current_schema(conn, str(path))
        except StoreError:
            conn.close()
            raise
        store = cls(Database(conn), name=str(path), clock=clock)
        store._held_open(path)
        return store

    @classmethod
    def memory(cls, *, clock: Callable[[], float] = time.time) -> EventStore:
        """A fresh store in memory, for tests."""
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        return cls._start(Database(conn), ":memory:", clock, on_disk=False)

    @classmethod
    def _start(
        cls, db: Database, name: str, clock: Callable[[], float], *, on_disk: bool
    ) -> EventStore:
        copy = None
        try:
            for attempt in range(SETUP_ATTEMPTS):
                try:
                    copy = prepare(db, name, on_disk=on_disk, clock=clock)
                    break
                except sqlite3.OperationalError as exc:
                    # Two programs opening a new file at once race to create it; SQLite
                    # refuses the later writer at once (a stale snapshot: no busy wait helps).
                    racing = "locked" in str(exc) or "already exists" in str(exc)
                    if not racing or attempt == SETUP_ATTEMPTS - 1:
                        raise
                    if db.conn.in_transaction:
                        db.execute("ROLLBACK")
                    time.sleep(0.02 + 0.01 * attempt)
        except sqlite3.DatabaseError as exc:
            db.close()
            raise StoreError(f"{name} cannot be opened as the store ({exc})") from None
        except BaseException:
            db.close()
            raise
        store = cls(db, name=name, clock=clock)
        store.migration_backup = copy
        return store

    def close(self) -> None:
        """Close the connection (idempotent); SQLite checkpoints the WAL on the way out."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self.db.close()
                if self._open_as is not None:
                    closed(self._open_as)

    def _held_open(self, path: Path) -> None:
        self._open_as = key(path)
        opened(self._open_as)

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _locked(self) -> Iterator[Database]:
        """The connection, held by this thread; SQLite failures become :class:`StoreError`."""
        with self._lock:
            if self._closed:
                raise StoreError(f"the store {self.name} is closed")
            try:
                yield self.db
            except sqlite3.Error as exc:
                if _busy(exc):
                    raise StoreBusy(
                        f"{self.name} is busy: another program is writing to it (it holds its "
                        "write lock); nothing was written: try again when it lets go"
                    ) from exc
                raise StoreError(f"{self.name}: the store failed ({exc})") from exc

    def free_bytes(self) -> int | None:
        """Bytes this user may still write on the store's disk (None: a store in memory).
        Asked of the file system by the folder's path: no file of the store is opened."""
        if self.name == ":memory:":
            return None
        return shutil.disk_usage(Path(self.name).parent).free

    def wait_when_busy(self, seconds: float) -> None:
        """Wait at most ``seconds`` for another program's write lock before a write fails
        with :class:`~companion.errors.StoreBusy` (SQLite's busy timeout; 5 s unless set)."""
        with self._locked() as db:
            db.execute(f"PRAGMA busy_timeout = {round(seconds * 1000)}")


def _busy(error: sqlite3.Error) -> bool:
    """Whether SQLite refused because another connection holds a lock it needs."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
