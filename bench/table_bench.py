"""The whole simulated table as a player feels it: real nfcpy reader threads on five base
zones (and the discard), the tap filter, the tracker and a real SQLite file, started as
``companion serve --simulate`` starts it.

* ``sim_place_to_state_ms``: a card put on a free zone to its tap stored and announced;
* ``swap_place_to_state_ms``: a card put on a zone as the one lying there is lifted (gap 0),
  and ``swap_place_to_state_ms_by_gap`` for gaps of up to half a second between the two;
* ``cards_per_s_one_antenna``: the most distinct cards a second one antenna takes, each swapped
  for the next, with none lost and p99 <= 150 ms (``cards_per_s_sweep`` has every rate tried;
  with 20 cards a rate, its p99 is its slowest card);
* ``latency_breakdown_ms``: where the free-zone time goes, from each tap's stage times
  (place -> nfcpy's activation -> reader event -> tap -> stored): medians and means (the means
  add up to the mean total); ``ours_after_activation_ms``: activation to stored.

Every wait is on the service's change listener (the worker calls it as it announces a stored
tap): nothing polls the state, so the measurement does not compete with the worker.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stats import percentile
from tables import simulated_table

from companion.hardware.readers.ntag_sim import NtagCard
from companion.table.config import TableConfig
from companion.table.service import Change

if TYPE_CHECKING:
    from companion.table.service import TapTiming

FREE_SAMPLES = 40
TRIALS = 20  # per gap and per rate
GAPS_MS = (0, 50, 100, 200, 300, 500)
RATES = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20)
RATE_P99_MS = 150.0
LOST_AFTER = 10.0  # seconds: a tap stored later than this never came (a late one counts in p99)
ZONE = "base-1"


class Stored:
    """When each tag's tap was stored and announced (monotonic seconds), heard from the
    service's listener; the bench thread waits on it without touching the service."""

    def __init__(self) -> None:
        self._at: dict[str, float] = {}
        self._changed = threading.Condition()

    def heard(self, change: Change) -> None:
        now = time.monotonic()
        tags = [event["tag"] for event in change.events if isinstance(event.get("tag"), str)]
        with self._changed:
            for tag in tags:
                self._at.setdefault(tag, now)
            self._changed.notify_all()

    def forget(self, uids: list[str]) -> None:
        with self._changed:
            for uid in uids:
                self._at.pop(uid, None)

    def wait(self, uid: str, timeout: float = LOST_AFTER) -> float | None:
        with self._changed:
            self._changed.wait_for(lambda: uid in self._at, timeout)
            return self._at.get(uid)


class BenchTable:
    """A running simulated table with a base on ``base-1`` and a pool of tagged minions."""

    def __init__(self, folder: Path, config: TableConfig | None = None) -> None:
        config = config if config is not None else TableConfig.simulated(5)
        self.service = simulated_table(config, str(folder / "t.db"))
        self.stored = Stored()
        self.service.listen(self.stored.heard)
        self.service.start()
        live = self.service.live
        catalogue, tags = live.game.catalogue, live.game.state.header.tags
        kinds = {uid: catalogue[b.card].type for uid, b in tags.items() if b.card in catalogue}
        self.cards = {uid: NtagCard.for_card(uid, b.card) for uid, b in tags.items()}
        self.minions = [uid for uid, kind in kinds.items() if kind == "minion"]
        base = next(uid for uid, kind in kinds.items() if kind == "base")
        self.service.submit({"tap": base, "zone": ZONE})
        self.antenna = self.service.context.simulator.zone(ZONE)

    def ready(self, uids: list[str]) -> None:
        """Back in hand (discarded) if on base-1, so each tap there plays it; forgotten."""
        table = self.service.live.game.state.table
        for uid in uids:
            found = table.locate(uid)
            if found is not None and found[0].zone == ZONE:
                self.service.submit({"tap": uid, "zone": "discard"})
        self.stored.forget(uids)

    def timing(self, uid: str) -> TapTiming | None:
        """The tap's stage times (None from a service that keeps none)."""
        timings = list(getattr(self.service, "timings", ()))
        return next((t for t in reversed(timings) if t.uid == uid), None)

    def close(self) -> None:
        self.service.stop()
        self.service.store.close()


def free_zone(
    table: BenchTable, count: int = FREE_SAMPLES
) -> list[tuple[float, float, TapTiming | None]]:
    """(placed, stored, stage times) for cards put on an empty zone at a random moment."""
    samples = []
    for n in range(count):
        uid = table.minions[n % len(table.minions)]
        table.ready([uid])
        time.sleep(random.uniform(0.05, 0.25))  # a random phase against the reader's polls
        placed = time.monotonic()
        table.antenna.place(table.cards[uid])
        stored = table.stored.wait(uid)
        timing = table.timing(uid)
        if stored is None:
            raise TimeoutError(f"the tap of {uid} on a free zone was not stored")
        samples.append((placed, stored, timing))
        table.antenna.lift()
        time.sleep(0.5)  # the zone is free again (nfcpy's own presence loop took ~0.4 s)
    return samples


def swaps(table: BenchTable, gap_ms: int, trials: int = TRIALS, first: int = 0) -> list[float]:
    """Place-to-stored (ms) of a card put down ``gap_ms`` after the one before was lifted
    (minions from number ``first`` on)."""
    pool = table.minions[first : first + trials + 1]
    table.ready(pool)
    table.antenna.place(table.cards[pool[0]])
    if table.stored.wait(pool[0]) is None:
        raise TimeoutError("the first card of the swaps was not stored")
    times = []
    for uid in pool[1:]:
        time.sleep(random.uniform(0.05, 0.25))  # it rests a while: a random phase
        table.antenna.lift()
        time.sleep(gap_ms / 1000)
        placed = time.monotonic()
        table.antenna.place(table.cards[uid])
        stored = table.stored.wait(uid)
        if stored is None:
            raise TimeoutError(f"a card swapped on after {gap_ms} ms was lost")
        times.append((stored - placed) * 1000)
    table.antenna.lift()
    time.sleep(1.1)  # past the tap filter's windows before these cards come back
    return times


def rate(
    table: BenchTable, per_second: float, trials: int = TRIALS, first: int = TRIALS + 1
) -> dict[str, Any]:
    """Distinct cards on one antenna, each swapped for the next every 1/rate seconds
    (minions from number ``first`` on)."""
    pool = table.minions[first : first + trials]
    table.ready(pool)
    placed: dict[str, float] = {}
    began = time.monotonic() + 0.05
    for n, uid in enumerate(pool):
        time.sleep(max(0.0, began + n / per_second - time.monotonic()))
        table.antenna.lift()
        placed[uid] = time.monotonic()
        table.antenna.place(table.cards[uid])
    time.sleep(max(0.0, began + len(pool) / per_second - time.monotonic()))
    table.antenna.lift()
    deadline = time.monotonic() + LOST_AFTER
    latencies = []
    for uid, at in placed.items():
        stored = table.stored.wait(uid, max(0.0, deadline - time.monotonic()))
        if stored is not None:
            latencies.append((stored - at) * 1000)
    time.sleep(1.1)  # past the tap filter's windows before these cards come back
    lost = len(pool) - len(latencies)
    p99 = percentile(latencies, 0.99) if latencies else None
    return {
        "per_s": per_second,
        "lost": lost,
        "p50": round(percentile(latencies, 0.5), 1) if latencies else None,
        "p99": round(p99, 1) if p99 is not None else None,
        "ok": lost == 0 and p99 is not None and p99 <= RATE_P99_MS,
    }


def sweep(table: BenchTable) -> list[dict[str, Any]]:
    """Every rate in turn (a rate that fails from one stall of a shared machine does not hide
    the rates above it: the list shows both)."""
    return [rate(table, per_second) for per_second in RATES]


def breakdown(samples: list[tuple[float, float, TapTiming | None]]) -> dict[str, Any] | None:
    """The free-zone time, stage by stage (ms): medians, and means that add up."""
    timed = [(placed, t) for placed, _, t in samples if t is not None]
    if not timed:
        return None
    stages: dict[str, list[float]] = {
        "place_to_activation": [],
        "activation_to_event": [],
        "event_to_tap": [],
        "tap_to_stored": [],
    }
    for placed, t in timed:
        activated = t.activated if t.activated is not None else t.read
        stages["place_to_activation"].append((activated - placed) * 1000)
        stages["activation_to_event"].append((t.read - activated) * 1000)
        stages["event_to_tap"].append((t.tap - t.read) * 1000)
        stages["tap_to_stored"].append((t.stored - t.tap) * 1000)
    totals = [(t.stored - placed) * 1000 for placed, t in timed]
    return {
        "p50": {name: round(percentile(v, 0.5), 2) for name, v in stages.items()},
        "mean": {name: round(statistics.fmean(v), 2) for name, v in stages.items()},
        "sum_of_means": round(sum(statistics.fmean(v) for v in stages.values()), 2),
        "place_to_stored_mean": round(statistics.fmean(totals), 2),
    }


def bench_table() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        table = BenchTable(Path(folder))
        try:
            free = free_zone(table)
            by_gap = {gap: swaps(table, gap) for gap in GAPS_MS}
            tried = sweep(table)
        finally:
            table.close()
    state = [(stored - placed) * 1000 for placed, stored, _ in free]
    ours = [(t.stored - t.activated) * 1000 for _, _, t in free if t and t.activated is not None]
    passing = [r["per_s"] for r in tried if r["ok"]]
    return {
        "sim_place_to_state_ms_p50": round(percentile(state, 0.5), 2),
        "sim_place_to_state_ms_p99": round(percentile(state, 0.99), 2),
        "swap_place_to_state_ms_p50": round(percentile(by_gap[0], 0.5), 2),
        "swap_place_to_state_ms_p99": round(percentile(by_gap[0], 0.99), 2),
        "swap_place_to_state_ms_p99_worst_gap": round(
            max(percentile(v, 0.99) for v in by_gap.values()), 2
        ),
        "swap_place_to_state_ms_by_gap": {
            f"{gap}ms": {"p50": round(percentile(v, 0.5), 1), "p99": round(percentile(v, 0.99), 1)}
            for gap, v in by_gap.items()
        },
        "cards_per_s_one_antenna": max(passing) if passing else 0,
        "cards_per_s_sweep": tried,
        "ours_after_activation_ms_p50": round(percentile(ours, 0.5), 2) if ours else None,
        "ours_after_activation_ms_p99": round(percentile(ours, 0.99), 2) if ours else None,
        "latency_breakdown_ms": breakdown(free),
    }


if __name__ == "__main__":
    print(json.dumps(bench_table(), indent=2))
