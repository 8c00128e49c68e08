"""Season ratings: a multiplayer skill rating from each game's final placings (openskill's
Plackett-Luce model), shown as an ordinal (mu - 3 sigma) with its uncertainty (sigma).

Pure: the database keeps the ratings, this module computes them. Games are rated in the order
the league stored them (the server's order, which every table's clock cannot disturb), so the
incremental update as games arrive and :func:`rerate` from scratch give the same numbers.
Guests take part with a fresh rating each game (their placings still say whom a league player
beat or lost to) and keep nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate: 99.7% sure the player is at least this good."""
        return self.mu - 3 * self.sigma


DEFAULT = Skill(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True, slots=True)
class RatedGame(Generic[Player]):
    """One counted game: each seat's player (``None``: a guest) and place (1 = won)."""

    game: int
    seats: tuple[tuple[Player | None, int], ...]


@dataclass(frozen=True, slots=True)
class Change(Generic[Player]):
    game: int
    player: Player
    before: Skill
    after: Skill


def placings(vp: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Final places by seat: every winner (a shared win too) is 1st; the others follow by VP,
    ties sharing a place (10/10/5 after a winner: 2, 2, 4)."""
    won = set(winners)
    places = []
    for seat, score in enumerate(vp):
        if seat in won:
            places.append(1)
            continue
        ahead = sum(1 for other, s in enumerate(vp) if other in won or (s > score))
        places.append(ahead + 1)
    return places


def rate_game(before: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """New skills by seat after one game (lower place = better; equal places are a tie)."""
    if len(before) != len(places) or len(before) < 2:
        raise ValueError("a rated game needs at least two seats, each with a place")
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]


def update(current: dict[Player, Skill], game: RatedGame[Player]) -> list[Change[Player]]:
    """Rate one game against ``current`` (changed in place); returns the league players'
    changes in seat order."""
    before = [DEFAULT if p is None else current.get(p, DEFAULT) for p, _ in game.seats]
    after = rate_game(before, [place for _, place in game.seats])
    changes = []
    for (player, _), old, new in zip(game.seats, before, after, strict=True):
        if player is not None:
            current[player] = new
            changes.append(Change(game.game, player, old, new))
    return changes


def rerate(games: Iterable[RatedGame[Player]]) -> tuple[dict[Player, Skill], list[Change[Player]]]:
    """Every rating from scratch: the games in the order given (the league's stored order)."""
    current: dict[Player, Skill] = {}
    changes: list[Change[Player]] = []
    for game in games:
        changes.extend(update(current, game))
    return current, changes
