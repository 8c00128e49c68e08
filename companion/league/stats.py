"""Faction statistics: win rates with their sample sizes and 95% Wilson score intervals.

Pure. A player's result counts for each of their two factions (a faction's win rate) and for
the pair they played together. A shared win is a win. ``expected`` is the win rate a faction
would have if every seat won equally often: the mean of 1/players over its games, so a faction
seen mostly in two-player games is not flattered against one seen in four-player games.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

Z95 = 1.959963984540054  #: the standard normal quantile of 97.5%


@dataclass(frozen=True, slots=True)
class Result:
    """One seat of one counted game."""

    factions: tuple[str, ...]
    won: bool
    players: int


@dataclass(frozen=True, slots=True)
class WinRate:
    factions: tuple[str, ...]
    games: int
    wins: int
    expected: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` out of ``games`` ((0, 1) with no games): unlike
    rate +- error it stays inside [0, 1] and is honest about small samples."""
    if games <= 0:
        return (0.0, 1.0)
    if not 0 <= wins <= games:
        raise ValueError(f"wins must be between 0 and the games ({games}), not {wins}")
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return (max(0.0, centre - half), min(1.0, centre + half))


def faction_rates(results: Iterable[Result]) -> list[WinRate]:
    """Per faction, most games first."""
    return _rates_by(results, pairs=False)


def pair_rates(results: Iterable[Result]) -> list[WinRate]:
    """Per pair of factions played together, most games first."""
    return _rates_by(results, pairs=True)


def _rates_by(results: Iterable[Result], *, pairs: bool) -> list[WinRate]:
    games: defaultdict[tuple[str, ...], int] = defaultdict(int)
    wins: defaultdict[tuple[str, ...], int] = defaultdict(int)
    expected: defaultdict[tuple[str, ...], float] = defaultdict(float)
    for result in results:
        keys = [tuple(sorted(result.factions))] if pairs else [(f,) for f in result.factions]
        for key in keys:
            games[key] += 1
            wins[key] += int(result.won)
            expected[key] += 1 / result.players
    rows = [WinRate(key, n, wins[key], expected[key] / n) for key, n in games.items()]
    return sorted(rows, key=lambda row: (-row.games, -row.rate, row.factions))
