"""The running table with mock readers: reads become taps, stored, announced, versioned.

The table runs no worker thread: a test reports reads (mock readers report in its thread) and
calls ``step()``, on a clock it owns.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected
from companion.hardware.feedback import FeedbackView
from companion.hardware.readers.base import TagRead
from companion.hardware.readers.mock import MockReader
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import Change, TableService
from tests.tapes import HEADER


class Recorder:
    """A TableFeedback that remembers what it was asked to do."""

    buttons = frozenset({"end-turn", "undo"})

    def __init__(self) -> None:
        self.sounds: list[str] = []
        self.shown = 0
        self.blinking: list[bool] = []
        self.on_end_turn: Callable[[], None] | None = None
        self.on_end_turn_held: Callable[[], bool] | None = None
        self.on_undo: Callable[[], None] | None = None

    def accepted(self) -> None:
        self.sounds.append("accepted")

    def ignored(self) -> None:
        self.sounds.append("ignored")

    def failed(self) -> None:
        self.sounds.append("failed")

    def show(self, view: FeedbackView) -> None:
        self.shown += 1

    def pairing(self, waiting: bool, code: tuple[int, ...] = ()) -> None:
        self.blinking.append(waiting)

    def paired(self) -> None:
        self.sounds.append("paired")

    def close(self) -> None: ...


class Clock:
    """The table's clock, moved by the test; each look at it moves it on by ``tick`` (so the
    stages of one tap have times in the order they happened)."""

    def __init__(self, tick: float = 0.0) -> None:
        self.now = 1000.0
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


@pytest.fixture
def table(catalogue: Catalogue) -> Iterator[tuple[TableService, Recorder, EventStore]]:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    recorder = Recorder()
    zones = {z: "mock:" for z in HEADER["zones"]}
    service = TableService(
        live, zones, clock=Clock(tick=0.001), feedback=recorder, worker_thread=False
    )
    service.start()
    yield service, recorder, store
    service.stop()
    store.close()


def reader(service: TableService, zone: str) -> MockReader:
    found = service.readers[zone]
    assert isinstance(found, MockReader)
    return found


def test_placing_cards_plays_them_and_stores_every_read(table: Any) -> None:
    service, recorder, store = table
    reader(service, "base-1").place("B1")
    service.step()
    assert [base["card"] for base in service.document()["bases"]] == ["munchkin/treehouse"]
    reader(service, "base-1").place("TC")
    service.step()
    assert service.document()["bases"][0]["power"] == {"Ann": 5}
    assert recorder.sounds == ["accepted", "accepted"]
    kinds = [row[0] for row in store.db.execute("SELECT kind FROM reads ORDER BY id")]
    assert kinds == ["arrived", "left", "arrived"]
    assert [line["tap"] for line in store.log.lines(service.live.game_id)] == ["B1", "TC"]


def test_each_tap_keeps_its_stage_times_in_order(table: Any) -> None:
    service, _, _ = table
    clock = service.clock
    heard: list[float] = []
    service.listen(lambda change: heard.append(clock()))
    now = clock()
    service.feed(TagRead("base-1", "B1", "arrived", now, None, now - 0.01))
    service.step()
    (timing,) = service.timings
    assert (timing.zone, timing.uid, timing.activated, timing.read) == (
        "base-1",
        "B1",
        now - 0.01,
        now,
    )
    assert timing.read < timing.tap < heard[-1] < timing.stored  # listeners hear it first
    reader(service, "base-1").place("TC")  # a mock reader: no activation time
    service.step()
    assert len(service.timings) == 2
    assert (service.timings[1].uid, service.timings[1].activated) == ("TC", None)


def test_a_flapping_card_is_one_tap(table: Any) -> None:
    service, recorder, _ = table
    base = reader(service, "base-1")
    base.place("B1")
    service.step()
    assert service.document()["bases"]
    for _ in range(20):  # one burst, taken by one step
        base.place("TC")
        base.lift()
    base.place("TC")
    service.step()
    assert [m["tag"] for m in service.document()["bases"][0]["minions"]] == ["TC"]
    assert service.document()["prompts"] == []
    assert recorder.sounds == ["accepted", "accepted"]  # B1, then TC once


def test_a_card_that_brushed_a_zone_on_its_way_is_one_play_where_it_rests(table: Any) -> None:
    """It counts at its first read (base-1), then rests on base-2: the same play, moved."""
    service, recorder, store = table
    reader(service, "base-1").place("B1")
    reader(service, "base-2").place("B2")
    service.step()
    assert len(service.document()["bases"]) == 2
    now = service.clock()
    service.feed(TagRead("base-1", "TC", "arrived", now))
    service.feed(TagRead("base-1", "TC", "left", now + 0.03))
    service.feed(TagRead("base-2", "TC", "arrived", now + 0.04))
    service.step()
    lines = store.log.lines(service.live.game_id)
    assert [line.get("tap") or line["input"] for line in lines] == ["B1", "B2", "TC", "tap-moved"]
    assert (lines[3]["tag"], lines[3]["from"], lines[3]["zone"]) == ("TC", "base-1", "base-2")
    minions = {b["zone"]: [m["tag"] for m in b["minions"]] for b in service.document()["bases"]}
    assert minions == {"base-1": [], "base-2": ["TC"]}
    assert service.live.game.state.minions_played == 1  # never a second play
    assert recorder.sounds == ["accepted"] * 3  # the correction is silent


def test_unknown_tag_prompts_and_sounds_different(table: Any) -> None:
    service, recorder, _ = table
    reader(service, "base-2").place("DEADBEEF")
    service.step()
    assert [p["kind"] for p in service.document()["prompts"]] == ["unknown-tag"]
    assert recorder.sounds == ["ignored"]


def test_stale_versions_are_refused_once(table: Any) -> None:
    service, _, _ = table
    reader(service, "base-1").place("B1")
    service.step()
    seen = service.version
    assert seen == 1
    results: list[str] = []

    def press() -> None:
        try:
            service.submit({"input": "end-turn"}, seen_version=seen)
            results.append("ok")
        except Rejected as exc:
            results.append(str(exc))

    presses = [threading.Thread(target=press) for _ in range(2)]
    for thread in presses:
        thread.start()
    for thread in presses:
        thread.join()
    assert results.count("ok") == 1
    assert any("changed since you looked" in r for r in results)
    assert service.document()["current_player"] == "Ben"


def test_listeners_hear_each_change_in_order(table: Any) -> None:
    service, _, _ = table
    heard: list[Change] = []
    stop = service.listen(heard.append)
    service.submit({"tap": "B1", "zone": "base-1"})
    service.submit({"tap": "TC", "zone": "base-1"})
    stop()
    service.submit({"input": "end-turn"})
    assert [c.version for c in heard] == [1, 2]
    assert heard[1].events[0]["event"] == "played"


def test_ndef_card_id_binds_an_unknown_tag(table: Any) -> None:
    service, _, store = table
    reader(service, "base-1").place("B1")
    service.step()
    reader(service, "base-1").place("04FFEE", card="munchkin/sword-lord")
    service.step()
    minions = service.document()["bases"][0]["minions"]
    assert [minion["card"] for minion in minions] == ["munchkin/sword-lord"]
    assert store.bindings.get("04FFEE").card == "munchkin/sword-lord"


def test_bulk_enrolment_at_a_zone_binds_instead_of_playing(table: Any) -> None:
    service, recorder, store = table
    service.start_enrolment("base-3", "core/dinosaurs", owner="Ann")
    reader(service, "base-3").place("04E001")
    service.step()
    assert store.bindings.get("04E001").card == "core/king-rex"
    reader(service, "base-3").place("TC")  # already bound: named, not rebound
    service.step()
    assert len(service.enrolment_messages) == 3
    assert "already Topper Chopper" in service.enrolment_messages[-1]
    assert "not rebound" in service.enrolment_messages[-1]
    assert service.live.game.state.header.tags["04E001"].card == "core/king-rex"
    assert service.document()["bases"] == []
    service.stop_enrolment()
