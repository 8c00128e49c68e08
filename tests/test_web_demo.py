"""The self-playing demo through the virtual table, and the server around the app."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.catalogue.cards import Catalogue
from companion.storage.store import EventStore
from companion.table.demo import DemoPlayer, demo_header
from companion.table.live import LiveGame
from companion.table.network import TableAddress
from companion.table.service import TableService
from companion.web import mdns
from companion.web.server import Dashboard
from tests.conftest import TOKEN
from tests.test_service import Clock
from tests.waiting import eventually


@pytest.fixture
def demo_table(catalogue: Catalogue) -> Iterator[TableService]:
    """A demo game on mock zones, on a clock the demo moves, with no worker thread: the
    demo's waits move the clock and step the table (:func:`paced_demo`)."""
    store = EventStore.memory()
    header = demo_header(catalogue, zones=3)
    live = LiveGame.start(store, header, catalogue)
    service = TableService(
        live, {z: "mock:" for z in header["zones"]}, clock=Clock(), worker_thread=False
    )
    service.start()
    yield service
    service.stop()
    store.close()


def paced_demo(service: TableService) -> DemoPlayer:
    """The demo at its human pace in the table's time, which passes only as it waits: each
    wait moves the clock on and steps the table (its thread is the only one stepping it)."""
    clock = service.clock
    assert isinstance(clock, Clock)

    def wait(seconds: float) -> None:
        clock.now += seconds
        service.step()

    return DemoPlayer(service, rng=random.Random(7), sleep=wait, clock=clock)


class Gate(threading.Event):
    """The demo's pause (set: playing), saying when the demo thread stopped at it."""

    def __init__(self) -> None:
        super().__init__()
        self.set()
        self.stopped = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        if not self.is_set():
            self.stopped.set()
        return super().wait(timeout)


def test_the_demo_plays_through_the_readers_and_pauses(demo_table: TableService) -> None:
    demo = paced_demo(demo_table)
    gate = demo._running = Gate()
    demo.start()
    try:
        eventually(lambda: demo.steps >= 25, timeout=10, what="the demo thread playing 25 lines")
        demo.pause()
        eventually(gate.stopped.is_set, what="the paused demo thread stopping at its gate")
        paused_at = demo.steps  # parked at the gate: no line is played until it opens
        assert demo.status()["paused"] is True and not demo.finished
        demo.resume()
        eventually(
            lambda: demo.steps > paused_at + 5, timeout=10, what="the demo playing on, resumed"
        )
    finally:
        demo.stop()
    log = demo_table.live.store.log.entries(demo_table.live.game_id)
    entered = [e for entry in log for e in entry.events if e["event"] == "base-entered"]
    assert len(entered) >= 3 and all("tap" in entry.line for entry in log[:3])  # through taps
    kinds = {row[0] for row in demo_table.live.store.db.execute("SELECT kind FROM reads")}
    assert {"arrived", "left"} <= kinds
    assert not demo.status()["playing"]


def test_the_demo_answers_its_own_prompts_and_deals(demo_table: TableService) -> None:
    demo = DemoPlayer(demo_table, rng=random.Random(11), direct=True)
    answered = dealt = 0
    for line in demo.lines():
        if line.get("input") == "end-turn":  # a table answers before it ends the turn
            state = demo_table.live.game.state
            assert state.prompts == () and state.deals == ()
        demo.play(line)
        answered += line.get("input") == "answer"
        dealt += line.get("input") == "dealt"
    state = demo_table.live.game.state
    assert state.table.winners and state.prompts == () and state.deals == ()
    assert answered and dealt  # the Munchkin demo factions draw treasures


def test_the_demo_stops_when_another_game_starts(
    demo_table: TableService, catalogue: Catalogue
) -> None:
    demo = paced_demo(demo_table)
    demo.start()
    eventually(lambda: demo.steps >= 3, timeout=10, what="the demo thread playing 3 lines")
    header = demo_header(catalogue, zones=2)
    demo_table.replace_game(LiveGame.start(demo_table.live.store, header, catalogue))
    assert demo._thread is not None
    demo._thread.join(timeout=5)
    assert not demo._thread.is_alive()
    demo.stop()


def test_the_dashboard_serves_and_stops(service: TableService) -> None:
    dashboard = Dashboard(service, host="127.0.0.1", port=0, token=TOKEN, simulated=False)
    assert dashboard.announcer is None  # never announced on loopback
    thread = threading.Thread(target=dashboard.serve_forever, daemon=True)
    thread.start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", dashboard.port, timeout=5)
        connection.request("GET", "/api/state")
        assert json.loads(connection.getresponse().read())["version"] == 0
        connection.close()
    finally:
        dashboard.shutdown()
        thread.join(timeout=5)
        dashboard.close()
    assert dashboard.table.closed.is_set()


def test_mdns_failure_is_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("no multicast here")

    monkeypatch.setattr(mdns, "Zeroconf", broken)
    address = TableAddress(bind="0.0.0.0", port=8000, name="table.local", address="192.0.2.7")
    assert mdns.announce(address) is None
    assert mdns.announce(replace(address, address=None)) is None


def test_a_demo_started_again_on_its_game_plays_on_from_where_it_stood(
    catalogue: Catalogue,
) -> None:
    store = EventStore.memory()
    live = LiveGame.start(store, demo_header(catalogue, zones=3), catalogue)
    service = TableService(
        live, {z: "mock:" for z in live.game.state.header.zones}, clock=time.monotonic
    )
    first = DemoPlayer(service, direct=True)
    whole = list(first.lines())  # the game's own plan: the same on every start
    assert whole == list(DemoPlayer(service, direct=True).lines())
    for line in whole[:30]:
        first.play(line)
    played = len(store.log.lines(live.game_id))
    assert played >= 25
    resumed = LiveGame.resume(store, live.game_id, catalogue)
    again = DemoPlayer(TableService(resumed, {}, clock=time.monotonic), direct=True)
    rest = list(again.lines())
    assert rest == whole[len(whole) - len(rest) :] and len(rest) <= len(whole) - played
    store.close()
