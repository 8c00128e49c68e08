"""Load: 20 live-stream clients while 5 zones each take 10 taps a second for 60 seconds,
through the readers' interface, the tap filter, the tracker, the SQLite file and the stream.
Nothing may be dropped (every tap is in the log), no client may see versions out of order or
lose its stream, and every client ends on the table's final state."""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.table.virtual import VirtualTable
from tests.browser import LiveTable

SECONDS = float(os.environ.get("COMPANION_LOAD_SECONDS", "60"))
CLIENTS = 20
TAPS_PER_SECOND = 10  # per zone
ON_READER = 0.08  # seconds each card lies on its reader (the tap filter counts from 0.05)
ROTATE = 12  # taps of a group at one zone before it moves on (1.2 s: never a crosstalk)
PLAYERS = {
    "Ann": ["core/dinosaurs", "core/robots"],
    "Ben": ["core/wizards", "core/zombies"],
    "Cat": ["core/pirates", "core/ninjas"],
    "Dan": ["core/aliens", "core/tricksters"],
}
ZONES = ["base-1", "base-2", "base-3", "base-4", "discard"]


class StreamClient(threading.Thread):
    """Reads ``/api/events`` until told to stop, keeping every version it was sent."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        super().__init__(daemon=True)
        self.port = port
        self.source = source  # one loopback address per client, like one device each
        self.versions: list[int] = []
        self.last: dict[str, Any] | None = None
        self.error: str | None = None
        self.stopping = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )
        try:
            connection.request("GET", "/api/events")
            response = connection.getresponse()
            assert response.status == 200
            data: list[str] = []
            kind = ""
            while not self.stopping.is_set():
                line = response.readline()
                if not line:
                    self.error = "the stream ended"
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    data.append(text[6:])
                elif text == "" and data:
                    if kind == "state":  # health events between versions name no new one
                        self.last = json.loads("".join(data))
                        self.versions.append(int(self.last["version"]))
                    data, kind = [], ""
        except Exception as exc:  # reported by the test, with the client's history
            self.error = repr(exc)
        finally:
            connection.close()


def minions(table: LiveTable, catalogue: Catalogue) -> list[str]:
    return [uid for uid, card in table.header["tags"].items() if catalogue[card].type == "minion"]


def test_twenty_clients_five_zones_ten_taps_a_second(tmp_path: Path, catalogue: Catalogue) -> None:
    # mock: readers take each read as it is placed, so this loads the dashboard and the worker,
    # not the readers (bench/table_bench.py measures how many cards a second an nfcpy zone takes)
    table = LiveTable(tmp_path / "load.db", catalogue, zones=4, players=PLAYERS, reader="mock:")
    try:
        run_load(table, catalogue)
    finally:
        table.close()


def run_load(table: LiveTable, catalogue: Catalogue) -> None:
    service = table.service
    bases = [uid for uid, card in table.header["tags"].items() if catalogue[card].type == "base"]
    for zone, uid in zip(ZONES[:4], bases, strict=False):
        service.submit({"tap": uid, "zone": zone})
    pool = minions(table, catalogue)[: ROTATE * len(ZONES)]
    groups = [pool[g * ROTATE : (g + 1) * ROTATE] for g in range(len(ZONES))]
    for g, group in enumerate(groups):  # every card starts in play, so each tap changes it
        for uid in group:
            service.submit({"tap": uid, "zone": ZONES[(g + 1) % 4]})
    clients = [StreamClient(table.port, f"127.0.0.{n + 2}") for n in range(CLIENTS)]
    for client in clients:
        client.start()
    start_version = service.version
    start_lines = table.store.log.last_seq(table.live.game_id)

    board = VirtualTable(service)
    ticks = int(SECONDS * TAPS_PER_SECOND)
    began = time.monotonic()
    for tick in range(ticks):
        due = began + tick / TAPS_PER_SECOND
        time.sleep(max(0.0, due - time.monotonic()))
        placed: dict[str, float] = {}
        for z, zone in enumerate(ZONES):
            group = groups[(z - tick // ROTATE) % len(ZONES)]
            board.place(zone, group[tick % ROTATE])
            placed[zone] = time.monotonic()
        for zone in ZONES:  # each card lies its time however slowly the others were placed
            time.sleep(max(0.0, placed[zone] + ON_READER - time.monotonic()))
            board.lift(zone)
    taps = ticks * len(ZONES)

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        lines = table.store.log.last_seq(table.live.game_id) - start_lines
        final = service.version
        if lines >= taps and all(c.versions and c.versions[-1] == final for c in clients):
            break
        time.sleep(0.1)
    for client in clients:
        client.stopping.set()

    entries = table.store.log.entries(table.live.game_id)[start_lines:]
    tapped = [e for e in entries if "tap" in e.line]
    assert len(tapped) == taps, f"{taps - len(tapped)} taps were dropped"
    kinds = {e.events[0]["event"] if e.events else None for e in tapped}
    assert kinds <= {"played", "moved", "left"}, kinds  # no prompts: each tap changed the game
    final_version, _ = service.snapshot()
    assert final_version >= start_version + taps
    expected = json.loads(table.dashboard.table.payload()[1])  # type: ignore[union-attr]
    for number, client in enumerate(clients):
        assert client.error is None or client.stopping.is_set(), (number, client.error)
        assert client.versions == sorted(set(client.versions)), f"client {number} out of order"
        assert client.versions[-1] == final_version, f"client {number} missed the end"
        assert client.last is not None and client.last["state"] == expected["state"]
