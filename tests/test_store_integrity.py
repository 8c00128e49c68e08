"""The store checks itself on open and refuses damage untouched; its files are 0600; a store
that cannot be written is refused at start; backups use SQLite's online backup (issue 15, 5)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.cli.main import main
from companion.errors import StoreError
from companion.storage.backup import backup_store
from companion.storage.store import EventStore

HEADER: dict[str, Any] = {"tape": 1, "game": "smashup", "players": ["Ann", "Ben"]}
TAP: dict[str, Any] = {"tap": "04A1B2C3D4E5F6", "zone": "base-1", "at": 1.0}


def a_store(path: Path, lines: int = 3) -> int:
    with EventStore.open(path) as store:
        game_id = store.log.create_game(HEADER)
        for _ in range(lines):
            store.log.append(game_id, TAP, [], True)
    return game_id


def files(path: Path) -> dict[str, bytes | None]:
    """The database and its -wal and -shm, byte for byte (None: absent)."""
    found: dict[str, bytes | None] = {}
    for suffix in ("", "-wal", "-shm"):
        file = Path(f"{path}{suffix}")
        found[suffix] = file.read_bytes() if file.exists() else None
    return found


def refused_untouched(path: Path, said: str) -> str:
    before = files(path)
    with pytest.raises(StoreError, match=said) as caught:
        EventStore.open(path)
    assert files(path) == before
    assert str(path) in str(caught.value) and "untouched" in str(caught.value)
    return str(caught.value)


def test_a_store_cut_short_by_ten_bytes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    a_store(path, lines=200)
    path.write_bytes(path.read_bytes()[:-10])
    refused_untouched(path, "damaged")


def test_a_log_row_that_is_not_json_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    game_id = a_store(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE log SET line = '{not json' WHERE seq = 2")
    conn.close()
    message = refused_untouched(path, f"game {game_id}, log entry 2 is not readable JSON")
    assert "restore a backup" in message


def test_a_log_row_with_nan_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    a_store(path)
    with sqlite3.connect(path) as conn:
        conn.execute("""UPDATE log SET line = '{"tap": "A", "at": NaN}' WHERE seq = 3""")
    conn.close()
    refused_untouched(path, "log entry 3 is not readable JSON")


def test_an_unknown_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    a_store(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    refused_untouched(path, "schema version '99'.*newer companion")


def test_a_foreign_file_and_its_wal_are_left_byte_for_byte(tmp_path: Path) -> None:
    """What a crashed program leaves: its tables only in the -wal (issue 15: the refusal
    checkpointed the WAL into the file and deleted it)."""
    live, path = tmp_path / "live.db", tmp_path / "other.db"
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    shutil.copyfile(live, path)
    shutil.copyfile(f"{live}-wal", f"{path}-wal")
    conn.close()
    assert Path(f"{path}-wal").stat().st_size > 0
    refused_untouched(path, "not a table-companion database")
    assert not Path(f"{path}-shm").exists()


def test_a_good_store_still_opens_with_its_wal(tmp_path: Path) -> None:
    live, copy = tmp_path / "live.db", tmp_path / "copy.db"
    game_id = a_store(live)
    with EventStore.open(live) as store:
        store.log.append(game_id, {"input": "end-turn"}, [], True)
        shutil.copyfile(live, copy)  # a power cut: the last line is in the WAL only
        shutil.copyfile(f"{live}-wal", f"{copy}-wal")
    with EventStore.open(copy) as store:
        assert store.log.lines(game_id)[-1] == {"input": "end-turn"}


def test_store_files_are_private(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with EventStore.open(path) as store:
        store.log.create_game(HEADER)
        for suffix in ("", "-wal", "-shm"):
            assert Path(f"{path}{suffix}").stat().st_mode & 0o777 == 0o600, suffix
    path.chmod(0o644)
    with EventStore.open(path):
        assert path.stat().st_mode & 0o777 == 0o600


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` cannot be written, even by root (who ignores the mode): immutable too."""
    path.chmod(0o444)
    immutable = os.geteuid() == 0
    if immutable:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip("root, and this file system cannot make a file immutable")
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o600)


def test_a_store_that_cannot_be_written_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    a_store(path)
    with read_only(path), pytest.raises(StoreError, match="cannot be written.*belong to"):
        EventStore.open(path)


def test_serve_refuses_an_unwritable_store_with_exit_78(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    a_store(path)
    with read_only(path):
        result = CliRunner().invoke(main, ["serve", "--simulate", "--db", str(path)])
    assert result.exit_code == 78
    assert result.stderr.startswith("error: ") and "cannot be written" in result.stderr


@pytest.mark.parametrize("command", [["export", "1"], ["games"], ["serve", "--simulate"]])
def test_commands_refuse_a_damaged_store_in_words(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "games.db"
    a_store(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE log SET events = 'oops' WHERE seq = 1")
    conn.close()
    result = CliRunner().invoke(main, [*command, "--db", str(path)])
    assert result.exit_code == (78 if command[0] == "serve" else 1)
    assert "log entry 1 is not readable JSON" in result.stderr
    assert "Traceback" not in result.output


# Backups


def test_backup_is_a_private_consistent_copy_while_the_table_writes(tmp_path: Path) -> None:
    path, target = tmp_path / "games.db", tmp_path / "backups" / "monday.db"
    target.parent.mkdir()
    game_id = a_store(path)
    writing = threading.Event()
    with EventStore.open(path) as store:

        def write() -> None:
            while not writing.is_set():
                store.log.append(game_id, TAP, [], True)

        writer = threading.Thread(target=write)
        writer.start()
        try:
            backup_store(path, target)
        finally:
            writing.set()
            writer.join()
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(os.listdir(target.parent)) == ["monday.db"]
    with EventStore.open(target) as copy:
        seqs = [entry.seq for entry in copy.log.entries(game_id)]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 3


def test_backup_refuses_to_overwrite(tmp_path: Path) -> None:
    path, target = tmp_path / "games.db", tmp_path / "old.db"
    a_store(path)
    target.write_bytes(b"keep")
    with pytest.raises(StoreError, match="exists already"):
        backup_store(path, target)
    assert target.read_bytes() == b"keep"


def test_backup_command(tmp_path: Path) -> None:
    path, target = tmp_path / "games.db", tmp_path / "copy.db"
    a_store(path)
    result = CliRunner().invoke(main, ["backup", str(target), "--db", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 game" in result.output
    with EventStore.open(target) as copy:
        assert len(copy.log.games()) == 1
    again = CliRunner().invoke(main, ["backup", str(target), "--db", str(path)])
    assert again.exit_code == 1 and "exists already" in again.stderr
