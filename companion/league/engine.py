"""The league's one door to the rules engine: replaying a received tape, naming factions, and
playing simulated games for the demo, the tests and the benchmarks.

Every other league module goes through here, so the package layout of the catalogue, the tape
reader, the tracker, the rules and the simulator is named in this file only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.errors import CompanionError, Rejected
from companion.rules.game import final_vp
from companion.simulation.plausible import FACTION_POOL, make_header, plausible_game
from companion.tape.documents import as_line
from companion.tape.lines import parse_header
from companion.tape.shapes import Field as Field
from companion.tape.shapes import OpenApiDocument as OpenApiDocument
from companion.tape.shapes import ShapeError as ShapeError
from companion.tape.shapes import check as check
from companion.tape.shapes import check_query as check_query
from companion.tape.shapes import query_parameters as query_parameters
from companion.tape.shapes import schema as schema
from companion.tape.strict import StrictJSONError as StrictJSONError
from companion.tape.strict import loads
from companion.tracker.game import Game

SMASHUP = "smashup"
#: a simulated game that trips the simulator is drawn again, at most this many times
SIMULATION_ATTEMPTS = 20


def strict_json(data: bytes) -> Any:
    """A request body read by the project's one strict JSON reader (the tapes' and the table's
    requests' limits). :raises StrictJSONError:"""
    return loads(data)


class TapeRefused(CompanionError, ValueError):
    """The tape cannot be a league game at all (its header is unusable); nothing is stored."""


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    factions: tuple[str, ...]
    #: VP at the end of the tape, after the Madness penalty
    vp: int


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the rules engine makes of a tape."""

    seats: tuple[Seat, ...]
    winners: tuple[str, ...]
    turns: int
    lines: int
    #: (seconds since the start or None, VP by seat) each time someone's VP changed
    timeline: tuple[tuple[float | None, tuple[int, ...]], ...]
    #: why the replay stopped before the end of the tape, if it did
    error: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)


def catalogue() -> Catalogue:
    """The card catalogue (loaded once per process)."""
    return load_catalogue()


def faction_name(faction: str) -> str:
    """A faction's printed name ("Orcs"), or its id if the catalogue does not know it."""
    known = catalogue().factions.get(faction)
    return known.name if known is not None else faction


def replay_tape(tape: Sequence[dict[str, Any]]) -> Replayed:
    """Replay a whole tape (header first). A line the engine refuses stops the replay; the
    result then carries ``error`` and the state before that line.

    :raises TapeRefused: the header is not a Smash Up header the engine accepts.
    """
    cards = catalogue()
    if not tape:
        raise TapeRefused("the tape is empty: its first line must be the header")
    header_line = tape[0]
    if header_line.get("game", SMASHUP) != SMASHUP:
        raise TapeRefused(
            f"the league counts Smash Up games; this tape is {header_line.get('game')!r}"
        )
    try:
        header = parse_header(header_line, cards)
    except CompanionError as exc:
        raise TapeRefused(f"the tape's header is not valid: {exc}") from None
    game = Game(header, cards)
    timeline: list[tuple[float | None, tuple[int, ...]]] = [(0.0, _vp(game))]
    error = None
    for number, line in enumerate(tape[1:], start=2):
        try:
            game.apply(as_line(line))
        except Rejected as exc:
            error = f"line {number}: {exc}"
            break
        except Exception as exc:  # an untrusted tape must not take the server down
            error = f"line {number}: the rules engine cannot apply it ({type(exc).__name__})"
            break
        vp = _vp(game)
        if vp != timeline[-1][1]:
            timeline.append((_at(line), vp))
    table = game.smashup.table
    seats = tuple(
        Seat(name, tuple(header.factions.get(name, ())), vp)
        for name, vp in final_scores(game).items()
    )
    return Replayed(
        seats=seats,
        winners=tuple(table.winners),
        turns=int(table.turn),
        lines=len(tape) - 1,
        timeline=tuple(timeline),
        error=error,
    )


def _vp(game: Game) -> tuple[int, ...]:
    return tuple(int(vp) for vp in game.smashup.table.vp)


def _at(line: dict[str, Any]) -> float | None:
    at = line.get("at")
    return float(at) if isinstance(at, int | float) and not isinstance(at, bool) else None


def final_scores(game: Game) -> dict[str, int]:
    """Each player's VP at the end of ``game``, in seat order (the rules' final VP)."""
    table = game.smashup.table
    return {name: int(vp) for name, vp in zip(table.players, final_vp(table), strict=True)}


def simulated_tape(rng: random.Random, players: Sequence[str]) -> list[dict[str, Any]]:
    """A plausible whole Smash Up game between ``players`` (2 to 4 names), header first, with
    factions drawn at random. Same ``rng`` state, same game."""
    return simulated_game(rng, players)[0]


def simulated_game(rng: random.Random, players: Sequence[str]) -> tuple[list[dict[str, Any]], Game]:
    """:func:`simulated_tape`, and the tracker's game at its end (the same as its replay's)."""
    cards = catalogue()
    pool = [f for f in FACTION_POOL if f in cards.factions]
    for _ in range(SIMULATION_ATTEMPTS):
        picked = rng.sample(pool, 2 * len(players))
        factions = {name: picked[2 * seat : 2 * seat + 2] for seat, name in enumerate(players)}
        header = make_header(list(players), factions, cards, len(players) + 1)
        try:
            lines, game = plausible_game(rng, header, cards)
            return [header, *(dict(line) for line in lines)], game
        except Rejected:
            # The simulator can plan a move the engine refuses (a second dueling card):
            # draw another game rather than ship a tape the engine would not replay.
            continue
    raise RuntimeError(f"no simulated game in {SIMULATION_ATTEMPTS} attempts")
