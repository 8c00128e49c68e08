"""Updating keeps the games: a store made by an earlier schema (version 1, the first; version
2, with the league's outbox; 3, with paired tablets) is copied with SQLite's backup API, then
migrated to today's (who voided a game), and every game in it replays as before. The old
schemas are written out here as they were (from the history of the store's modules), not made
by today's code."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import StoreError
from companion.storage import schema
from companion.storage.backup import backup_path
from companion.storage.store import APPLICATION_ID, EventStore
from companion.table.live import LiveGame
from companion.tape.documents import as_line
from companion.tape.examples import example_tape
from companion.tape.lines import parse_header, read_lines
from companion.tracker.document import state_document
from companion.tracker.game import Game

#: schema version 1, as sqlite-utils wrote it for the migration "0001-initial"
SCHEMA_V1 = """
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY, "migration_set" TEXT, "name" TEXT, "applied_at" TEXT);
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE TABLE "games" (
   "id" INTEGER PRIMARY KEY, "game" TEXT NOT NULL, "header" TEXT NOT NULL,
   "players" TEXT NOT NULL, "started" REAL NOT NULL, "ended" REAL, "winner" TEXT,
   "winners" TEXT);
CREATE TABLE "log" (
   "id" INTEGER PRIMARY KEY, "game_id" INTEGER NOT NULL REFERENCES "games"("id"),
   "seq" INTEGER NOT NULL, "at" REAL, "recorded" REAL NOT NULL, "line" TEXT NOT NULL,
   "events" TEXT NOT NULL, "changed" INTEGER NOT NULL);
CREATE TABLE "reads" (
   "id" INTEGER PRIMARY KEY, "zone" TEXT NOT NULL, "uid" TEXT NOT NULL, "kind" TEXT NOT NULL,
   "at" REAL NOT NULL, "recorded" REAL NOT NULL, "detail" TEXT);
CREATE TABLE "bindings" (
   "uid" TEXT PRIMARY KEY, "card" TEXT NOT NULL, "owner" TEXT, "bound" REAL NOT NULL);
CREATE TABLE "meta" ("key" TEXT PRIMARY KEY, "value" TEXT NOT NULL);
CREATE UNIQUE INDEX "idx_log_game_id_seq" ON "log" ("game_id", "seq");
CREATE INDEX "idx_reads_recorded" ON "reads" ("recorded");
INSERT INTO "_sqlite_migrations" (migration_set, name, applied_at)
    VALUES ('companion', '0001-initial', '2025-03-01 20:00:00.000000+00:00');
INSERT INTO meta (key, value) VALUES ('schema_version', '1');
"""
#: what migration "0002-league-outbox" added to version 1
SCHEMA_V2 = """
ALTER TABLE "games" ADD COLUMN "void" INTEGER NOT NULL DEFAULT 0;
CREATE TABLE "outbox" (
   "id" INTEGER PRIMARY KEY, "game_id" INTEGER NOT NULL REFERENCES "games"("id"),
   "uid" TEXT NOT NULL, "status" TEXT NOT NULL, "payload" TEXT NOT NULL, "queued" REAL NOT NULL,
   "state" TEXT NOT NULL DEFAULT 'pending', "attempts" INTEGER NOT NULL DEFAULT 0,
   "next_try" REAL NOT NULL DEFAULT 0.0, "last_error" TEXT, "sent" REAL, "answer" TEXT);
CREATE INDEX "idx_outbox_state_next_try" ON "outbox" ("state", "next_try");
INSERT INTO "_sqlite_migrations" (migration_set, name, applied_at)
    VALUES ('companion', '0002-league-outbox', '2025-06-01 20:00:00.000000+00:00');
INSERT INTO meta (key, value) VALUES ('table_uid', '0aeecf1b91c44ef4');
INSERT INTO outbox (game_id, uid, status, payload, queued)
    VALUES (1, '0aeecf1b91c44ef4-1', 'finished', '{}', 600);
"""
#: what migration "0003-tablets" added to version 2
SCHEMA_V3 = """
CREATE TABLE "tablets" ("key_hash" TEXT PRIMARY KEY, "paired" REAL NOT NULL, "via" TEXT NOT NULL);
INSERT INTO "_sqlite_migrations" (migration_set, name, applied_at)
    VALUES ('companion', '0003-tablets', '2025-09-01 20:00:00.000000+00:00');
UPDATE meta SET value = '3' WHERE key = 'schema_version';
"""
SCHEMAS = {1: [SCHEMA_V1], 2: [SCHEMA_V1, SCHEMA_V2], 3: [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3]}
#: 2025-03-01 21:00:00 UTC, when the update runs
NOW = 1740862800.0
EXAMPLES = ("oops-2p", "munchkin-3p", "cthulhu-3p")


def old_store(
    path: Path, catalogue: Catalogue, version: int = 1, *, unfinished: str = "munchkin-3p"
) -> dict:
    """A store of schema ``version`` holding the example games as the table would have stored
    them (one cut short: a game in progress), and a binding and a read; returns each game's
    final state document by game id."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.executescript(SCHEMAS[version][0])
    documents = {}
    for name in EXAMPLES:
        game_id, document = store_tape(conn, name, catalogue, cut=name == unfinished)
        documents[game_id] = document
    for changes in SCHEMAS[version][1:]:
        conn.executescript(changes)
    conn.execute("INSERT INTO bindings VALUES ('04A1B2C3', 'core/ninja-master', 'Ann', 1.0)")
    conn.execute(
        "INSERT INTO reads (zone, uid, kind, at, recorded) VALUES ('base-1', 'AB', 'arrived', 1, 2)"
    )
    conn.commit()
    conn.close()
    return documents


def store_tape(conn: sqlite3.Connection, name: str, catalogue: Catalogue, *, cut: bool) -> tuple:
    lines = list(read_lines(example_tape(name).splitlines()))
    raw_header = lines[0].event
    game = Game(parse_header(raw_header, catalogue), catalogue)
    cursor = conn.execute(
        "INSERT INTO games (game, header, players, started) VALUES (?, ?, ?, ?)",
        [raw_header["game"], json.dumps(raw_header), json.dumps(raw_header["players"]), 100.0],
    )
    game_id = cursor.lastrowid
    body = lines[1 : len(lines) // 2] if cut else lines[1:]
    for seq, line in enumerate(body, start=1):
        outcome = game.apply(as_line(line.event))
        conn.execute(
            "INSERT INTO log (game_id, seq, at, recorded, line, events, changed)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                game_id,
                seq,
                line.event.get("at"),
                100.0 + seq,
                json.dumps(line.event),
                json.dumps(list(outcome.events)),
                int(outcome.changed),
            ],
        )
    if game.state.table.winners:
        winners = list(game.state.table.winners)
        conn.execute(
            "UPDATE games SET ended = 500, winners = ? WHERE id = ?", [json.dumps(winners), game_id]
        )
    return game_id, state_document(game.state, catalogue)


@pytest.mark.parametrize("version", sorted(SCHEMAS))
def test_an_old_store_is_copied_then_upgraded_keeping_every_game(
    tmp_path: Path, catalogue: Catalogue, version: int
) -> None:
    path = tmp_path / "companion.db"
    documents = old_store(path, catalogue, version)
    with EventStore.open(path, clock=lambda: NOW) as store:
        copy = store.migration_backup
        assert copy == tmp_path / "companion.db.backup-20250301T210000Z"
        version_now = "SELECT value FROM meta WHERE key = 'schema_version'"
        assert store.db.execute(version_now).fetchone()[0] == schema.SCHEMA_VERSION
        assert "tablets" in store.db.table_names()
        assert len(store.log.games()) == len(EXAMPLES)
        for game_id, document in documents.items():
            resumed = LiveGame.resume(store, game_id, catalogue)
            assert state_document(resumed.game.state, catalogue) == document
        open_game = store.log.latest_open_game()
        assert open_game is not None and open_game.game == "smashup"
        assert store.bindings.get("04a1b2c3") is not None
        if version >= 2:  # the league's outbox and this table's id are kept
            assert [entry.uid for entry in store.outbox.newest()] == ["0aeecf1b91c44ef4-1"]
        assert all(record.void_by is None for record in store.log.games())
        store.tablets.pair("button")  # the new table works
    assert copy is not None and copy.stat().st_mode & 0o777 == 0o600
    backup = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    assert backup.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert backup.execute("SELECT count(*) FROM games").fetchone()[0] == len(EXAMPLES)
    assert backup.execute("SELECT count(*) FROM log").fetchone()[0] == sum(
        1 for _ in _all_lines(path)
    )
    columns = {row[1] for row in backup.execute("PRAGMA table_info(games)")}
    assert "void_by" not in columns  # the copy is the store as it was
    backup.close()


def _all_lines(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT * FROM log").fetchall()
    finally:
        conn.close()


def test_the_copy_opens_as_a_store_of_its_own(tmp_path: Path, catalogue: Catalogue) -> None:
    path = tmp_path / "companion.db"
    old_store(path, catalogue)
    with EventStore.open(path, clock=lambda: NOW) as store:
        copy = store.migration_backup
    assert copy is not None
    with EventStore.open(copy, clock=lambda: NOW + 60) as restored:  # a way back: it upgrades too
        assert len(restored.log.games()) == len(EXAMPLES)


def test_an_up_to_date_or_new_store_is_not_copied(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    with EventStore.open(path) as store:
        assert store.migration_backup is None
    with EventStore.open(path) as store:
        assert store.migration_backup is None
    assert [p.name for p in tmp_path.iterdir() if ".backup-" in p.name] == []


def test_copies_taken_within_one_second_do_not_overwrite_each_other(tmp_path: Path) -> None:
    store = tmp_path / "companion.db"
    first = backup_path(store, NOW)
    first.touch()
    assert backup_path(store, NOW).name == "companion.db.backup-20250301T210000Z-2"


def test_no_copy_no_migration(tmp_path: Path, catalogue: Catalogue) -> None:
    """A copy that cannot be written stops the update with a message: the store stays as it was."""
    path = tmp_path / "companion.db"
    old_store(path, catalogue)
    # where the copy would go lies a link to nowhere: creating the copy there is refused
    os.symlink(tmp_path / "nowhere" / "copy", backup_path(path, NOW))
    with pytest.raises(StoreError, match="a copy must be made first"):
        EventStore.open(path, clock=lambda: NOW)
    assert backup_path(path, NOW).is_symlink()  # not ours: left alone
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "1"
    assert "tablets" not in {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
