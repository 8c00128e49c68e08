"""The serving process's memory with live event streams (issue 22): ``companion demo --still``
as its own process, ``CLIENTS`` stream clients (one loopback address each, like one device
each) and a tap about every 0.7 s, for ``seconds``; the figure is the resident memory's growth
from the end of the warm-up to the end (``stream_rss_growth_mb_<seconds>s``, target <= 3 MB
for 240 s with 20 streams).

Run alone for a quick look: ``python bench/stream_memory_bench.py --seconds 60``.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from soak_bench import drive

SECONDS = 240
CLIENTS = 20
WARM_UP = 40.0


def stream_memory(
    seconds: float = SECONDS, clients: int = CLIENTS, seed: int = 22
) -> dict[str, Any]:
    samples, taps, seen, _ = drive(seconds, clients, seed)
    warm_until = min(WARM_UP, seconds / 4)
    warm = statistics.median([rss for at, rss in samples if at <= warm_until][-3:])
    end = statistics.median([rss for _, rss in samples[-3:]])
    label = f"{round(seconds)}s"
    return {
        f"stream_rss_growth_mb_{label}": round(end - warm, 2),
        "stream_rss_mb_after_warm_up": round(warm, 1),
        "stream_rss_mb_end": round(end, 1),
        "stream_clients": clients,
        "stream_taps": taps,
        "stream_states_streamed": seen,
        "stream_rss_samples_mb": [
            round(rss, 1) for _, rss in samples[:: max(1, len(samples) // 30)]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    args = parser.parse_args()
    print(json.dumps(stream_memory(args.seconds, args.clients), indent=2))


if __name__ == "__main__":
    main()
