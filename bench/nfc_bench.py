"""Reader benchmarks on the simulated NFC table (real nfcpy threads, UDP transport), the
readers alone (the whole table is bench/table_bench.py):

* ``sim_place_to_event_ms``: a card placed on a free antenna, at a random moment, to its read
  at the sink, with five zones polling;
* ``removal_detect_ms``: a card lifted to its departure at the sink;
* ``reader_overhead_ms``: the reader's own time after nfcpy's activation (NDEF read, hand-over);
* ``nfcpy_activation_ms_p50``: nfcpy's own sense and activation of the same tag, measured in
  the same run on a spare antenna: the baseline our software adds to;
* ``zones_1_vs_5_detect_ratio``: median detection with five zones polling over one zone.
"""

from __future__ import annotations

import json
import queue
import random
import statistics
import time

import nfc
from stats import percentile

from companion.hardware.readers.base import TagRead
from companion.hardware.readers.nfc_zone import NfcZoneReader
from companion.hardware.readers.ntag_sim import NtagCard, Simulator

SAMPLES = 60


def _next(reads: queue.Queue[TagRead], kind: str) -> TagRead:
    while (read := reads.get(timeout=5)).kind != kind:
        pass
    return read


def _detect(zones: int) -> tuple[list[float], list[float], list[float]]:
    """Place-to-read and lift-to-departure times (ms) on zone 1 while ``zones`` zones poll,
    and the reader's own time after each activation."""
    simulator = Simulator()
    reads: queue.Queue[TagRead] = queue.Queue()
    readers = []
    for n in range(zones):
        antenna = simulator.add_zone(f"base-{n + 1}")
        readers.append(NfcZoneReader(antenna.name, reads.put, time.monotonic, path=antenna.path))
    for reader in readers:
        reader.start()
    time.sleep(0.3)
    antenna, placing, lifting, ours = simulator.zone("base-1"), [], [], []
    card = NtagCard.for_card("04A1B2C3D4E5F6", "munchkin/sword-lord")
    for _ in range(SAMPLES):
        time.sleep(random.uniform(0.05, 0.15))  # a random phase against the polls
        started = time.monotonic()
        antenna.place(card)
        read = _next(reads, "arrived")
        placing.append((read.at - started) * 1000)
        activated = getattr(read, "activated", None)  # (readers before it had none)
        if activated is not None:
            ours.append((read.at - activated) * 1000)
        time.sleep(random.uniform(0.05, 0.15))
        lifted = time.monotonic()
        antenna.lift()
        lifting.append((_next(reads, "left").at - lifted) * 1000)
    for reader in readers:
        reader.stop()
    simulator.close()
    return placing, lifting, ours


def _activation() -> list[float]:
    """nfcpy's own sense + activation (ms), the baseline."""
    simulator = Simulator()
    antenna = simulator.add_zone("spare")
    antenna.place(NtagCard.for_card("04A1B2C3D4E5F7", "munchkin/sword-lord"))
    clf = nfc.ContactlessFrontend(antenna.path)
    times = []
    for _ in range(SAMPLES):
        started = time.monotonic()
        target = clf.sense(nfc.clf.RemoteTarget("106A"), iterations=1, interval=0.01)
        tag = nfc.tag.activate(clf, target) if target is not None else None
        if tag is not None:
            times.append((time.monotonic() - started) * 1000)
        clf.device.mute()
    clf.close()
    simulator.close()
    return times


def bench_nfc() -> dict[str, float | None]:
    five, removal, ours = _detect(5)
    one, _, _ = _detect(1)
    activation = _activation()
    return {
        "sim_place_to_event_ms_p50": round(percentile(five, 0.5), 2),
        "sim_place_to_event_ms_p99": round(percentile(five, 0.99), 2),
        "removal_detect_ms_p50": round(percentile(removal, 0.5), 2),
        "removal_detect_ms_p99": round(percentile(removal, 0.99), 2),
        "nfcpy_activation_ms_p50": round(statistics.median(activation), 2),
        "reader_overhead_ms_p50": round(percentile(ours, 0.5), 2) if ours else None,
        "reader_overhead_ms_p99": round(percentile(ours, 0.99), 2) if ours else None,
        "zones_1_vs_5_detect_ratio": round(statistics.median(five) / statistics.median(one), 3),
    }


if __name__ == "__main__":
    print(json.dumps(bench_nfc(), indent=2))
