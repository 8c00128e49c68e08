"""Load: 20 live-stream clients while 5 zones each take 10 taps a second, through the readers'
interface, the tap filter, the tracker, the SQLite file and the stream (bench/load_bench.py).
The taps' times come from an injected clock, stepped as a real table's would pass, and the taps
go in as fast as the table takes them: a stricter load than the wall-clock pace, with the same
outcome. Nothing may be dropped (every tap is in the log), no client may see versions out of
order or lose its stream, and every client ends on the table's final state. The wall-clock
run's figures (60 s, what was dropped or late, the settle time) are ``make bench``'s."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.load_bench import ZONES, Load, LoadTable
from companion.catalogue.cards import Catalogue

#: 6 s of the table's time, 300 taps: one rotation, every group of cards at every zone
TICKS = 60


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.slow
def test_twenty_clients_five_zones_ten_taps_a_second(tmp_path: Path, catalogue: Catalogue) -> None:
    clock = Clock()
    table = LoadTable(tmp_path / "load.db", catalogue, clock)
    try:
        load = Load(table)
        began = clock.now
        load.play(TICKS, lambda at: setattr(clock, "now", began + at), stepped=True)
        assert load.settle(), "the table did not store and stream every tap within 30 s"

        tapped = load.tapped()
        assert len(tapped) == load.taps == TICKS * len(ZONES), (
            f"{load.taps - len(tapped)} taps were dropped"
        )
        kinds = {e.events[0]["event"] if e.events else None for e in tapped}
        assert kinds <= {"played", "moved", "left"}, kinds  # no prompts: each tap changed the game
        final_version, _ = table.service.snapshot()
        assert final_version >= load.start_version + load.taps
        expected = json.loads(table.dashboard.table.payload()[1])
        for number, client in enumerate(load.clients):
            assert client.error is None or client.stopping.is_set(), (number, client.error)
            assert client.versions == sorted(set(client.versions)), f"client {number} out of order"
            assert client.versions[-1] == final_version, f"client {number} missed the end"
            assert client.last is not None and client.last["state"] == expected["state"]
    finally:
        table.close()
