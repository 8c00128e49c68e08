"""Load: 20 live-stream clients while 5 zones each take 10 taps a second for 60 seconds, through
the readers' interface (mock readers: this loads the dashboard and the worker, not nfcpy), the
tap filter, the tracker, the SQLite file and the stream, on a real dashboard (waitress).

``bench_load`` paces the taps on the wall clock and reports what it measured: taps dropped,
clients that saw versions out of order or missed the end, how long the table took to settle
after the last tap, and the states each client was sent. tests/test_web_load.py drives the same
taps on an injected clock, as fast as the table takes them, and asserts the behaviour.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.simulation.plausible import make_header
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.table.virtual import VirtualTable
from companion.web.server import Dashboard

SECONDS = 60.0
CLIENTS = 20
TAPS_PER_SECOND = 10  # per zone
ON_READER = 0.08  # seconds each card lies on its reader (the tap filter counts from 0.05)
ROTATE = 12  # taps of a group at one zone before it moves on (1.2 s: never a crosstalk)
SETTLE_SECONDS = 30.0  # the most the table may take to store and stream the last taps
PLAYERS = {
    "Ann": ["core/dinosaurs", "core/robots"],
    "Ben": ["core/wizards", "core/zombies"],
    "Cat": ["core/pirates", "core/ninjas"],
    "Dan": ["core/aliens", "core/tricksters"],
}
ZONES = ["base-1", "base-2", "base-3", "base-4", "discard"]
TOKEN = "load-token"


class StreamClient(threading.Thread):
    """Reads ``/api/events`` until told to stop, keeping every version it was sent; each state
    received notifies ``arrived``."""

    def __init__(self, port: int, arrived: threading.Condition, source: str) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.arrived = arrived
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
                        self._received(json.loads("".join(data)))
                    data, kind = [], ""
        except Exception as exc:  # reported with the client's history
            self.error = repr(exc)
        finally:
            connection.close()
            with self.arrived:
                self.arrived.notify_all()

    def _received(self, state: dict[str, Any]) -> None:
        with self.arrived:
            self.last = state
            self.versions.append(int(state["version"]))
            self.arrived.notify_all()


class LoadTable:
    """A table of four players on mock readers with its dashboard served on a free port."""

    def __init__(self, db: Path, catalogue: Catalogue, clock: Callable[[], float]) -> None:
        self.catalogue = catalogue
        self.store = EventStore.open(db)
        self.header = make_header(list(PLAYERS), PLAYERS, catalogue, 4)
        self.live = LiveGame.start(self.store, self.header, catalogue)
        self.service = TableService(self.live, dict.fromkeys(ZONES, "mock:"), clock=clock)
        self.service.start()
        self.dashboard = Dashboard(
            self.service, host="127.0.0.1", port=0, token=TOKEN, simulated=True
        )
        self.thread = threading.Thread(target=self.dashboard.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.dashboard.stop()
        self.dashboard.close()
        self.thread.join(5)
        self.service.stop()
        self.store.close()

    def uids(self, kind: str) -> list[str]:
        tags = self.header["tags"].items()
        return [uid for uid, card in tags if self.catalogue[card].type == kind]


class Load:
    """One run: the table set up with every card in play, ``clients`` streams reading."""

    def __init__(self, table: LoadTable, clients: int = CLIENTS) -> None:
        self.table = table
        service = table.service
        for zone, uid in zip(ZONES[:4], table.uids("base"), strict=False):
            service.submit({"tap": uid, "zone": zone})
        pool = table.uids("minion")[: ROTATE * len(ZONES)]
        self.groups = [pool[g * ROTATE : (g + 1) * ROTATE] for g in range(len(ZONES))]
        for g, group in enumerate(self.groups):  # every card starts in play: each tap changes it
            for uid in group:
                service.submit({"tap": uid, "zone": ZONES[(g + 1) % 4]})
        self.arrived = threading.Condition()
        port = table.dashboard.port
        self.clients = [
            StreamClient(port, self.arrived, f"127.0.0.{n + 2}") for n in range(clients)
        ]
        for client in self.clients:
            client.start()
        self.start_version = service.version
        self.start_lines = table.store.log.last_seq(table.live.game_id)
        self.taps = 0
        self.unlisten = service.listen(self._changed)

    def _changed(self, _change: object) -> None:
        with self.arrived:
            self.arrived.notify_all()

    def play(self, ticks: int, wait_until: Callable[[float], None], *, stepped: bool) -> None:
        """``ticks`` rounds of a tap on every zone, a tick every 1/TAPS_PER_SECOND s;
        ``wait_until(t)`` brings the time to ``t`` seconds into the run: a sleep on the wall
        clock, or (``stepped``) a step of the table's injected clock, taken once the table has
        stored the taps so far: its clock never runs ahead of the reads it has yet to take, as
        a real clock cannot."""
        board = VirtualTable(self.table.service)
        for tick in range(ticks):
            at = tick / TAPS_PER_SECOND
            wait_until(at)
            for z, zone in enumerate(ZONES):
                group = self.groups[(z - tick // ROTATE) % len(ZONES)]
                board.place(zone, group[tick % ROTATE])
            self.taps += len(ZONES)
            if stepped and not self.stored(self.taps):
                raise TimeoutError(f"the table did not store tap {self.taps} within 30 s")
            # each card lies its time (the wall-clock run: however slowly the others were put)
            wait_until(at + ON_READER)
            for zone in ZONES:
                board.lift(zone)

    def stored(self, taps: int, timeout: float = SETTLE_SECONDS) -> bool:
        """Wait (woken by each stored line) until ``taps`` taps of the run are stored."""
        table = self.table

        def done() -> bool:
            return table.store.log.last_seq(table.live.game_id) - self.start_lines >= taps

        with self.arrived:
            return self.arrived.wait_for(done, timeout)

    def settled(self) -> bool:
        """Every tap stored and every client on the final version (or failed)."""
        table = self.table
        stored = table.store.log.last_seq(table.live.game_id) - self.start_lines
        final = table.service.version
        return stored >= self.taps and all(
            c.error is not None or (c.versions and c.versions[-1] == final) for c in self.clients
        )

    def settle(self, timeout: float = SETTLE_SECONDS) -> bool:
        """Wait (woken by each stored line and each state a client receives) until settled."""
        with self.arrived:
            done = self.arrived.wait_for(self.settled, timeout)
        self.unlisten()
        for client in self.clients:
            client.stopping.set()
        return done

    def tapped(self) -> list[Any]:
        """The stored lines of the run's taps."""
        table = self.table
        entries = table.store.log.entries(table.live.game_id)[self.start_lines :]
        return [e for e in entries if "tap" in e.line]


def bench_load(seconds: float = SECONDS, clients: int = CLIENTS) -> dict[str, Any]:
    """The load on the wall clock: what was dropped, out of order or late, and the settle."""
    with tempfile.TemporaryDirectory() as folder:
        table = LoadTable(Path(folder) / "load.db", load_catalogue(), time.monotonic)
        try:
            load = Load(table, clients)
            began = time.monotonic()
            load.play(
                int(seconds * TAPS_PER_SECOND),
                lambda at: time.sleep(max(0.0, began + at - time.monotonic())),
                stepped=False,
            )
            played = time.monotonic()
            settled = load.settle()
            settle_s = time.monotonic() - played
            final = table.service.version
            stored = len(load.tapped())
            sent = [len(c.versions) for c in load.clients]
            return {
                "load_seconds": round(played - began, 1),
                "load_stream_clients": clients,
                "load_taps": load.taps,
                "load_taps_dropped": load.taps - stored,
                "load_taps_per_s": round(stored / (played - began), 1),
                "load_settled": settled,
                "load_settle_s": round(settle_s, 2),
                "load_clients_out_of_order": sum(
                    c.versions != sorted(set(c.versions)) for c in load.clients
                ),
                "load_clients_missing_the_end": sum(
                    not c.versions or c.versions[-1] != final for c in load.clients
                ),
                "load_clients_failed": sum(c.error is not None for c in load.clients),
                "load_versions": final - load.start_version,
                "load_states_sent_per_client_median": statistics.median(sent),
            }
        finally:
            table.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    args = parser.parse_args()
    print(json.dumps(bench_load(args.seconds), indent=2))


if __name__ == "__main__":
    main()
