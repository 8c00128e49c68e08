"""Killing the process at any moment loses nothing that was acknowledged."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from companion.catalogue.cards import Catalogue
from companion.simulation.plausible import random_header, random_lines
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.tape.lines import parse_header
from companion.tracker.document import state_document
from companion.tracker.game import Game
from tests import crash_child

CHILD = Path(__file__).with_name("crash_child.py")
TRIALS = 25


def _read_acks(acks: Connection, acked: list[int]) -> None:
    while True:
        try:
            acked.append(int(acks.recv_bytes().split()[1]))
        except EOFError:  # the child is gone
            return


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_acknowledged(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    rng = random.Random(20261122)
    header = random_header(rng, catalogue)
    lines = list(random_lines(rng, header, catalogue, 300))
    # the state after each prefix of the lines, played once (states are values): a trial
    # compares with the one its store should hold instead of replaying the prefix again
    played = Game(parse_header(header, catalogue), catalogue)
    after = [played.state]
    for line in lines:
        played.apply(line)
        after.append(played.state)
    cut_short = 0
    for trial in range(TRIALS):
        db = tmp_path / f"trial-{trial}.db"
        with EventStore.open(db) as store:
            game_id = LiveGame.start(store, header, catalogue).game_id
        child, lines_out, acks_in = crash_child.start(str(db), game_id)
        assert acks_in.recv_bytes() == b"ready"
        acked: list[int] = []
        reader = threading.Thread(target=_read_acks, args=(acks_in, acked), daemon=True)
        reader.start()
        try:
            for line in lines:
                lines_out.send_bytes(json.dumps(line).encode())
        except BrokenPipeError:
            pass
        # Wait for a random number of acknowledgements, then kill a moment later: the
        # signal lands anywhere in the next line's apply, append or commit.
        wanted = rng.randrange(1, len(lines) - 1)
        deadline = time.monotonic() + 30
        while len(acked) < wanted and time.monotonic() < deadline and child.is_alive():
            time.sleep(0.001)
        time.sleep(rng.uniform(0.0, 0.003))
        child.kill()  # SIGKILL: the power goes
        child.join()
        reader.join(timeout=5)
        lines_out.close()
        acks_in.close()
        last_ack = max(acked, default=0)
        cut_short += 0 < last_ack < len(lines)
        with EventStore.open(db) as store:
            stored = store.log.lines(game_id)
            resumed = LiveGame.resume(store, game_id, catalogue)
        # Everything acknowledged is there, in order; at most the one line being
        # acknowledged when the signal came may be there too.
        assert last_ack <= len(stored) <= last_ack + 1, (trial, last_ack, len(stored))
        assert stored == lines[: len(stored)]
        assert state_document(resumed.game.state, catalogue) == state_document(
            after[len(stored)], catalogue
        )
    assert cut_short >= TRIALS - 2, "the kills must land in the middle of the stream"


def _send_and_wait(child: subprocess.Popen[str], lines: list[dict[str, object]]) -> int:
    """Send ``lines`` to the crash child and wait for each acknowledgement; returns the last."""
    assert child.stdin is not None and child.stdout is not None
    for line in lines:
        child.stdin.write(json.dumps(line) + "\n")
    child.stdin.flush()
    last = 0
    for _ in lines:
        reply = child.stdout.readline()
        assert reply.startswith("ack "), reply
        last = int(reply.split()[1])
    return last


def _plain_sqlite(db: Path) -> None:
    """What any other program does: open the file, read, close (the last closer of a WAL
    database checkpoints it and deletes its -wal and -shm, if it believes it is alone)."""
    conn = sqlite3.connect(db)
    try:
        conn.execute("SELECT count(*) FROM log").fetchone()
    finally:
        conn.close()


@pytest.mark.slow
def test_other_programs_opening_a_live_store_lose_nothing_acknowledged(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    """Our own commands and a plain SQLite connection run against a live table's store; then
    the power goes: every line acknowledged before and after them is there (issue 22, 1)."""
    rng = random.Random(22)
    header = random_header(rng, catalogue)
    lines = list(random_lines(rng, header, catalogue, 60))
    db = tmp_path / "live.db"
    with EventStore.open(db) as store:
        game_id = LiveGame.start(store, header, catalogue).game_id
    env = {**os.environ, "PYTHONPATH": str(CHILD.parent.parent)}
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(game_id)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None and child.stdin is not None
    companion = [sys.executable, "-m", "companion"]
    openers: list[tuple[str, Callable[[], None]]] = [
        ("games", lambda: _run([*companion, "games", "--db", str(db)], env)),
        (
            "backup",
            lambda: _run([*companion, "backup", str(tmp_path / "copy.db"), "--db", str(db)], env),
        ),
        ("export", lambda: _run([*companion, "export", str(game_id), "--db", str(db)], env)),
        ("sqlite3", lambda: _plain_sqlite(db)),
    ]
    try:
        assert child.stdout.readline().strip() == "ready"
        acked = _send_and_wait(child, lines[:20])
        sent = 20
        for name, opener in openers:
            opener()
            acked = _send_and_wait(child, lines[sent : sent + 10])
            sent += 10
            assert acked == sent, name
    finally:
        child.send_signal(signal.SIGKILL)  # the power goes
        child.wait()
        for pipe in (child.stdin, child.stdout):
            with contextlib.suppress(BrokenPipeError):
                pipe.close()
    with EventStore.open(db) as store:  # the table restarts
        stored = store.log.lines(game_id)
        resumed = LiveGame.resume(store, game_id, catalogue)
    assert len(stored) == acked == 60
    assert stored == lines[:60]
    assert resumed.game.state.version == acked
    with EventStore.open(tmp_path / "copy.db") as copy:
        assert copy.log.lines(game_id) == lines[:30]  # the backup has what was acknowledged then


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
