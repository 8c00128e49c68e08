"""Reader benchmarks on the simulated NFC table (real nfcpy threads, UDP transport).

* ``sim_place_to_event_ms``: a card placed on a simulated antenna to its read at the sink;
* ``sim_place_to_state_ms``: to the stored, updated game state (tap filter, tracker, SQLite);
* ``nfcpy_activation_ms_p50``: nfcpy's own sense and activation of the same tag, measured in
  the same run on a spare antenna: the baseline our software adds to;
* ``zones_1_vs_5_detect_ratio``: median detection with five zones polling over one zone.
"""

from __future__ import annotations

import queue
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import nfc
from stats import percentile

from companion.cli.table import open_table
from companion.hardware.config import TableConfig
from companion.hardware.readers.base import TagRead
from companion.hardware.readers.nfc_zone import NfcZoneReader
from companion.hardware.readers.ntag_sim import NtagCard, Simulator
from companion.storage.session import LiveGame
from companion.table.games import DEMO_PLAYERS, game_header, simulated_tags

SAMPLES = 60


def _detect(zones: int) -> tuple[list[float], list[float]]:
    """Place-to-read times (ms) on zone 1 while ``zones`` zones poll, and our own time in
    each activation (nfcpy's tag handed over to the read delivered, NDEF read included)."""
    simulator = Simulator()
    reads: queue.Queue[TagRead] = queue.Queue()
    readers = []
    for n in range(zones):
        antenna = simulator.add_zone(f"base-{n + 1}")
        readers.append(NfcZoneReader(antenna.name, reads.put, time.monotonic, path=antenna.path))
    for reader in readers:
        reader.start()
    time.sleep(0.3)
    antenna, times = simulator.zone("base-1"), []
    card = NtagCard.for_card("04A1B2C3D4E5F6", "munchkin/sword-lord")
    for _ in range(SAMPLES):
        started = time.monotonic()
        antenna.place(card)
        read = reads.get(timeout=5)
        times.append((read.at - started) * 1000)
        antenna.lift()
        while reads.get(timeout=5).kind != "left":
            pass
    for reader in readers:
        reader.stop()
    simulator.close()
    return times, list(readers[0].connect_ms)


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


def _place_to_state() -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        service = open_table(TableConfig.simulated(), str(Path(folder) / "b.db"))
        header = game_header(DEMO_PLAYERS, list(service.readers), service.store, service.catalogue)
        header = simulated_tags(header, DEMO_PLAYERS, service.catalogue)
        service.replace_game(LiveGame.start(service.store, header, service.catalogue))
        service.start()
        simulator = service.context.simulator
        simulator.zone("base-1").place(NtagCard.for_card("04B0000000B001", "munchkin/treehouse"))
        _wait(lambda: bool(service.document()["bases"]))
        simulator.zone("base-1").lift()
        time.sleep(0.6)
        times = []
        for n in range(SAMPLES):
            card = NtagCard.for_card(f"04C00000000{n:03X}", "munchkin/sword-lord")
            count = len(service.document()["bases"][0]["minions"])
            started = time.monotonic()
            simulator.zone("base-1").place(card)
            _wait(lambda c=count: len(service.document()["bases"][0]["minions"]) > c)
            times.append((time.monotonic() - started) * 1000)
            simulator.zone("base-1").lift()
            time.sleep(0.6)  # nfcpy notices a removal within ~0.4 s: before the next card
        service.stop()
        service.store.close()
        return times


def _wait(check: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the state did not change in time")
        time.sleep(0.001)


def bench_nfc() -> dict[str, float]:
    five, ours = _detect(5)
    one, _ = _detect(1)
    activation = _activation()
    state = _place_to_state()
    baseline = statistics.median(activation)
    return {
        "sim_place_to_event_ms_p50": round(percentile(five, 0.5), 2),
        "sim_place_to_event_ms_p99": round(percentile(five, 0.99), 2),
        "sim_place_to_state_ms_p50": round(percentile(state, 0.5), 2),
        "sim_place_to_state_ms_p99": round(percentile(state, 0.99), 2),
        "nfcpy_activation_ms_p50": round(baseline, 2),
        "reader_overhead_ms_p50": round(percentile(ours, 0.5), 2),
        "reader_overhead_ms_p99": round(percentile(ours, 0.99), 2),
        "zones_1_vs_5_detect_ratio": round(statistics.median(five) / statistics.median(one), 3),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(bench_nfc(), indent=2))
