"""``make bench-quick``: the figures that show whether a change made the table slower, in under a
minute on the 2-core dev machine, each beside its target and beside ``bench/baseline.json``.

* replay of a 20,000-event night (``replay_events_per_s``: a stored log; ``..._tape``: each
  line checked first, as a tape is);
* a tap's cost (tracker, durable append, the new state document) in a fresh game and late in
  that long night, and their ratio;
* place -> stored on the simulated table (nfcpy reader threads, tap filter, tracker, SQLite)
  with its breakdown: place -> activation -> reader event -> tap -> stored;
* the serving process's memory (``companion demo --still``, 5 zones, 10 stream clients, after
  taps), as ``make bench`` measures it but without the browser.

A figure more than 15 % worse than the baseline is flagged (``WORSE``); the exit status stays
0 (the machine may be shared: run it again before believing one figure). The baseline is
updated deliberately, with ``--update-baseline`` and a commit saying why.
"""

from __future__ import annotations

import argparse
import json
import operator
import platform
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dashboard_bench import ZONES, Server, _streams, _tap
from run import _clear_table, _tape, bench_replay, bench_taps
from stats import percentile
from table_bench import BenchTable, breakdown, free_zone

from companion.catalogue.cards import load_catalogue
from companion.storage.store import EventStore
from companion.table.live import LiveGame

BASELINE = Path(__file__).with_name("baseline.json")
LONG_GAME = 20_000
TAPS = 150
TABLE_SAMPLES = 10
SERVE_CLIENTS = 10
SERVE_TAPS = 24
WORSE_BY = 0.15
"""A figure this much worse than the baseline is flagged."""


@dataclass(frozen=True, slots=True)
class Figure:
    name: str
    target: str
    """As the README's table says it: ``>= 30000``, ``<= 55``, or ``-`` (none, watched)."""
    higher_is_better: bool

    def meets(self, value: float) -> bool | None:
        """Whether ``value`` meets the target (None: no target)."""
        if self.target == "-":
            return None
        sign, bound = self.target.split()
        compare: Callable[[float, float], bool] = operator.ge if sign == ">=" else operator.le
        return compare(value, float(bound))

    def worse_than(self, value: float, baseline: float) -> bool:
        """More than :data:`WORSE_BY` worse than ``baseline``."""
        if self.higher_is_better:
            return value < baseline * (1 - WORSE_BY)
        return value > baseline * (1 + WORSE_BY)


FIGURES = (
    Figure("replay_events_per_s", ">= 30000", True),
    Figure("replay_tape_events_per_s", "-", True),
    Figure("tap_to_state_ms_p50", "-", False),
    Figure("tap_to_state_ms_p99", "<= 5", False),
    Figure("tap_to_state_ms_p50_long", "-", False),
    Figure("tap_to_state_ms_p99_long", "<= 3", False),
    Figure("tap_cost_ratio_long_vs_short", "<= 1.2", False),
    Figure("sim_place_to_stored_ms_p50", "-", False),
    Figure("sim_place_to_stored_ms_p99", "-", False),
    Figure("sim_tap_to_stored_ms_p50", "-", False),
    Figure("serve_rss_mb", "<= 55", False),
)


def bench_tracker() -> dict[str, Any]:
    """Replay and a tap's cost, fresh and late in a long night (as ``make bench``, fewer taps)."""
    catalogue = load_catalogue()
    header, lines = _tape(1, LONG_GAME)
    results: dict[str, Any] = {
        "replay_events_per_s": round(bench_replay(header, lines)),
        "replay_tape_events_per_s": round(bench_replay(header, lines, checked=False, runs=1)),
    }
    with tempfile.TemporaryDirectory() as folder:
        with EventStore.open(Path(folder) / "fresh.db") as fresh_store:
            fresh = bench_taps(LiveGame.start(fresh_store, header, catalogue), TAPS)
        with EventStore.open(Path(folder) / "long.db") as long_store:
            started = LiveGame.start(long_store, header, catalogue)
            long_store.log.append_many(started.game_id, [(line, [], True) for line in lines])
            long_game = LiveGame.resume(long_store, started.game_id, catalogue)
            _clear_table(long_game)
            long = bench_taps(long_game, TAPS)
    return results | {
        "tap_to_state_ms_p50": round(percentile(fresh, 0.5), 3),
        "tap_to_state_ms_p99": round(percentile(fresh, 0.99), 3),
        "tap_to_state_ms_p50_long": round(percentile(long, 0.5), 3),
        "tap_to_state_ms_p99_long": round(percentile(long, 0.99), 3),
        "tap_cost_ratio_long_vs_short": round(
            statistics.median(long) / statistics.median(fresh), 3
        ),
    }


def bench_sim_table() -> dict[str, Any]:
    """Place -> stored for cards put on a free zone of the simulated table, with its stages."""
    with tempfile.TemporaryDirectory() as folder:
        table = BenchTable(Path(folder))
        try:
            samples = free_zone(table, TABLE_SAMPLES)
        finally:
            table.close()
    stored = [(at - placed) * 1000 for placed, at, _ in samples]
    ours = [(t.stored - t.tap) * 1000 for _, _, t in samples if t is not None]
    return {
        "sim_place_to_stored_ms_p50": round(percentile(stored, 0.5), 2),
        "sim_place_to_stored_ms_p99": round(percentile(stored, 0.99), 2),
        "sim_tap_to_stored_ms_p50": round(percentile(ours, 0.5), 2) if ours else None,
        "sim_breakdown_ms": breakdown(samples),
    }


def bench_serve_rss() -> dict[str, Any]:
    """The serving process's resident memory after taps with stream clients reading."""
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        stop = threading.Event()
        try:
            cards = server.request("GET", "/api/sim/cards")["cards"]
            bases = [c["uid"] for c in cards if c["type"] == "base" and not c["in_play"]]
            for zone, uid in enumerate(bases[:ZONES], start=1):
                _tap(server, f"base-{zone}", uid, settle=0.2)
            _streams(server.port, SERVE_CLIENTS, stop)
            minions = [c["uid"] for c in cards if c["type"] == "minion"]
            for n in range(SERVE_TAPS):
                _tap(server, f"base-{n % ZONES + 1}", minions[n % len(minions)], settle=0.2)
            rss, peak = server.memory_mb()
        finally:
            stop.set()
            server.stop()
    return {"serve_rss_mb": round(rss, 1), "serve_rss_mb_peak": round(peak, 1)}


def report(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """One line per figure: value, target (and whether met), baseline (and whether worse)."""
    rows = [f"{'figure':32} {'now':>10} {'target':>10} {'baseline':>10}  flags"]
    for figure in FIGURES:
        value = results.get(figure.name)
        was = baseline.get(figure.name)
        flags = []
        if isinstance(value, int | float):
            if figure.meets(value) is False:
                flags.append("misses target")
            if isinstance(was, int | float) and figure.worse_than(value, was):
                flags.append(f"WORSE by more than {WORSE_BY:.0%}")
        shown = "-" if value is None else f"{value:g}"
        before = "-" if was is None else f"{was:g}"
        rows.append(
            f"{figure.name:32} {shown:>10} {figure.target:>10} {before:>10}  {', '.join(flags)}"
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("bench/quick-results.json"))
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="measure this many times and keep each figure's median (for a baseline: 3)",
    )
    parser.add_argument(
        "--update-baseline",
        action="store_true",
        help="write these figures as the new baseline (commit it, saying why)",
    )
    args = parser.parse_args()
    started = time.monotonic()
    runs = [measure() for _ in range(args.runs)]
    results = runs[-1] | {f.name: _median(runs, f.name) for f in FIGURES}
    results["runs"] = args.runs
    results["seconds"] = round(time.monotonic() - started, 1)
    results["machine"] = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "load_average": [round(n, 2) for n in _load_average()],
        "measured": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    baseline = json.loads(args.baseline.read_text()) if args.baseline.is_file() else {}
    print("\n".join(report(results, baseline.get("figures", {}))))
    print(f"breakdown (ms): {json.dumps(results['sim_breakdown_ms'])}")
    print(f"{results['seconds']} s {results['section_seconds']}; load average", end=" ")
    print(results["machine"]["load_average"])
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    if args.update_baseline:
        figures = {f.name: results[f.name] for f in FIGURES if results.get(f.name) is not None}
        measured = {"runs": args.runs, **results["machine"]}
        args.baseline.write_text(
            json.dumps({"figures": figures, "machine": measured}, indent=2) + "\n"
        )
        print(f"baseline written to {args.baseline}")
    return 0


def measure() -> dict[str, Any]:
    """One run of every section, with the seconds each took."""
    results: dict[str, Any] = {"section_seconds": {}}
    for section in (bench_tracker, bench_sim_table, bench_serve_rss):
        began = time.monotonic()
        results |= section()
        results["section_seconds"][section.__name__] = round(time.monotonic() - began, 1)
    return results


def _median(runs: list[dict[str, Any]], name: str) -> Any:
    values = [run[name] for run in runs if isinstance(run.get(name), int | float)]
    return statistics.median(values) if values else None


def _load_average() -> tuple[float, float, float]:
    try:
        with open("/proc/loadavg") as file:
            one, five, fifteen = (float(n) for n in file.read().split()[:3])
    except OSError:
        return (0.0, 0.0, 0.0)
    return (one, five, fifteen)


if __name__ == "__main__":
    raise SystemExit(main())
