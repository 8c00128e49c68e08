"""What an empty antenna's poll period buys and costs (``presence.EMPTY_PERIOD``): on a table
whose ``sim:`` zones are emulated PN532s at ``pi-uart-921600`` (nfcpy's own ``pn532`` driver),
for each period, a card put on a free zone to its tap stored (p50, p99) and the table's CPU
while every antenna is empty, the emulator's threads excluded (as ``cpu_bench.py``: on a real
table the chips do that work).

``empty_period_bench.py [seconds ...]`` (0 polls continuously); the default sweep is 50, 25 and
15 ms and continuous. Samples are few (about 20 s a period): the machine is shared, so compare
medians of a few runs.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

from cpu_bench import _window
from stats import percentile
from table_bench import BenchTable, free_zone

from companion.hardware.config import HardwareConfig, ZoneConfig
from companion.hardware.readers import nfc_zone
from companion.hardware.readers.presence import Presence
from companion.table.config import TableConfig

PROFILE = "pi-uart-921600"
PERIODS = (0.05, 0.025, 0.015, 0.0)
SAMPLES = 10
CPU_WINDOWS = 2


def bench_period(period: float) -> dict[str, Any]:
    """One table whose readers poll an empty antenna every ``period`` seconds."""
    simulated = TableConfig.simulated(5)
    # "#poll": the period poll this bench is about (by default an empty PN532 waits itself)
    zones = tuple(ZoneConfig(z.name, f"sim:{PROFILE}#poll") for z in simulated.hardware.zones)
    presence = partial(Presence, empty_period=period)
    with mock.patch.object(nfc_zone, "Presence", presence), tempfile.TemporaryDirectory() as folder:
        table = BenchTable(Path(folder), replace(simulated, hardware=HardwareConfig(zones)))
        try:
            table.antenna.lift()
            time.sleep(1.0)  # readers open and settle
            windows = [_window() for _ in range(CPU_WINDOWS)]
            samples = free_zone(table, SAMPLES)
        finally:
            table.close()
    stored = [(at - placed) * 1000 for placed, at, _ in samples]
    return {
        "empty_period_ms": round(period * 1000, 1),
        "zones": len(zones),
        "place_to_stored_ms_p50": round(percentile(stored, 0.5), 2),
        "place_to_stored_ms_p99": round(percentile(stored, 0.99), 2),
        "idle_cpu_pct_table": round(statistics.median(w[0] for w in windows), 2),
        "idle_cpu_pct_simulator": round(statistics.median(w[1] for w in windows), 2),
    }


if __name__ == "__main__":
    periods = tuple(float(arg) for arg in sys.argv[1:]) or PERIODS
    print(json.dumps([bench_period(period) for period in periods], indent=2))
