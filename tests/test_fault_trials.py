"""Fault trials: a table played through a store whose writes fail at random ends exactly where
the same play ends on a sound store (issue 15, 1).

Each trial is seeded: a game of cards placed on and moved between the bases through the mock
readers, the worker stepped at points the seed chooses (so reads pile up, or are taken one at a
time, as a busy or an idle worker would find them), while the store refuses a random share of
its writes (single failures and runs of them). Afterwards the stored taps and raw reads are
those of the play, in order, each once; every change a listener heard was already in the store
when it was announced; and the game stands where the fault-free play of the same seed stands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import StoreError
from companion.table.live import LiveGame
from companion.table.service import Change, TableService
from tests.tapes import HEADER
from tests.test_service import Recorder, reader
from tests.test_supervised_table import FlakyStore

TRIALS = 12
PLACEMENTS = 14
BASES = {"B1": "base-1", "B2": "base-2", "B3": "base-3"}
MINIONS = ["TC", "SL", "BH", "TP", "MT", "FE", "HH"]


class RandomlyFailingStore(FlakyStore):
    """A real store whose writes fail before they touch the file, as a full or failing disk
    makes them: each write with probability ``share``, and then possibly the next few too."""

    rng: random.Random
    share = 0.0
    run_left = 0

    def _fault(self) -> None:
        if self.run_left == 0 and self.rng.random() < self.share:
            self.run_left = self.rng.choice([1, 1, 2, 3, 6])
        if self.run_left > 0:
            self.run_left -= 1
            self.failed += 1
            raise StoreError(f"{self.name}: disk I/O error (injected)")


SETTLE_STEPS = 1000
"""Steps, half a second of the clock apart, a faulty play gets to store what waits (runs of
failures back off to two seconds between retries)."""


class Clock:
    """The table's time, moved on by the trial (a card lying on its zone a while, a retry
    due)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Trial:
    """What one play of a seed left behind."""

    taps: list[tuple[str, str]]
    reads: list[tuple[str, str, str]]
    document: dict[str, Any]
    store_failures: int
    #: what listeners heard: (version, whether the game changed, lines stored at that moment);
    #: a failing or recovered store is announced too, unchanged
    heard: list[tuple[int, bool, int]] = field(default_factory=list)


def placements(seed: int) -> list[tuple[str, str]]:
    """The bases, then minions played and moved between them (never onto the base they are on,
    never back at a zone within its same-visit window)."""
    rng = random.Random(seed)
    played = [(uid, zone) for uid, zone in BASES.items()]
    where: dict[str, str] = {}
    for _ in range(PLACEMENTS):
        uid = rng.choice(MINIONS)
        zone = rng.choice([z for z in BASES.values() if z != where.get(uid)])
        where[uid] = zone
        played.append((uid, zone))
    return played


def play(catalogue: Catalogue, seed: int, share: float) -> Trial:
    store = RandomlyFailingStore.memory()
    assert isinstance(store, RandomlyFailingStore)
    store.rng = random.Random(seed * 7919)
    clock = Clock()
    recorder = Recorder()
    live = LiveGame.start(store, HEADER, catalogue)
    service = TableService(
        live,
        {zone: "mock:" for zone in HEADER["zones"]},
        clock=clock,
        feedback=recorder,
        worker_thread=False,
    )
    stepping = random.Random(seed)
    trial = Trial([], [], {}, 0)

    def acknowledged(change: Change) -> None:  # in the worker, right after the line is stored
        trial.heard.append((change.version, change.changed, len(store.log.lines(live.game_id))))

    service.listen(acknowledged)
    store.share = share
    service.start()
    try:
        on_zone: dict[str, str] = {}  # zone -> the card lying there
        lying: dict[str, str] = {}  # card -> its zone
        for uid, zone in placements(seed):
            if uid in lying:  # picked up from where it lay, then played elsewhere
                reader(service, lying.pop(uid)).lift()
                clock.advance(1.0)
            on_zone.pop(zone, None)
            reader(service, zone).place(uid)
            if stepping.random() < 0.5:
                service.step()
            on_zone[zone], lying[uid] = uid, zone
            clock.advance(4.0)  # it lies there; nothing is "the same visit" any more
        expected = len(placements(seed))

        def settled() -> bool:
            snapshot = service.store_snapshot()
            return snapshot.state == "ok" and snapshot.waiting == 0 and service.version == expected

        for _ in range(SETTLE_STEPS):
            service.step()
            if settled():
                break
            clock.advance(0.5)  # the next retry falls due
        assert settled(), f"not stored after {SETTLE_STEPS} steps: {service.store_snapshot()}"
        store.share = 0.0
        trial.taps = [(line["tap"], line["zone"]) for line in store.log.lines(live.game_id)]
        rows = store.db.execute("SELECT uid, zone, kind FROM reads ORDER BY id").fetchall()
        trial.reads = [tuple(row) for row in rows]
        document = service.document()
        assert document is not None
        trial.document = dict(document)
        trial.store_failures = store.failed
    finally:
        service.stop()
        store.close()
    return trial


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """The game's state without the tape times (the taps' ``at`` follow the real clock)."""
    return {key: value for key, value in document.items() if key not in {"at", "time"}}


@pytest.mark.parametrize("seed", range(TRIALS))
def test_a_store_failing_at_random_loses_nothing_and_stores_nothing_twice(
    catalogue: Catalogue, seed: int
) -> None:
    clean = play(catalogue, seed, share=0.0)
    faulty = play(catalogue, seed, share=0.3)
    assert faulty.store_failures > 0  # the faults happened
    assert clean.taps == placements(seed)
    assert faulty.taps == clean.taps  # in order, each once
    assert faulty.reads == clean.reads
    assert comparable(faulty.document) == comparable(clean.document)
    changes = [version for version, changed, _ in faulty.heard if changed]
    assert changes == list(range(1, len(clean.taps) + 1))  # each heard once, in order
    assert all(stored == version for version, _, stored in faulty.heard)  # only once stored
    assert any(not changed for _, changed, _ in faulty.heard)  # the failures were told
