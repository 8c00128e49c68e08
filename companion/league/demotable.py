"""A simulated table for the demo, run as a real table runs: its own SQLite file, each game
played line by line through the tracker and stored, the game entering the outbox as it ends,
and the shipper sending it to the league in the background. Players are picked from the
league's names as the table has cached them (a guest now and then).
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

from companion.league.engine import catalogue, simulated_tape
from companion.league.shipper import Shipper
from companion.league.simtables import GUESTS, NAMES
from companion.storage.outbox import OutboxEntry
from companion.storage.store import EventStore
from companion.table.live import LiveGame


class DemoTable(threading.Thread):
    def __init__(
        self,
        folder: Path,
        name: str,
        url: str,
        key: str,
        *,
        stop: threading.Event,
        seed: int = 0,
        pace: float = 6.0,
        games: int | None = None,
        guest_rate: float = 0.1,
    ) -> None:
        """``pace``: seconds between games (give or take half); ``games``: how many to play
        (``None``: until stopped)."""
        super().__init__(name=f"demo-{name}", daemon=True)
        self.table = name
        self.store = EventStore.open(folder / f"{name}.db")
        self.store.log.league_outbox = True
        self.shipper = Shipper(
            self.store, url, key, settle=0, first=0.5, most=10, poll=0.3, roster_every=20
        )
        self.stop = stop
        self.rng = random.Random(seed)
        self.pace, self.games, self.guest_rate = pace, games, guest_rate
        self.played = 0
        self._reported: set[int] = set()

    def run(self) -> None:
        self.shipper.start()
        while not self.stop.is_set() and (self.games is None or self.played < self.games):
            self._play_one()
            self.played += 1
            self.stop.wait(self.pace * self.rng.uniform(0.5, 1.5))

    def _play_one(self) -> None:
        known, _ = self.store.outbox.league_players()
        pool = sorted(set(known) | set(NAMES))
        players = self.rng.sample(pool, self.rng.randint(2, 4))
        guests = []
        if self.rng.random() < self.guest_rate:
            players[-1] = self.rng.choice(GUESTS)
            guests = [players[-1]]
        tape = simulated_tape(self.rng, players)
        header = {**tape[0], "guests": guests} if guests else tape[0]
        live = LiveGame.start(self.store, header, catalogue())
        for line in tape[1:]:
            if self.stop.is_set():
                return
            live.submit(line)

    @property
    def idle(self) -> bool:
        """Done playing and nothing left to ship."""
        playing = self.is_alive()
        return not playing and all(
            e.state != "pending" for e in self.store.outbox.newest(limit=1000)
        )

    def newly_shipped(self) -> list[OutboxEntry]:
        """Entries the league answered since the last call."""
        fresh = [
            e
            for e in self.store.outbox.newest(limit=1000)
            if e.state != "pending" and e.id not in self._reported
        ]
        self._reported.update(e.id for e in fresh)
        return sorted(fresh, key=lambda e: e.id)

    def close(self) -> None:
        self.shipper.stop()
        self.store.close()
