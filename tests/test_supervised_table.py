"""The table survives: a failed store write waits and is retried (nothing acknowledged that was
not stored, nothing stored twice), a failing store is reported (health, the dashboard, the error
sound), and no exception in handling one read or listener stops the table (issue 15, 1).

The worker is stepped on a clock the test moves: a retry's back-off passes by moving it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlite_utils import Database

from companion.catalogue.cards import Catalogue
from companion.errors import StoreError
from companion.hardware.feedback import FeedbackView
from companion.hardware.readers.base import TagRead
from companion.hardware.readers.taps import Output, TapFilter
from companion.storage.log import GameLog
from companion.storage.records import Entry, Locked
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import Change, TableService
from companion.web.app import create_app
from tests.conftest import AUTH, TOKEN
from tests.tapes import HEADER
from tests.test_service import Clock, Recorder, reader


class FlakyStore(EventStore):
    """A real store in front of which writes fail as a full or broken disk makes them fail:
    the next ``fail_next`` writes, and every write while ``down`` is set."""

    fail_next = 0
    down = threading.Event()
    failed = 0

    def __init__(self, db: Database, *, name: str, clock: Callable[[], float]) -> None:
        super().__init__(db, name=name, clock=clock)
        self.log = FaultyLog(self._fault, self._locked, name=name, clock=clock)

    def _fault(self) -> None:
        if self.fail_next > 0 or self.down.is_set():
            self.fail_next = max(0, self.fail_next - 1)
            self.failed += 1
            raise StoreError(f"{self.name}: the store failed (disk I/O error)")


class FaultyLog(GameLog):
    """The store's real game log, whose writes first ask ``fault`` (which may raise)."""

    def __init__(
        self, fault: Callable[[], None], locked: Locked, *, name: str, clock: Callable[[], float]
    ) -> None:
        super().__init__(locked, name=name, clock=clock)
        self._fault = fault

    def append_read(
        self, zone: str, uid: str, kind: str, at: float, detail: dict[str, Any] | None = None
    ) -> None:
        self._fault()
        super().append_read(zone, uid, kind, at, detail)

    def append_many(self, game_id: int, entries: Iterable[Entry]) -> int:
        self._fault()
        return super().append_many(game_id, entries)


class Faulty(TapFilter):
    """A tap filter with a bug that only the tag ``BAD`` reaches."""

    def feed(self, read: TagRead) -> list[Output]:
        if read.uid == "BAD":
            raise RuntimeError("a bug in the tap filter")
        return super().feed(read)


@pytest.fixture
def flaky(catalogue: Catalogue) -> Iterator[tuple[TableService, Recorder, FlakyStore]]:
    store = FlakyStore.memory()
    store.down = threading.Event()
    recorder = Recorder()
    service = TableService(
        LiveGame.start(store, HEADER, catalogue),
        {zone: "mock:" for zone in HEADER["zones"]},
        clock=Clock(),
        feedback=recorder,
        tap_filter=Faulty(),
        worker_thread=False,
    )
    service.start()
    yield service, recorder, store
    service.stop()
    store.close()


def advance(service: TableService, seconds: float) -> None:
    """Move the table's clock on (a card lying there a while, a retry falling due)."""
    clock = service.clock
    assert isinstance(clock, Clock)
    clock.now += seconds


def raw_reads(store: EventStore) -> list[tuple[str, str]]:
    rows = store.db.execute("SELECT uid, kind FROM reads WHERE kind != 'rejected' ORDER BY id")
    return [tuple(row) for row in rows.fetchall()]


def tapped(store: EventStore, service: TableService) -> list[str]:
    assert service.live is not None
    return [line["tap"] for line in store.log.lines(service.live.game_id) if "tap" in line]


@pytest.mark.parametrize("failing", ["the raw read", "the tap's line"])
def test_a_write_that_fails_three_times_is_retried_and_stored_once(
    flaky: tuple[TableService, Recorder, FlakyStore], failing: str
) -> None:
    service, recorder, store = flaky
    if failing == "the tap's line":
        store.fail_next = 0
        original = store.log.append_read

        def arm_after_read(*args: Any, **kwargs: Any) -> None:
            original(*args, **kwargs)
            store.fail_next = 3  # the next writes are the tap's line

        store.log.append_read = arm_after_read  # type: ignore[method-assign]
    else:
        store.fail_next = 3
    reader(service, "base-1").place("B1")
    service.step()
    assert (store.failed, service.version) == (1, 0)
    for failed, back_off in ((1, 0.1), (2, 0.2), (3, 0.4)):  # the back-off doubles
        advance(service, back_off / 2)
        service.step()  # not due yet: not tried
        assert (store.failed, service.version) == (failed, 0)
        advance(service, back_off)
        service.step()  # due: tried (the third retry is stored)
    assert (store.failed, service.version) == (3, 1)
    assert tapped(store, service) == ["B1"]
    assert raw_reads(store) == [("B1", "arrived")]
    assert store.failed == 3
    health = service.store_snapshot()
    assert health.state == "ok" and health.failures == 3 and health.waiting == 0
    assert recorder.sounds == ["failed", "accepted"]


def test_while_the_store_is_down_nothing_is_acknowledged_and_order_is_kept(
    flaky: tuple[TableService, Recorder, FlakyStore],
) -> None:
    service, recorder, store = flaky
    heard: list[Change] = []
    service.listen(heard.append)
    store.down.set()
    base = reader(service, "base-1")
    base.place("B1")
    service.step()
    assert service.store_snapshot().state == "failing"
    advance(service, 1.0)  # B1 lay there a second
    base.place("TC")  # lifts B1, then TC arrives: three reads waiting
    service.step()
    assert service.store_snapshot().waiting == 3
    with pytest.raises(StoreError, match="failing.*nothing was changed"):
        service.submit({"input": "end-turn"})
    assert service.version == 0 and tapped(store, service) == []
    health = service.store_snapshot()
    assert "disk I/O error" in (health.error or "") and health.since is not None
    assert any(not change.changed for change in heard)  # viewers heard the failure
    store.down.clear()
    advance(service, 2.0)  # the longest back-off: the retry is due
    service.step()
    assert tapped(store, service) == ["B1", "TC"]
    assert service.store_snapshot().state == "ok"
    assert raw_reads(store) == [("B1", "arrived"), ("B1", "left"), ("TC", "arrived")]
    assert service.live is not None
    assert service.live.game.state.table.bases[0].minions[0].tag == "TC"
    assert "failed" in recorder.sounds
    service.submit({"input": "end-turn"})  # the tablet works again


def test_the_dashboard_reports_a_failing_store(
    flaky: tuple[TableService, Recorder, FlakyStore],
) -> None:
    service, _, store = flaky
    client: FlaskClient = create_app(service=service, token=TOKEN).test_client()
    assert client.get("/api/state").get_json()["health"]["store"]["state"] == "ok"
    store.down.set()
    line = {"tap": "B1", "zone": "base-1"}
    answer = client.post("/api/input", json={"line": line, "version": 0}, headers=AUTH)
    assert answer.status_code == 503
    assert "store" in answer.get_json()["error"]
    reader(service, "base-2").place("B2")
    service.step()
    assert service.store_snapshot().waiting == 1
    state = client.get("/api/state").get_json()
    assert state["health"]["store"]["state"] == "failing"
    assert client.get("/api/readers").get_json()["store"]["state"] == "failing"
    assert "disk I/O error" in state["health"]["store"]["error"]
    assert state["version"] == 0
    store.down.clear()
    advance(service, 2.0)
    service.step()
    assert service.version == 1
    assert client.get("/api/state").get_json()["health"]["store"]["state"] == "ok"


def test_a_bug_in_handling_one_read_does_not_stop_the_table(
    flaky: tuple[TableService, Recorder, FlakyStore],
) -> None:
    service, recorder, store = flaky
    reader(service, "base-1").place("BAD")
    service.step()
    assert service.store_snapshot().faults == 1
    assert "RuntimeError" in (service.store_snapshot().last_fault or "")
    reader(service, "base-2").place("B2")
    service.step()
    assert tapped(store, service) == ["B2"]
    assert recorder.sounds == ["failed", "accepted"]


def test_a_failing_listener_or_light_does_not_fail_a_stored_line(
    flaky: tuple[TableService, Recorder, FlakyStore],
) -> None:
    service, recorder, store = flaky

    def broken(change: Change) -> None:
        raise RuntimeError("a listener with a bug")

    def dark(view: FeedbackView) -> None:
        raise OSError("GPIO gone")

    service.listen(broken)
    recorder.show = dark  # type: ignore[method-assign]
    outcome = service.submit({"tap": "B1", "zone": "base-1"})
    assert outcome.changed and tapped(store, service) == ["B1"]
    reader(service, "base-2").place("B2")
    service.step()
    assert tapped(store, service) == ["B1", "B2"]
