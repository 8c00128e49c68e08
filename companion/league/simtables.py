"""Simulated pushes for the tests and the benchmarks: whole games played by our simulator,
with the result a table's tracker would claim, shipped straight to a league server (the demo's
tables go through the real outbox and shipper: :mod:`companion.league.demotable`).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from typing import Any

from companion.league.client import Answer, Backoff, push_game
from companion.league.engine import final_scores, replay_tape, simulated_game
from companion.tracker.game import Game

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
GUESTS = ("Guest", "Visitor")


def claim(tape: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What a table's tracker says about its game: the winners and every final VP."""
    replayed = replay_tape(tape)
    return {"winners": list(replayed.winners), "vp": {s.name: s.vp for s in replayed.seats}}


def claim_of(game: Game) -> dict[str, Any]:
    """:func:`claim` from the tracker's game at the end, without replaying its tape."""
    return {"winners": list(game.smashup.table.winners), "vp": final_scores(game)}


def simulated_push(
    rng: random.Random, game_id: str, names: Sequence[str] = NAMES, *, guest_rate: float = 0.1
) -> dict[str, Any]:
    """A push of a simulated finished game between 2 to 4 of ``names`` (sometimes a guest)."""
    players = rng.sample(list(names), rng.randint(2, 4))
    guests = []
    if rng.random() < guest_rate:
        guests = [rng.choice(GUESTS)]
        players[-1] = guests[0]
    # the simulation played the game through the tracker already: replaying the tape for the
    # claim took 40 % of a simulated push (the league night simulates 150)
    tape, game = simulated_game(rng, players)
    return {
        "id": game_id,
        "status": "finished",
        "tape": tape,
        "claimed": claim_of(game),
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
