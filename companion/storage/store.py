"""The durable event store: games, their append-only logs, raw reader reads and tag bindings.

Every game must survive a power cut, so each write is one transaction, committed (WAL,
``synchronous=FULL``) before the method returns: a line is appended before it is acknowledged.
The log is append-only (undo is itself an appended line) and a game is rebuilt by replaying it.
The store knows lines and events as JSON data, never the rules.

Its parts: :mod:`.schema` (our files, migrations, pragmas), :mod:`.log` (games, logs, reads),
:mod:`.bindings` (tags), :mod:`.outbox` (games waiting for the league), :mod:`.tablets`
(paired tablets), :mod:`.backup` (the copy taken before a migration), :mod:`.records` (what it
hands out).

Threading: one writer. The store is meant to be used from one thread at a time; its connection
is opened with ``check_same_thread=False`` and every use of it goes through one lock, so the web
server thread and a reader thread may share one store safely.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlite_utils import Database

from companion.errors import StoreError
from companion.storage.bindings import TagBindings
from companion.storage.files import create_private, make_private
from companion.storage.integrity import check_store
from companion.storage.log import READ_KINDS as READ_KINDS
from companion.storage.log import GameLog
from companion.storage.outbox import Outbox
from companion.storage.records import Binding as Binding
from companion.storage.records import GameRecord as GameRecord
from companion.storage.records import LogEntry as LogEntry
from companion.storage.schema import APPLICATION_ID as APPLICATION_ID
from companion.storage.schema import SETUP_ATTEMPTS, check_file, prepare, prove_writable
from companion.storage.tablets import PairedTablets


class EventStore(GameLog, TagBindings, Outbox, PairedTablets):
    """Games and their append-only logs in one SQLite file (see the module docstring)."""

    def __init__(self, db: Database, *, name: str, clock: Callable[[], float]) -> None:
        """Use :meth:`open` or :meth:`memory`; ``db`` must already be checked and migrated."""
        self.db = db
        """The sqlite-utils database, for inspection; write only through the methods."""
        self.name = name
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._next_seq: dict[int, int] = {}
        #: the copy taken before this opening migrated the file, if it did
        self.migration_backup: Path | None = None

    @classmethod
    def open(cls, path: str | Path, *, clock: Callable[[], float] = time.time) -> EventStore:
        """Open (or create) the store at ``path``: checked first (:mod:`.integrity`), then
        proved writable; its files are readable by their owner only.

        :raises StoreError: the file is not ours, is damaged, or cannot be written.
        """
        path = Path(path)
        check_file(path)
        check_store(path)
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
                raise StoreError(f"{self.name}: the store failed ({exc})") from exc
