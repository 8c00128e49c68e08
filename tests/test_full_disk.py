"""A table started on a full disk says so at once, before any write fails on it, and says the
store is fine again once there is room (issue 22, 8). A real full disk: a small tmpfs (mounting
one needs root; elsewhere the test is skipped, saying why)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.catalogue.cards import Catalogue
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.table.supervision import DISK_LOOK_EVERY
from tests.tapes import HEADER
from tests.test_fault_trials import Clock


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB file system of its own."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """Fill the file system to its last byte; returns the filler file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass  # ENOSPC: full
    finally:
        os.close(fd)
    return filler


def killed_while_open(path: Path) -> None:
    """A table process that stops without closing its store (killed, or the power cut)."""
    code = (
        "import os, sys\n"
        "from companion.storage.store import EventStore\n"
        "EventStore.open(sys.argv[1]).log.append_read('base-1', '04AA', 'arrived', 1.0)\n"
        "os._exit(0)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    subprocess.run([sys.executable, "-c", code, str(path)], env=env, check=True)
    assert Path(f"{path}-shm").exists()


def test_a_table_started_on_a_full_disk_reports_it_then_recovers(
    small_disk: Path, catalogue: Catalogue
) -> None:
    path = small_disk / "games.db"
    with EventStore.open(path) as store:
        game_id = LiveGame.start(store, HEADER, catalogue).game_id
    killed_while_open(path)  # the table restarts after a crash, its -wal and -shm still there
    filler = fill(small_disk)
    clock = Clock()
    store = EventStore.open(path)  # nothing written: the store opens on a full disk
    service = TableService(
        LiveGame.resume(store, game_id, catalogue),
        {zone: "mock:" for zone in HEADER["zones"]},
        clock=clock,
        worker_thread=False,
    )
    service.start()
    try:
        health = service.store_snapshot()
        assert health.state == "failing" and "disk" in (health.error or "")
        assert "full" in (health.error or "") and "free some space" in (health.error or "")
        filler.unlink()
        clock.advance(DISK_LOOK_EVERY - 0.1)
        service.step()
        assert service.store_snapshot().state == "failing"  # not looked at again yet
        clock.advance(0.1)
        service.step()
        assert service.store_snapshot().state == "ok"
        service.submit({"input": "end-turn"})  # and it takes writes
    finally:
        service.stop()
        store.close()
