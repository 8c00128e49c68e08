"""The dashboard's score-over-time chart: each player's VP (Levels in Munchkin Cthulhu) at the
end of every turn, drawn by the charts shared with the league (:mod:`companion.charts.svg`)."""

from __future__ import annotations

from companion.charts.svg import INK, Series, Ticks, line_chart
from companion.web.replay import GameHistory, VpPoint

GOAL = 15  #: the Smash Up winning score, always on the scale
CTHULHU_GOAL = 10  #: Munchkin Cthulhu's winning Level


def vp_chart(history: GameHistory) -> str:
    """Each player's score at the start and at the end of each turn (the winning score
    always on the scale)."""
    points = history.by_turn
    cthulhu = history.record.game == "munchkin-cthulhu"
    unit, goal = ("Level", CTHULHU_GOAL) if cthulhu else ("VP", GOAL)
    series = [
        Series(
            player,
            history.colours.get(player, INK),
            tuple((float(i), float(p.vp[seat])) for i, p in enumerate(points)),
        )
        for seat, player in enumerate(history.players)
    ]
    return line_chart(
        series,
        title=f"{unit} by turn, game {history.record.id}",
        x_label="turn",
        y_label=unit,
        goal=goal,
        x_ticks=_turn_ticks(points),
    )


def _turn_ticks(points: list[VpPoint]) -> Ticks:
    """Ticks under the ends of turns (every turn, or every 5th or 10th on long games)."""
    turns = len(points) - 1
    every = 1 if turns <= 8 else 5 if turns <= 50 else 10
    return Ticks(
        tuple(
            (float(index), str(point.turn))
            for index, point in enumerate(points[1:], start=1)
            if point.turn % every == 0 or index == 1
        )
    )
