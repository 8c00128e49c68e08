"""Past games: VP over time (replayed from the stored log) and faction-pair win rates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.cards import Catalogue
from companion.store import EventStore, GameRecord
from companion.tape import parse_header
from companion.tracker import Game, Rejected


@dataclass(frozen=True, slots=True)
class VpPoint:
    seq: int  #: the log line after which the VP were these
    at: float | None
    vp: tuple[int, ...]  #: by seat


def vp_over_time(store: EventStore, game_id: int, catalogue: Catalogue) -> list[VpPoint]:
    """VP after every line that changed anyone's VP (and at the start)."""
    record = store.game(game_id)
    game = Game(parse_header(record.header, catalogue), catalogue)
    points = [VpPoint(0, 0.0, game.state.table.vp)]
    for entry in store.log(game_id):
        try:
            game.apply(entry.line)
        except Rejected:
            break  # a log that no longer replays ends its chart where it stops
        if game.state.table.vp != points[-1].vp:
            points.append(VpPoint(entry.seq, entry.at, game.state.table.vp))
    return points


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
