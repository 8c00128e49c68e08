"""``companion league demo`` as a person runs it: a throwaway cluster, the server and simulated
tables; it ends with the standings board's final state and leaves nothing running."""

from __future__ import annotations

import re
import socket
import subprocess
import sys

from companion.league.cluster import Cluster, free_port


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
