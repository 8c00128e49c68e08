"""Past games: faction-pair win rates (VP over time is replayed in ``web/replay.py``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from companion.storage.store import GameRecord


def pair_of(record: GameRecord, player: str) -> tuple[str, ...]:
    factions = record.header.get("factions", {}).get(player, [])
    return tuple(sorted(str(f) for f in factions))


def faction_pair_stats(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """For every faction pair played in a finished game: games, wins and win rate."""
    played: defaultdict[tuple[str, ...], int] = defaultdict(int)
    won: defaultdict[tuple[str, ...], float] = defaultdict(float)
    for record in records:
        if record.ended is None or not record.winners:
            continue
        for player in record.players:
            pair = pair_of(record, player)
            played[pair] += 1
            if player in record.winners:
                won[pair] += 1 / len(record.winners)  # a shared win counts as a share
    rows = [
        {
            "factions": list(pair),
            "games": games,
            "wins": round(won[pair], 2),
            "win_rate": round(won[pair] / games, 3),
        }
        for pair, games in played.items()
    ]
    return sorted(rows, key=lambda row: (-row["win_rate"], -row["games"], row["factions"]))
