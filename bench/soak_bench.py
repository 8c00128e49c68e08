"""Soak: a table tapped for 30 minutes with 20 event-stream clients, its memory flat.

It runs ``companion demo --still`` as its own process (readers on the simulator, tap filter,
tracker, SQLite, the dashboard on waitress), keeps 20 stream clients reading, and shuttles
minions between five bases through the simulated readers, about two taps a second; every 20
taps it answers what the table asks and ends the turn, as players would. The serving
process's resident memory is sampled every few seconds; ``soak_rss_growth_pct`` is the growth
from the end of the warm-up (a tenth of the run: caches fill, the first pages are touched) to
the end. The target is within 5 %. ``--seconds`` shortens the run for a quick look; the
figure that counts is the 30-minute one.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from dashboard_bench import ZONES, Server, _tap

SECONDS = 1800
CLIENTS = 20
SAMPLE_EVERY = 5.0
WARM_UP_SHARE = 0.1
TAPS_PER_TURN = 20
END_TURN = {"input": "end-turn"}


def _reader(port: int, stop: threading.Event, seen: list[int], source: str = "127.0.0.1") -> None:
    """One stream client (from its own loopback ``source`` address, like one device: the table
    caps streams per address), reconnecting if the stream ends, counting the states it gets."""
    while not stop.is_set():
        try:
            connection = http.client.HTTPConnection(
                "127.0.0.1", port, timeout=30, source_address=(source, 0)
            )
            connection.request("GET", "/api/events")
            response = connection.getresponse()
            while not stop.is_set():
                line = response.readline()
                if not line:
                    break
                if line.startswith(b"event: state"):
                    seen[0] += 1
            connection.close()
        except OSError:
            time.sleep(1.0)


def _setup(server: Server) -> list[str]:
    """A base on every zone; returns the minions to shuttle."""
    cards = server.request("GET", "/api/sim/cards")["cards"]
    bases = [c for c in cards if c["type"] == "base" and not c["in_play"]]
    for n, base in enumerate(bases[:ZONES], start=1):
        _tap(server, f"base-{n}", base["uid"])
    return [c["uid"] for c in cards if c["type"] == "minion"]


def _end_turn(server: Server) -> None:
    """What the table does at the end of a turn: answer what it asks (the last option: Ignore
    or Done), then end the turn."""
    state = server.request("GET", "/api/state")
    for prompt in state["state"]["prompts"]:
        answer = {"input": "answer", "prompt": prompt["id"], "option": len(prompt["options"]) - 1}
        version = server.request("GET", "/api/state")["version"]
        server.request("POST", "/api/input", {"line": answer, "version": version})
    version = server.request("GET", "/api/state")["version"]
    server.request("POST", "/api/input", {"line": END_TURN, "version": version})


def soak(seconds: float = SECONDS, clients: int = CLIENTS, seed: int = 15) -> dict[str, Any]:
    samples, taps, seen, state = drive(seconds, clients, seed)
    return _figures(samples, seconds, clients, taps, seen, state)


def drive(
    seconds: float, clients: int, seed: int
) -> tuple[list[tuple[float, float]], int, int, dict[str, Any]]:
    """A served demo table under taps (a move about every 0.5 s, turns ending) with ``clients``
    stream clients, one loopback address each, for ``seconds``: its resident memory sampled
    every ``SAMPLE_EVERY`` seconds, the taps made, the states streamed, the final state."""
    rng = random.Random(seed)
    samples: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        stop = threading.Event()
        seen = [0]
        try:
            minions = _setup(server)
            for n in range(clients):
                source = f"127.0.0.{n + 2}"
                threading.Thread(
                    target=_reader, args=(server.port, stop, seen, source), daemon=True
                ).start()
            started = time.monotonic()
            next_sample = started
            taps = 0
            lying: dict[str, str] = {}  # minion -> the zone it was last moved to
            while (now := time.monotonic()) - started < seconds:
                if now >= next_sample:
                    samples.append((now - started, server.memory_mb()[0]))
                    next_sample += SAMPLE_EVERY
                uid = rng.choice(minions)
                zones = [f"base-{n}" for n in range(1, ZONES + 1) if f"base-{n}" != lying.get(uid)]
                lying[uid] = rng.choice(zones)  # a move, never "already here"
                _tap(server, lying[uid], uid, settle=0.25)
                time.sleep(0.2)
                taps += 1
                if taps % TAPS_PER_TURN == 0:
                    _end_turn(server)
            samples.append((time.monotonic() - started, server.memory_mb()[0]))
            state = server.request("GET", "/api/state")
        finally:
            stop.set()
            server.stop()
    return samples, taps, seen[0], state


def _figures(
    samples: list[tuple[float, float]],
    seconds: float,
    clients: int,
    taps: int,
    seen: int,
    state: dict[str, Any],
) -> dict[str, Any]:
    warm_until = seconds * WARM_UP_SHARE
    warm = [rss for at, rss in samples if at <= warm_until][-3:]
    last = [rss for _, rss in samples[-3:]]
    start, end = statistics.median(warm), statistics.median(last)
    return {
        "soak_rss_growth_pct": round((end - start) / start * 100, 2),
        "soak_rss_mb_after_warm_up": round(start, 1),
        "soak_rss_mb_end": round(end, 1),
        "soak_rss_mb_max": round(max(rss for _, rss in samples), 1),
        "soak_seconds": round(samples[-1][0]),
        "soak_stream_clients": clients,
        "soak_taps": taps,
        "soak_states_streamed": seen,
        "soak_game_version": state["version"],
        "soak_prompts_open_at_end": len(state["state"]["prompts"]),
        "soak_rss_samples_mb": [round(rss, 1) for _, rss in samples[:: max(1, len(samples) // 30)]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    args = parser.parse_args()
    print(json.dumps(soak(args.seconds), indent=2))


if __name__ == "__main__":
    main()
