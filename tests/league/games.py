"""Games for the league tests: simulated whole games as a table would push them."""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

from companion.league.engine import simulated_tape
from companion.league.simtables import claim, simulated_push


@functools.cache
def _push(seed: int, players: tuple[str, ...] | None) -> dict[str, Any]:
    rng = random.Random(seed)
    if players is None:
        return simulated_push(rng, f"game-{seed}", guest_rate=0.0)
    seats = rng.sample(players, len(players))
    tape = simulated_tape(rng, seats)
    return {"id": f"game-{seed}", "status": "finished", "tape": tape, "claimed": claim(tape)}


def push(seed: int, *players: str, game_id: str | None = None) -> dict[str, Any]:
    """A finished game (a fresh copy: tests may change it), between ``players`` if given
    (in a random seat order), else 2 to 4 of the simulated tables' names."""
    made = copy.deepcopy(_push(seed, tuple(players) if players else None))
    if game_id is not None:
        made["id"] = game_id
    return made


def seat_names(made: dict[str, Any]) -> list[str]:
    return list(made["tape"][0]["players"])
