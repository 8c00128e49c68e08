"""What a quiet table costs: CPU time of the table (reader threads, worker) and, apart, of the
simulated antennas, as a percentage of one core, on five simulated base zones.

* ``idle_cpu_pct_5_zones``: every antenna empty (the readers poll for cards);
* ``resting_cpu_pct_5_zones``: a card resting on every antenna (the readers check presence);
* ``*_simulator``: the simulator's own threads in the same windows (on a real table the
  readers' chips do that work).

Each figure is the median of several windows; the machine is shared, so expect noise.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

from tables import simulated_table

from companion.hardware.config import HardwareConfig, ZoneConfig
from companion.hardware.readers.ntag_sim import NtagCard
from companion.table.config import TableConfig
from companion.table.service import Change, TableService

ZONES = 5
WINDOW = 5.0
WINDOWS = 3


def _threads_cpu(threads: list[threading.Thread]) -> float:
    total = 0.0
    for thread in threads:
        if thread.ident is not None and thread.is_alive():
            total += time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    return total


def _window() -> tuple[float, float]:
    """(table, simulator) CPU over one window, % of one core."""
    simulator = [t for t in threading.enumerate() if t.name.startswith("sim-")]
    process, antennas, wall = time.process_time(), _threads_cpu(simulator), time.monotonic()
    time.sleep(WINDOW)
    wall = time.monotonic() - wall
    antennas = _threads_cpu(simulator) - antennas
    table = time.process_time() - process - antennas
    return table / wall * 100, antennas / wall * 100


def _median_windows() -> tuple[float, float]:
    windows = [_window() for _ in range(WINDOWS)]
    return (
        round(statistics.median(w[0] for w in windows), 2),
        round(statistics.median(w[1] for w in windows), 2),
    )


def _rest_a_card_on_each(service: TableService) -> None:
    live = service.live
    catalogue, tags = live.game.catalogue, live.game.state.header.tags
    bases = [
        uid for uid, b in tags.items() if b.card in catalogue and catalogue[b.card].type == "base"
    ]
    stored = threading.Semaphore(0)

    def heard(change: Change) -> None:
        if any(event.get("event") == "base-entered" for event in change.events):
            stored.release()

    stop = service.listen(heard)
    for n, uid in enumerate(bases[:ZONES], start=1):
        service.context.simulator.zone(f"base-{n}").place(NtagCard.for_card(uid, tags[uid].card))
    for _ in range(ZONES):
        if not stored.acquire(timeout=5):
            raise TimeoutError("a card resting on a zone was not read")
    stop()


def bench_cpu() -> dict[str, float]:
    zones = tuple(ZoneConfig(f"base-{n}", "sim:") for n in range(1, ZONES + 1))
    config = TableConfig(HardwareConfig(zones), name="bench", source="<bench>")
    with tempfile.TemporaryDirectory() as folder:
        service = simulated_table(config, str(Path(folder) / "cpu.db"))
        service.start()
        try:
            time.sleep(1.0)  # readers open and settle
            idle, idle_sim = _median_windows()
            _rest_a_card_on_each(service)
            time.sleep(0.5)
            resting, resting_sim = _median_windows()
        finally:
            service.stop()
            service.store.close()
    return {
        "idle_cpu_pct_5_zones": idle,
        "idle_cpu_pct_5_zones_simulator": idle_sim,
        "resting_cpu_pct_5_zones": resting,
        "resting_cpu_pct_5_zones_simulator": resting_sim,
    }


if __name__ == "__main__":
    print(json.dumps(bench_cpu(), indent=2))
