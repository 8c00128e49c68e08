"""``companion league demo`` as a person runs it: a throwaway cluster, the server and simulated
tables; it ends with the standings board's final state and leaves nothing running."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.league.cluster import Cluster, free_port
from companion.league.demo import stop_server
from tests.processes import piped
from tests.waiting import eventually


def test_the_demo_fills_the_standings_board(pg_cluster: Cluster) -> None:
    port = free_port()
    command = [sys.executable, "-m", "companion", "league", "demo", "--tables", "2",
               "--games", "2", "--pace", "0", "--port", str(port)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"league board: http://127.0.0.1:{port}/" in out
    shipped = re.findall(r"^\[table-\d\] .* won \(.*\): (counted|disputed)$", out, re.M)
    assert len(shipped) == 4
    assert "final standings (Season 1):" in out
    rows = re.findall(r"^\s+\d+\. \S+\s+rating", out, re.M)
    assert rows, out
    database = re.search(r"host=127\.0\.0\.1 port=(\d+)", out)
    assert database is not None
    for gone in (int(database.group(1)), port):  # the cluster and the server it started
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", gone)) != 0


def test_a_taken_port_is_refused_with_a_message(pg_cluster: Cluster) -> None:
    port = pg_cluster.port  # PostgreSQL listens there
    command = [sys.executable, "-m", "companion", "league", "demo", "--port", str(port)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert f"port {port} is taken" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture
def temp_root() -> Iterator[Path]:
    """An empty folder for the demo's temporary folders that PostgreSQL's own account may
    enter (pytest's are its owner's only)."""
    folder = Path(tempfile.mkdtemp(prefix="league-demo-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_demo_and_leaves_nothing_behind(
    pg_cluster: Cluster, temp_root: Path, signum: int
) -> None:
    """SIGTERM (systemd, kill) and Ctrl-C, even from a script that started it in the
    background (such jobs start with SIGINT ignored)."""
    tmp_path = temp_root
    port = free_port()
    command = [sys.executable, "-m", "companion", "league", "demo", "--tables", "1",
               "--port", str(port)]  # fmt: skip
    with piped(
        command,
        env={**os.environ, "TMPDIR": str(tmp_path)},  # its temporary folders land here
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # as a script's &
    ) as demo:
        assert demo.stdout is not None
        printed = []
        for line in demo.stdout:
            printed.append(line)
            if line.startswith("database: "):
                break
        database = re.search(r"host=127\.0\.0\.1 port=(\d+)", "".join(printed))
        assert database is not None, "".join(printed)
        assert list(tmp_path.iterdir())  # the cluster and the tables' folder
        demo.send_signal(signum)
        assert demo.wait(60) == 0
        rest = demo.stdout.read()
    assert "Traceback" not in rest, rest
    assert list(tmp_path.iterdir()) == []  # the cluster's and the tables' folders are gone
    for gone in (int(database.group(1)), port):  # PostgreSQL and gunicorn stopped
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", gone)) != 0


def test_a_server_that_outlives_its_graceful_time_is_killed_with_its_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Was: only the master was killed, its workers left serving on, orphaned. Here a master
    and its worker both ignore SIGTERM (as a gunicorn worker still booting does)."""
    monkeypatch.setattr("companion.league.demo.GRACEFUL_S", 0)
    program = (
        "import os, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "worker = os.fork()\n"
        "if worker:\n"
        "    print(worker, flush=True)\n"
        "time.sleep(60)\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", program], stdout=subprocess.PIPE, start_new_session=True
    )
    assert server.stdout is not None
    with server.stdout:
        worker = int(server.stdout.readline())
    stop_server(server)
    assert server.returncode == -signal.SIGKILL
    eventually(lambda: ended(worker), what=f"worker {worker} killed with its master")


def ended(pid: int) -> bool:
    """Whether process ``pid`` is gone or a zombie (killed, not yet reaped by its new parent)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"
