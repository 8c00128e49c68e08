"""A stored game replayed from its log: VP after each line, and when each base was scored.

Pure apart from reading the log it is given: the log is the source of truth, so history is
rebuilt by replaying it with the tracker, never kept on the side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected, TapeError
from companion.rules.scoring import ScoringResult
from companion.storage.store import GameRecord, LogEntry
from companion.tape.lines import parse_header
from companion.tracker.game import Game
from companion.tracker.games import GameState
from companion.tracker.state import TrackerState
from companion.web.table import colours_of

if TYPE_CHECKING:  # mypy holds the views to them; only /api/openapi.json loads them
    from companion.web.answers import GameAnswer, GameSummary, ScoredAt


@dataclass(frozen=True, slots=True)
class VpPoint:
    """The score after log entry ``seq`` (0: the start), in game turn ``turn``."""

    seq: int
    at: float | None
    recorded: float | None
    vp: tuple[int, ...]
    turn: int = 1


@dataclass
class GameHistory:
    record: GameRecord
    players: list[str]
    points: list[VpPoint] = field(default_factory=list)
    scorings: list[ScoredAt] = field(default_factory=list)
    #: why the replay stopped early (a log entry that no longer applies), if it did
    error: str | None = None
    #: whether it is the game the table is playing now
    current: bool = False

    @property
    def colours(self) -> dict[str, str]:
        return colours_of(self.record.header, self.players)

    @property
    def by_turn(self) -> list[VpPoint]:
        """The score at the start, then at the end of each turn (its last point)."""
        ends: dict[int, VpPoint] = {}
        for point in self.points[1:]:
            ends[point.turn] = point
        return self.points[:1] + [ends[turn] for turn in sorted(ends)]

    def document(self) -> GameAnswer:
        """``vp`` lists are by seat, in the order of ``players``."""
        return {
            "game": summary(self.record, self.record.id if self.current else None),
            "players": self.players,
            "colours": self.colours,
            "scorings": self.scorings,
            "vp_over_time": [
                {"seq": p.seq, "at": p.at, "recorded": p.recorded, "turn": p.turn, "vp": list(p.vp)}
                for p in self.points
            ],
            "error": self.error,
        }


def summary(record: GameRecord, current: int | None = None) -> GameSummary:
    factions = record.header.get("factions")
    return {
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "factions": factions if isinstance(factions, dict) else {},
        "started": record.started,
        "ended": record.ended,
        "winner": record.winner,
        "winners": record.winners or [],
        "current": record.id == current,
        #: ended unfinished when another game started, and by whom
        "void": record.void,
        "void_by": record.void_by,
    }


def replay(record: GameRecord, log: Iterable[LogEntry], catalogue: Catalogue) -> GameHistory:
    """Replay ``log``: VP after every line, each scoring with the ``seq`` that awarded it."""
    history = GameHistory(record, list(record.players))
    try:
        game = Game(parse_header(record.header, catalogue), catalogue)
    except TapeError as exc:
        history.error = f"the game header is not valid: {exc}"
        return history
    history.players = list(game.state.header.players)
    history.points.append(VpPoint(0, None, record.started, scores(game.state)))
    scored_at: list[int] = []
    for entry in log:
        try:
            game.apply(entry.line)  # type: ignore[arg-type]  # checked when it was submitted
        except Rejected as exc:
            history.error = f"log entry {entry.seq} no longer applies: {exc}"
            break
        scorings = _scorings(game.state)
        del scored_at[len(scorings) :]  # an undo took a scoring back
        scored_at.extend([entry.seq] * (len(scorings) - len(scored_at)))
        turn = game.state.table.turn
        history.points.append(
            VpPoint(entry.seq, entry.at, entry.recorded, scores(game.state), turn)
        )
    history.scorings = [
        {"seq": seq, **result.document}
        for seq, result in zip(scored_at, _scorings(game.state), strict=True)
    ]
    return history


def _scorings(state: GameState) -> tuple[ScoringResult, ...]:
    """The bases scored so far (Munchkin Cthulhu scores none)."""
    return state.scorings if isinstance(state, TrackerState) else ()


def scores(state: GameState) -> tuple[int, ...]:
    """What the chart follows: VP in Smash Up, Levels in Munchkin Cthulhu (by seat)."""
    if isinstance(state, TrackerState):
        return tuple(state.table.vp)
    return tuple(player.level for player in state.table.players)
