"""Soak: a table tapped for 30 minutes with 20 event-stream clients, its memory flat.

It runs ``companion demo --still`` as its own process (readers on the simulator, tap filter,
tracker, SQLite, the dashboard on waitress), keeps 20 stream clients reading, and shuttles
minions between five bases through the simulated readers, about two taps a second; every 20
taps it answers what the table asks and ends the turn, as players would. The serving
process's resident memory is sampled every few seconds; ``soak_rss_growth_pct`` is the growth
from just after the warm-up to the end of the run (see :func:`growth`). The target is within
5 %. ``--seconds`` shortens the run for a quick look; the figure that counts is the 30-minute
one.
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

from companion.table.live import UNDO_DEPTH

SECONDS = 1800
CLIENTS = 20
SAMPLE_EVERY = 5.0
WARM_UP_SHARE = 0.1
#: seconds of samples whose median stands for the memory after the warm-up, and at the end
WINDOW = 120.0
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


def growth(samples: list[tuple[float, float]], taps: int) -> dict[str, Any]:
    """The growth of resident memory (``samples``: seconds into the run, MB) once the table
    holds all it keeps, in %: the median of a :data:`WINDOW` right after the warm-up against
    the median of the last :data:`WINDOW`.

    Why this definition (issue 24; until then it was the median of the last three samples of
    the run's first tenth against the median of its last three, 15 s at each end).
    tracemalloc snapshots of a 10-minute soak at minutes 2, 5 and 10 showed one structure
    growing with play: the live game's undo history, a state per change up to
    :data:`~companion.table.live.UNDO_DEPTH` changes (about 1.3 MB), full after some 500
    moves (4-5 minutes at the soak's rate, more on a slower machine), flat from then on
    (minutes 5 to 10: +0.3 MB traced, all of it output buffers). So the warm-up lasts until
    the table has made ``UNDO_DEPTH`` moves (each a change; turns ending add more), and at
    least a tenth of the run. Around its level the memory moves by seconds (glibc trims its
    heap every 10 s; before issue 24 the 20 streams' output buffers came and went together
    by 2.5 MB every 5 s, the sampling interval), so 15 s at each end measured a phase as much
    as a level (the last round's 8.06 % was a run whose thirds' medians moved 2.6 %). A
    median over two minutes (24 samples) at each end measures the level."""
    duration = samples[-1][0]
    warm_until = max(UNDO_DEPTH * duration / max(taps, 1), duration * WARM_UP_SHARE)
    window = min(WINDOW, (duration - warm_until) / 2)
    after = [rss for at, rss in samples if warm_until <= at <= warm_until + window]
    last = [rss for at, rss in samples if at >= duration - window]
    if window < 3 * SAMPLE_EVERY or not after or not last:
        return {"soak_rss_growth_pct": "not measured: the run ended before its warm-up did"}
    start, end = statistics.median(after), statistics.median(last)
    return {
        "soak_rss_growth_pct": round((end - start) / start * 100, 2),
        "soak_warm_up_s": round(warm_until),
        "soak_window_s": round(window),
        "soak_rss_mb_after_warm_up": round(start, 1),
        "soak_rss_mb_end": round(end, 1),
    }


def _figures(
    samples: list[tuple[float, float]],
    seconds: float,
    clients: int,
    taps: int,
    seen: int,
    state: dict[str, Any],
) -> dict[str, Any]:
    warm = [rss for at, rss in samples if at <= seconds * WARM_UP_SHARE][-3:]
    last = [rss for _, rss in samples[-3:]]
    before = (statistics.median(last) - statistics.median(warm)) / statistics.median(warm)
    return {
        **growth(samples, taps),
        # the definition used until issue 24, to compare runs measured before it
        "soak_rss_growth_pct_endpoints": round(before * 100, 2),
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
