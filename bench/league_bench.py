"""League figures: games a league server stores per second while ten tables push at once
(``league_ingest_games_per_s``), and the 99th percentile of one push's round trip
(``league_push_ms_p99``), with two server worker processes.

It runs a throwaway PostgreSQL cluster with its default (durable) settings, ``companion league
serve`` as its own process, and ten table threads that ship pre-simulated games over HTTP, each
waiting for its answer before sending the next (as a table's shipper does).
"""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

from stats import percentile

from companion.league.admin import add_table
from companion.league.client import push_game
from companion.league.cluster import Cluster, find_binaries, free_port
from companion.league.database import connect
from companion.league.demo import start_server, stop_server, wait_ready
from companion.league.server import prepare
from companion.league.simtables import simulated_push

TABLES = 10
WORKERS = 2
GAMES = 300


def _games() -> list[dict[str, Any]]:
    return [simulated_push(random.Random(n), f"bench-{n:04d}") for n in range(GAMES)]


def _push_all(url: str, keys: list[str], games: list[dict[str, Any]]) -> tuple[float, list[float]]:
    """Every table ships its share one game after another; returns (seconds, push ms)."""
    costs: list[float] = []
    lock = threading.Lock()

    def table(n: int) -> None:
        for game in games[n::TABLES]:
            started = time.perf_counter()
            answer = push_game(url, keys[n], game)
            spent = (time.perf_counter() - started) * 1000
            if answer.status != 201:
                raise RuntimeError(f"push refused: {answer.status} {answer.error}")
            with lock:
                costs.append(spent)

    threads = [threading.Thread(target=table, args=(n,)) for n in range(TABLES)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, costs


def bench_league() -> dict[str, Any]:
    if find_binaries() is None:
        return {"league_ingest_games_per_s": "not measured: install Debian's postgresql"}
    games = _games()
    with Cluster(durable=True) as cluster:
        conninfo = cluster.conninfo()
        prepare(conninfo)
        with connect(conninfo) as conn:
            keys = [add_table(conn, f"bench-{n}") for n in range(TABLES)]
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = start_server(conninfo, port, WORKERS)
        try:
            wait_ready(url, server)
            seconds, costs = _push_all(url, keys, games)
        finally:
            stop_server(server)
    return {
        "league_ingest_games_per_s": round(len(games) / seconds, 1),
        "league_push_ms_p50": round(percentile(costs, 0.5), 1),
        "league_push_ms_p99": round(percentile(costs, 0.99), 1),
        "league_games_pushed": len(games),
        "league_tables": TABLES,
        "league_workers": WORKERS,
        "league_tape_lines_mean": round(sum(len(g["tape"]) for g in games) / len(games)),
    }


if __name__ == "__main__":
    print(json.dumps(bench_league(), indent=2))
