"""A table's push, checked: what a finished (or voided) game looks like on the wire.

Pure. The body of ``POST /api/v1/games``::

    {"id": "kitchen-7f3c...", "status": "finished",
     "tape": [{"tape": 1, "game": "smashup", "players": [...], ...}, {"tap": ...}, ...],
     "claimed": {"winners": ["Ann"], "vp": {"Ann": 15, "Ben": 11}},
     "guests": ["Ben"], "finished_at": 1718000000.0}

``id`` is the game's stable id, chosen by the table once; ``status`` is ``finished`` or
``void`` (the table abandoned it); ``claimed`` is what the table's tracker said (a voided game
may leave it out); ``guests`` are seats that play without a league name; ``finished_at`` is the
table's clock, kept for the record only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.league.bodies import Claim, PushBody
from companion.league.engine import ShapeError, check
from companion.league.errors import BadRequest

MAX_LINES = 50_000
MAX_NAME = 40
MAX_PUSH_BYTES = 8 * 1024 * 1024
"""The largest push the league takes (its JSON, UTF-8); a long game's tape is well under 1 MB.
Tables check it before sending: a server refuses a larger body before reading it, and a table
still sending would see a broken connection rather than the refusal."""


@dataclass(frozen=True, slots=True)
class Push:
    id: str
    status: str
    tape: list[dict[str, Any]]
    claimed_winners: tuple[str, ...]
    claimed_vp: Mapping[str, int]
    guests: frozenset[str]
    finished_at: float | None
    #: SHA-256 of the canonical tape
    tape_digest: str
    #: what makes two pushes the same push: the tape and everything the table claims
    digest: str

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.tape[0]["players"])


def digest(value: object) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces): the same data however sent."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_push(body: object) -> Push:
    """:raises BadRequest: naming the first thing wrong with the body (its shape, declared by
    :class:`~companion.league.bodies.PushBody`, then what only the tape can tell)."""
    if not isinstance(body, dict):
        raise BadRequest('the body must be a JSON object with "id", "status" and "tape"')
    try:
        push = check(body, PushBody)
    except ShapeError as exc:
        raise BadRequest(str(exc)) from None
    status = push.get("status", "finished")
    tape = _tape(push["tape"])
    players = tape[0]["players"]
    winners, vp = _claim(push.get("claimed"), players, required=status == "finished")
    guests = _names(push.get("guests", []), "guests", players)
    finished_at = push.get("finished_at")
    tape_digest = digest(tape)
    claim = {"status": status, "winners": sorted(winners), "vp": dict(sorted(vp.items())),
             "guests": sorted(guests)}  # fmt: skip
    return Push(
        push["id"],
        status,
        tape,
        winners,
        vp,
        frozenset(guests),
        None if finished_at is None else float(finished_at),
        tape_digest,
        digest([claim, tape_digest]),
    )


def _tape(tape: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(tape) > MAX_LINES:
        raise BadRequest(f'"tape" has {len(tape)} lines; the league takes at most {MAX_LINES}')
    players = tape[0].get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise BadRequest('the tape\'s header must list 2 to 4 "players" in seat order')
    for name in players:
        _check_name(name, "a player in the header")
    if len(set(players)) != len(players):
        raise BadRequest("the tape's header lists a player twice")
    return tape


def _claim(
    claimed: Claim | None, players: list[str], *, required: bool
) -> tuple[tuple[str, ...], dict[str, int]]:
    if claimed is None:
        if required:
            raise BadRequest('"claimed" must be {"winners": [names], "vp": {name: VP}}')
        return (), {}
    winners = _names(claimed["winners"], "claimed.winners", players)
    vp = claimed["vp"]
    if set(vp) != set(players):
        raise BadRequest('"claimed.vp" must give every player\'s final VP: {name: VP}')
    return tuple(winners), dict(vp)


def _names(value: list[str], field: str, players: list[str]) -> list[str]:
    for name in value:
        if name not in players:
            raise BadRequest(f'"{field}": {name!r} is not a player in the tape\'s header')
    if len(set(value)) != len(value):
        raise BadRequest(f'"{field}" names a player twice')
    return list(value)


def _check_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise BadRequest(f"{where} must be a name of 1 to {MAX_NAME} characters, not {name!r}")
    return name
