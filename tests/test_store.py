"""The SQLite event store: durability settings, the append-only log, refusing foreign files."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.errors import StoreError
from companion.storage.store import APPLICATION_ID, Binding, EventStore, LogEntry

HEADER: dict[str, Any] = {
    "tape": 1,
    "game": "smashup",
    "players": ["Ann", "Ben", "Cat"],
    "factions": {"Ann": ["munchkin/orcs", "munchkin/elves"]},
    "zones": ["base-1", "base-2", "discard"],
    "tags": {"04A1B2C3D4E5F6": "munchkin/topper-chopper", "04A1B2C3D4E5F7": {"card": "x/y"}},
}
TAP: dict[str, Any] = {"tap": "04A1B2C3D4E5F6", "zone": "base-1", "at": 12.5}
AWARD: dict[str, Any] = {"input": "award"}
EVENT: dict[str, Any] = {"kind": "played", "card": "munchkin/topper-chopper", "zone": "base-1"}


def ticking(start: float = 1000.0) -> Callable[[], float]:
    """A clock that advances one second per reading."""
    now = [start - 1.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    return clock


@pytest.fixture
def store() -> Iterator[EventStore]:
    with EventStore.memory(clock=ticking()) as fresh:
        yield fresh


def snapshot(path: Path) -> tuple[bytes, int, list[str]]:
    """A file's bytes, its mtime and the names in its folder: all must survive a refusal."""
    return path.read_bytes(), path.stat().st_mtime_ns, sorted(os.listdir(path.parent))


def assert_refused_untouched(path: Path, message: str) -> None:
    before = snapshot(path)
    with pytest.raises(StoreError, match=message) as caught:
        EventStore.open(path)
    assert str(path) in str(caught.value)
    assert snapshot(path) == before
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()


# Games and the log


def test_create_append_and_reload_across_reopen(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with EventStore.open(db, clock=ticking()) as store:
        game_id = store.log.create_game(HEADER)
        assert store.log.append(game_id, TAP, [EVENT], True) == 1
        assert store.log.append(game_id, AWARD, [], False) == 2
    with EventStore.open(db, clock=ticking(5000.0)) as store:
        assert store.log.lines(game_id) == [TAP, AWARD]
        assert store.log.game(game_id).header == HEADER
        assert store.log.append(game_id, {"input": "undo"}, [], True) == 3
        assert store.log.entries(game_id) == [
            LogEntry(1, 12.5, 1001.0, TAP, [EVENT], True),
            LogEntry(2, None, 1002.0, AWARD, [], False),
            LogEntry(3, None, 5000.0, {"input": "undo"}, [], True),
        ]
        assert store.log.last_seq(game_id) == 3


def test_lines_come_back_exactly_as_given(store: EventStore) -> None:
    line = {"input": "counter", "tag": "04AB", "delta": -2, "note": "Ünïcode ✓", "at": 3}
    game_id = store.log.create_game(HEADER)
    store.log.append(game_id, line, [{"nested": {"a": [1, 2.5, None]}}], True)
    assert store.log.lines(game_id) == [line]
    assert list(store.log.lines(game_id)[0]) == list(line)  # key order too
    assert store.log.entries(game_id)[0].at == 3.0


def test_seq_numbering_is_per_game_and_one_based(store: EventStore) -> None:
    first, second = store.log.create_game(HEADER), store.log.create_game(HEADER)
    assert store.log.last_seq(first) == 0
    assert [store.log.append(first, AWARD, [], True) for _ in range(3)] == [1, 2, 3]
    assert store.log.append(second, AWARD, [], True) == 1
    assert store.log.append(first, AWARD, [], True) == 4
    assert [entry.seq for entry in store.log.entries(first)] == [1, 2, 3, 4]


def test_append_many_continues_the_sequence(store: EventStore) -> None:
    game_id = store.log.create_game(HEADER)
    store.log.append(game_id, TAP, [], True)
    assert store.log.append_many(game_id, [(AWARD, [], True)] * 5) == 6
    assert store.log.append_many(game_id, []) == 6
    assert store.log.lines(game_id) == [TAP] + [AWARD] * 5


def test_seq_survives_another_store_on_the_same_file(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with EventStore.open(db) as store:
        game_id = store.log.create_game(HEADER)
        store.log.append(game_id, TAP, [], True)
    with EventStore.open(db) as store:
        assert store.log.append(game_id, AWARD, [], True) == 2


@pytest.mark.parametrize("game_id", [0, 2, 99])
def test_unknown_game_id_is_an_error(store: EventStore, game_id: int) -> None:
    store.log.create_game(HEADER)
    for call in (
        lambda: store.log.append(game_id, TAP, [], True),
        lambda: store.log.lines(game_id),
        lambda: store.log.last_seq(game_id),
        lambda: store.log.game(game_id),
        lambda: store.log.finish_game(game_id, ["Ann"]),
    ):
        with pytest.raises(StoreError, match=f"no game {game_id}"):
            call()


def test_a_failed_append_stores_nothing_and_keeps_numbering(store: EventStore) -> None:
    game_id = store.log.create_game(HEADER)
    store.log.append(game_id, TAP, [], True)
    with pytest.raises(StoreError, match="JSON"):
        store.log.append(game_id, {"input": "award", "bad": object()}, [], True)
    with pytest.raises(StoreError, match="JSON"):
        store.log.append(game_id, AWARD, [{"power": float("nan")}], True)
    assert store.log.append(game_id, AWARD, [], True) == 2
    assert store.log.lines(game_id) == [TAP, AWARD]


@pytest.mark.parametrize(
    "header",
    [
        {"players": ["Ann"]},
        {"game": "smashup"},
        {"game": "smashup", "players": []},
        {"game": "smashup", "players": "Ann"},
    ],
)
def test_create_game_needs_a_game_and_players(store: EventStore, header: dict[str, Any]) -> None:
    with pytest.raises(StoreError, match="header"):
        store.log.create_game(header)
    assert store.log.games() == []


def test_games_newest_first_and_finish(store: EventStore) -> None:
    first = store.log.create_game(HEADER)
    second = store.log.create_game(
        {**HEADER, "game": "munchkin-cthulhu", "players": ["Dee", "Eve"]}
    )
    assert [record.id for record in store.log.games()] == [second, first]
    latest = store.log.latest_open_game()
    assert latest is not None and latest.id == second
    assert (latest.game, latest.players, latest.ended, latest.winners) == (
        "munchkin-cthulhu",
        ["Dee", "Eve"],
        None,
        None,
    )
    store.log.finish_game(second, ["Eve", "Dee"])
    finished = store.log.game(second)
    assert finished.ended is not None and finished.ended > finished.started
    assert (finished.winner, finished.winners) == ("Eve", ["Eve", "Dee"])
    latest = store.log.latest_open_game()
    assert latest is not None and latest.id == first
    store.log.finish_game(first, [])
    assert (store.log.game(first).winner, store.log.game(first).winners) == (None, [])
    assert store.log.latest_open_game() is None


# Durability settings and the schema


def test_pragmas_wal_full_foreign_keys_and_application_id(tmp_path: Path) -> None:
    with EventStore.open(tmp_path / "games.db") as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert store.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert {"games", "log", "reads", "bindings", "meta"} <= set(store.db.table_names())
    head = (tmp_path / "games.db").read_bytes()[:100]
    assert int.from_bytes(head[68:72], "big") == APPLICATION_ID == 0x54434D50


def test_log_rows_reference_their_game(store: EventStore) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute(
            "INSERT INTO log (game_id, seq, recorded, line, events, changed)"
            " VALUES (7, 1, 0, '{}', '[]', 0)"
        )


def test_closed_store_refuses_use(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "games.db")
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.log.games()


def test_store_can_be_shared_with_another_thread(tmp_path: Path) -> None:
    with EventStore.open(tmp_path / "games.db") as store:
        game_id = store.log.create_game(HEADER)
        errors: list[BaseException] = []

        def writer() -> None:
            try:
                for _ in range(50):
                    store.log.append(game_id, AWARD, [], True)
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert [entry.seq for entry in store.log.entries(game_id)] == list(range(1, 101))


# Refusing files that are not ours, untouched


def test_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "photos.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO photos (name) VALUES ('cat.jpg')")
    conn.commit()
    conn.close()
    assert_refused_untouched(path, "not a table-companion database.*another program")


def test_sqlite_file_with_another_application_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 12345")
    conn.close()
    assert_refused_untouched(path, "not a table-companion database")


@pytest.mark.parametrize(
    "content",
    [
        bytes(range(256)) * 8,
        b"SQLite format 3\x00 but cut short",
        b"Ann 4 VP, Ben 2 VP\n" * 20,
    ],
    ids=["random-bytes", "truncated", "text"],
)
def test_corrupt_file_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(content)
    assert_refused_untouched(path, "not a SQLite database.*left untouched")


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        EventStore.open(tmp_path)


def test_empty_file_is_adopted(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.touch()
    with EventStore.open(path) as store:
        store.log.create_game(HEADER)
    with EventStore.open(path) as store:
        assert len(store.log.games()) == 1


def test_sqlite_file_with_nothing_in_it_is_adopted(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 1")  # writes a header, but no tables
    conn.close()
    assert path.stat().st_size > 0
    with EventStore.open(path) as store:
        assert store.log.games() == []
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_foreign_tables_still_in_a_wal_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()  # the table is in other.db-wal only while this connection stays open
    try:
        with pytest.raises(StoreError, match="another program"):
            EventStore.open(path)
        assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
    finally:
        conn.close()


def test_power_cut_before_the_first_checkpoint_still_opens(tmp_path: Path) -> None:
    live, copy = tmp_path / "live.db", tmp_path / "copy.db"
    with EventStore.open(live) as store:
        game_id = store.log.create_game(HEADER)
        store.log.append(game_id, TAP, [], True)
        # What a power cut leaves: the main file and its WAL as they are right now.
        copy.write_bytes(live.read_bytes())
        Path(f"{copy}-wal").write_bytes(Path(f"{live}-wal").read_bytes())
    with EventStore.open(copy) as store:
        assert store.log.lines(game_id) == [TAP]


def test_missing_folder_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no-such-folder for the games database does not exist"):
        EventStore.open(tmp_path / "no-such-folder" / "games.db")


def test_unwritable_folder_is_a_store_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite needs to write its WAL beside the store: a read-only folder is said at once."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    if os.access(folder, os.W_OK):  # root writes anyway: ask as an ordinary user would
        real = os.access
        monkeypatch.setattr(
            os, "access", lambda path, mode: False if Path(path) == folder else real(path, mode)
        )
    with pytest.raises(StoreError, match="locked does not let this user .* write the games"):
        EventStore.open(folder / "games.db")
    assert list(folder.iterdir()) == []


# Raw reads


def stored_reads(store: EventStore) -> list[tuple[Any, ...]]:
    sql = "SELECT zone, uid, kind, at, recorded, detail FROM reads ORDER BY id"
    return [tuple(row) for row in store.db.execute(sql).fetchall()]


def test_append_read_is_stored(store: EventStore) -> None:
    store.log.append_read("base-1", "04A1B2C3D4E5F6", "arrived", 1.25)
    store.log.append_read("base-1", "04a1b2c3d4e5f6", "left", 2.5)
    store.log.append_read("discard", "", "error", 3.0, {"reason": "crc", "bytes": "0a1b"})
    rows = stored_reads(store)
    assert rows[:2] == [
        ("base-1", "04A1B2C3D4E5F6", "arrived", 1.25, 1000.0, None),
        ("base-1", "04a1b2c3d4e5f6", "left", 2.5, 1001.0, None),  # raw: as the reader said
    ]
    assert rows[2][:5] == ("discard", "", "error", 3.0, 1002.0)
    assert json.loads(rows[2][5]) == {"reason": "crc", "bytes": "0a1b"}


def test_append_read_refuses_an_unknown_kind(store: EventStore) -> None:
    with pytest.raises(StoreError, match="arrived"):
        store.log.append_read("base-1", "04AB", "tapped", 1.0)
    assert stored_reads(store) == []


# Tag bindings


def test_bind_upper_cases_and_looks_up(store: EventStore) -> None:
    binding = store.bindings.bind("04a1b2c3d4e5f6", "munchkin/topper-chopper")
    assert binding == Binding("04A1B2C3D4E5F6", "munchkin/topper-chopper", None, 1000.0)
    assert store.bindings.get("04A1B2C3D4E5F6") == binding
    assert store.bindings.get(" 04a1b2c3d4e5f6 ") == binding
    assert store.bindings.get("04FFFF") is None


def test_bind_refuses_another_card_unless_rebind(store: EventStore) -> None:
    store.bindings.bind("04AA", "munchkin/topper-chopper")
    with pytest.raises(StoreError, match="already bound to munchkin/topper-chopper"):
        store.bindings.bind("04aa", "munchkin/hippogriff")
    assert store.bindings.bind("04AA", "munchkin/topper-chopper") == store.bindings.get(
        "04AA"
    )  # no-op
    store.bindings.bind("04AA", "munchkin/topper-chopper", owner="Ben")  # same card, new owner
    rebound = store.bindings.bind("04AA", "munchkin/hippogriff", rebind=True)
    assert (rebound.card, rebound.owner) == ("munchkin/hippogriff", None)
    assert store.bindings.all() == {"04AA": rebound}


def test_bindings_and_unbind(store: EventStore) -> None:
    store.bindings.bind("04BB", "munchkin/hippogriff", owner="Ann")
    store.bindings.bind("04AA", "munchkin/topper-chopper")
    assert list(store.bindings.all()) == ["04AA", "04BB"]
    assert store.bindings.all()["04BB"].owner == "Ann"
    assert store.bindings.unbind("04bb") is True
    assert store.bindings.unbind("04BB") is False
    assert list(store.bindings.all()) == ["04AA"]
    with pytest.raises(StoreError, match="empty"):
        store.bindings.bind("  ", "munchkin/hippogriff")


def test_bindings_survive_reopen(tmp_path: Path) -> None:
    with EventStore.open(tmp_path / "games.db") as store:
        store.bindings.bind("04AA", "munchkin/topper-chopper", owner="Cat")
    with EventStore.open(tmp_path / "games.db") as store:
        binding = store.bindings.get("04AA")
        assert binding is not None and binding.owner == "Cat"


def test_programs_opening_a_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    """`companion serve` and `companion enrol` started together on a fresh file both work."""
    failures: list[str] = []

    def open_it(path: Path) -> None:
        try:
            EventStore.open(path).close()
        except Exception as exc:  # collected, then asserted: none expected
            failures.append(repr(exc))

    for n in range(15):
        path = tmp_path / f"race-{n}.db"
        openers = [threading.Thread(target=open_it, args=(path,)) for _ in range(3)]
        for thread in openers:
            thread.start()
        for thread in openers:
            thread.join()
    assert failures == []
