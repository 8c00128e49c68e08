"""A supervised table: a failing store or a bad read never stops it, nothing is acknowledged
that was not stored, and the taps that waited are applied, in order, when the store recovers."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import StoreError
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.table.service import Change, TableService
from companion.web.app import create_app
from tests.tapes import HEADER
from tests.test_service import Recorder, eventually, reader


class Faults:
    """Makes one store method fail (as a full disk would) until told to stop."""

    def __init__(self, store: EventStore, method: str) -> None:
        self.failing = False
        self.calls = 0
        real = getattr(store, method)

        def faulty(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.failing:
                raise StoreError(f"{store.name}: the store failed (disk I/O error)")
            return real(*args, **kwargs)

        setattr(store, method, faulty)


@pytest.fixture
def table(catalogue: Catalogue) -> Iterator[tuple[TableService, Recorder, EventStore]]:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    recorder = Recorder()
    zones = {z: "mock:" for z in HEADER["zones"]}
    service = TableService(live, zones, clock=time.monotonic, feedback=recorder)
    service.start()
    yield service, recorder, store
    service.stop()
    store.close()


def minions(service: TableService) -> list[str]:
    bases = service.document()["bases"]
    return [m["tag"] for b in bases for m in b["minions"]] if bases else []


@pytest.mark.parametrize("method", ["append_read", "append"])
def test_taps_wait_for_a_failing_store_and_are_applied_when_it_recovers(
    table: Any, method: str
) -> None:
    service, recorder, store = table
    heard: list[Change] = []
    service.listen(heard.append)
    reader(service, "base-1").place("B1")
    eventually(lambda: bool(service.document()["bases"]))
    faults = Faults(store, method)
    faults.failing = True
    reader(service, "base-1").place("TC")
    eventually(lambda: not service.store_health()["ok"])
    health = service.store_health()
    assert "disk I/O error" in str(health["error"]) and health["waiting"] >= 1
    assert recorder.sounds == ["accepted", "store-failing"]  # nothing acknowledged
    assert minions(service) == []
    reader(service, "base-1").place("SL")  # a later tap waits behind the first
    eventually(lambda: faults.calls >= 3)  # retried with back-off meanwhile
    assert minions(service) == []
    faults.failing = False
    eventually(lambda: minions(service) == ["TC", "SL"])
    assert service.store_health() == {"ok": True, "error": None, "waiting": 0, "dropped": 0}
    assert recorder.sounds[-2:] == ["accepted", "accepted"]
    assert [line.get("tap") for line in store.lines(service.live.game_id)] == ["B1", "TC", "SL"]
    assert any(c.events == () for c in heard)  # listeners heard the health change


def test_an_exception_handling_one_read_does_not_stop_the_table(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, _, _ = table
    real_feed = service._filter.feed
    broken: list[bool] = [True]

    def feed_once_broken(read: Any) -> Any:
        if broken and read.uid == "XX":
            broken.clear()
            raise RuntimeError("a bug in handling this one read")
        return real_feed(read)

    monkeypatch.setattr(service._filter, "feed", feed_once_broken)
    reader(service, "base-1").place("XX")
    eventually(lambda: service.faults == 1)
    reader(service, "base-1").place("B1")
    eventually(lambda: bool(service.document()["bases"]))
    reader(service, "base-1").place("TC")
    eventually(lambda: minions(service) == ["TC"])


def test_a_store_file_that_cannot_be_written_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    EventStore.open(path).close()
    path.chmod(0o444)
    if os.access(path, os.W_OK):  # root may write any file: nothing to refuse there
        pytest.skip("this user can write a read-only file (root)")
    with pytest.raises(StoreError, match="cannot be written by this user"):
        EventStore.open(path)


def test_the_tablet_hears_that_the_store_fails_and_recovers(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    service = TableService(live, {z: "mock:" for z in HEADER["zones"]}, clock=time.monotonic)
    client = create_app(service=service, token="t" * 32).test_client()
    service.start()
    try:
        assert client.get("/api/state").get_json()["store"]["ok"] is True
        faults = Faults(store, "append_read")
        faults.failing = True
        reader(service, "base-1").place("B1")
        eventually(lambda: client.get("/api/state").get_json()["store"]["ok"] is False)
        told = client.get("/api/state").get_json()["store"]
        assert told["waiting"] == 1 and "disk I/O error" in told["error"]
        assert b'id="store-failing"' in client.get("/").data  # the page's banner
        faults.failing = False
        eventually(lambda: client.get("/api/state").get_json()["store"]["ok"] is True)
        assert client.get("/api/state").get_json()["state"]["bases"][0]["card"] == (
            "munchkin/treehouse"
        )
    finally:
        service.stop()
        store.close()
