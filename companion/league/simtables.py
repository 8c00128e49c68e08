"""Simulated tables for the demo, the tests and the benchmarks: each plays whole games with
our simulator, claims the result its tracker computed, and ships them to a league server.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.league.client import Answer, Backoff, push_game
from companion.league.engine import replay_tape, simulated_tape

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
GUESTS = ("Guest", "Visitor")


def claim(tape: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What a table's tracker says about its game: the winners and every final VP."""
    replayed = replay_tape(tape)
    return {"winners": list(replayed.winners), "vp": {s.name: s.vp for s in replayed.seats}}


def simulated_push(
    rng: random.Random, game_id: str, names: Sequence[str] = NAMES, *, guest_rate: float = 0.1
) -> dict[str, Any]:
    """A push of a simulated finished game between 2 to 4 of ``names`` (sometimes a guest)."""
    players = rng.sample(list(names), rng.randint(2, 4))
    guests = []
    if rng.random() < guest_rate:
        guests = [rng.choice(GUESTS)]
        players[-1] = guests[0]
    tape = simulated_tape(rng, players)
    return {
        "id": game_id,
        "status": "finished",
        "tape": tape,
        "claimed": claim(tape),
        "guests": guests,
        "finished_at": time.time(),
    }


def tampered(push: dict[str, Any]) -> dict[str, Any]:
    """The same game with one VP added to the first seat's claim (a table that misscored)."""
    first = push["tape"][0]["players"][0]
    vp = dict(push["claimed"]["vp"])
    vp[first] += 1
    return {**push, "claimed": {**push["claimed"], "vp": vp}}


def ship(
    url: str,
    key: str,
    push: dict[str, Any],
    *,
    stop: threading.Event,
    backoff: Backoff | None = None,
) -> Answer | None:
    """Send until the server takes it or refuses it; waits and tries again while the server
    is unreachable or busy. ``None``: stopped first."""
    backoff = backoff or Backoff(first=0.2, most=5.0)
    while not stop.is_set():
        try:
            answer = push_game(url, key, push)
        except OSError:
            answer = None
        if answer is not None and not answer.retry:
            backoff.reset()
            return answer
        stop.wait(backoff.next_wait())
    return None


class SimulatedTable(threading.Thread):
    """A table playing ``games`` games (``None``: until stopped), one every ``pace`` seconds
    (give or take half), shipping each; ``heard`` gets every answer."""

    def __init__(
        self,
        url: str,
        name: str,
        key: str,
        *,
        stop: threading.Event,
        heard: Callable[[str, dict[str, Any], Answer], None],
        seed: int = 0,
        pace: float = 5.0,
        games: int | None = None,
        cheat_rate: float = 0.0,
    ) -> None:
        super().__init__(name=f"table-{name}", daemon=True)
        self.url, self.table, self.key = url, name, key
        self.stop, self.heard = stop, heard
        self.rng = random.Random(seed)
        self.pace, self.games, self.cheat_rate = pace, games, cheat_rate
        self.played = 0

    def run(self) -> None:
        while not self.stop.is_set() and (self.games is None or self.played < self.games):
            push = simulated_push(self.rng, f"{self.table}-{self.played + 1:05d}")
            if self.rng.random() < self.cheat_rate:
                push = tampered(push)
            self.stop.wait(self.pace * self.rng.uniform(0.5, 1.5))
            answer = ship(self.url, self.key, push, stop=self.stop)
            if answer is None:
                return
            self.played += 1
            self.heard(self.table, push, answer)
