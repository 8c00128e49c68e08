"""Other programs beside a live table: the table keeps SQLite's locks on its store, and our own
reading commands (``games``, ``export``, ``backup``) can neither checkpoint nor delete its files
(issue 22, 1). The whole story, with a table killed afterwards, is a crash trial
(``tests/test_crash.py``)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.errors import StoreError
from companion.storage.store import EventStore
from tests.test_store_integrity import TAP, a_store, files, read_only
from tests.test_store_upgrade import old_store


def posix_locks(pid: int) -> set[int]:
    """The inodes on which process ``pid`` holds POSIX (fcntl) locks."""
    try:
        table = Path("/proc/locks").read_text()
    except OSError:
        pytest.skip("no /proc/locks on this system")
    held = set()
    for entry in table.splitlines():
        fields = entry.split()
        if fields[1] == "POSIX" and fields[4] == str(pid):
            held.add(int(fields[5].split(":")[2]))
    return held


def test_an_open_store_keeps_sqlites_locks_on_its_file_and_index(tmp_path: Path) -> None:
    """Closing any descriptor of a file drops all of the process's locks on it: opening must
    never do that after SQLite has locked the store, or other programs believe it is unused."""
    path = tmp_path / "games.db"
    a_store(path)
    with EventStore.open(path) as store:
        store.log.append(1, TAP, [], True)
        held = posix_locks(os.getpid())
        assert path.stat().st_ino in held  # the shared lock that says "in use"
        assert Path(f"{path}-shm").stat().st_ino in held  # and on the WAL index


def a_killed_table(tmp_path: Path) -> Path:
    """A store as a table killed mid-game leaves it: the last lines only in its -wal."""
    live, copy = tmp_path / "live.db", tmp_path / "games.db"
    game_id = a_store(live)
    with EventStore.open(live) as store:
        store.log.append(game_id, {"input": "end-turn"}, [], True)
        for suffix in ("", "-wal", "-shm"):
            shutil.copyfile(f"{live}{suffix}", f"{copy}{suffix}")
    return copy


@pytest.mark.parametrize("command", [["games"], ["export", "1"], ["backup", "{tmp}/copy.db"]])
def test_reading_commands_never_checkpoint_or_delete_the_write_ahead_log(
    tmp_path: Path, command: list[str]
) -> None:
    """The store and its -wal stay as the table left them, byte for byte (a table that still
    had the store open would keep writing into that -wal), the -shm stays (readers mark in it
    what they read), and the command sees the last line."""
    path = a_killed_table(tmp_path)
    before = files(path)
    assert before["-wal"]
    args = [part.format(tmp=tmp_path) for part in command]
    result = CliRunner().invoke(main, [*args, "--db", str(path)])
    assert result.exit_code == 0, result.output
    after = files(path)
    assert after["-shm"] is not None
    assert {**after, "-shm": b""} == {**before, "-shm": b""}
    if command[0] == "export":
        assert json.loads(result.output.splitlines()[-1]) == {"input": "end-turn"}
    if command[0] == "backup":
        with EventStore.open_read_only(tmp_path / "copy.db") as copy:
            assert copy.log.lines(1)[-1] == {"input": "end-turn"}


def test_games_lists_a_read_only_store_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    a_store(path)
    with read_only(path):
        result = CliRunner().invoke(main, ["games", "--db", str(path)])
        beside = sorted(os.listdir(tmp_path))
    assert result.exit_code == 0, result.output
    assert "Ann, Ben" in result.output and "in progress" in result.output
    assert beside == ["games.db"]


@contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """No new file can be made in ``folder``, even by root (who ignores modes): immutable."""
    folder.chmod(0o555)
    immutable = os.geteuid() == 0
    if immutable:
        done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip("root, and this file system cannot make a folder immutable")
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def test_games_lists_a_store_in_a_read_only_folder(tmp_path: Path) -> None:
    """A copy on a read-only medium (or a folder made immutable: root ignores modes)."""
    folder = tmp_path / "archive"
    folder.mkdir()
    a_store(folder / "games.db")
    with read_only_folder(folder):
        result = CliRunner().invoke(main, ["games", "--db", str(folder / "games.db")])
        beside = sorted(os.listdir(folder))
    assert result.exit_code == 0, result.output
    assert "Ann, Ben" in result.output and beside == ["games.db"]


def test_a_store_an_older_companion_wrote_is_backed_up_as_it_is(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    """A copy before the update: backing up neither refuses nor migrates an old store."""
    path, target = tmp_path / "games.db", tmp_path / "copy.db"
    old_store(path, catalogue, version=1)
    before = files(path)
    result = CliRunner().invoke(main, ["backup", str(target), "--db", str(path)])
    assert result.exit_code == 0, result.output
    assert files(path) == before
    copy = sqlite3.connect(target)
    assert copy.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("1",)
    copy.close()
    listed = CliRunner().invoke(main, ["games", "--db", str(path)])
    assert listed.exit_code == 1 and "start the table once" in listed.stderr


def test_a_read_only_store_refuses_writes_and_a_missing_one_is_not_created(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.db"
    a_store(path)
    with EventStore.open_read_only(path) as store, pytest.raises(StoreError, match="readonly"):
        store.log.append(1, TAP, [], True)
    missing = tmp_path / "none.db"
    result = CliRunner().invoke(main, ["games", "--db", str(missing)])
    assert result.exit_code == 1 and "does not exist" in result.stderr
    assert not missing.exists()


def test_a_refused_read_only_store_leaves_nothing_beside_it(tmp_path: Path) -> None:
    """Refused at start because it cannot be written: no empty -wal or -shm is left (made
    with the file's 0444, they would stop the next table once the file is fixed)."""
    path = tmp_path / "games.db"
    a_store(path)
    with read_only(path), pytest.raises(StoreError, match="cannot be written"):
        EventStore.open(path)
    assert sorted(os.listdir(tmp_path)) == ["games.db"]


def test_opening_a_store_again_in_the_same_process_keeps_the_first_one_s_locks(
    tmp_path: Path,
) -> None:
    """The locks belong to the process, not the connection: a second opening here (a command
    run in-process, a view, a test) must not read the files with Python and drop them."""
    path = tmp_path / "games.db"
    a_store(path)
    with EventStore.open(path) as store:
        store.log.append(1, TAP, [], True)
        EventStore.open_read_only(path).close()
        EventStore.open(path).close()
        held = posix_locks(os.getpid())
        assert path.stat().st_ino in held
        assert Path(f"{path}-shm").stat().st_ino in held
