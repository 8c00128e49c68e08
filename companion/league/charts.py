"""The league's charts: a game's VP over time and a player's rating over their games, drawn by
the charts shared with the dashboard (:mod:`companion.charts.svg`; nothing to load on a TV).
Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.charts.svg import PALETTE, Series, line_chart

__all__ = ["PALETTE", "rating_chart", "vp_chart"]

GOAL = 15  #: the Smash Up winning score, always on the VP scale


def vp_chart(names: Sequence[str], timeline: Sequence[dict[str, Any]], title: str) -> str:
    """VP by seat after each change (``timeline``: ``{"at": seconds or None, "vp": [...]}``)."""
    timed = all(isinstance(point.get("at"), int | float) for point in timeline)
    series = []
    for seat, name in enumerate(names):
        points: list[tuple[float, float]] = []
        for n, point in enumerate(timeline):
            x = float(point["at"]) / 60 if timed else float(n)
            if points:  # VP jumps: a step, not a slope
                points.append((x, points[-1][1]))
            points.append((x, float(point["vp"][seat])))
        series.append(Series(name, PALETTE[seat % len(PALETTE)], tuple(points)))
    x_label = "minutes" if timed else "changes"
    return line_chart(series, title=title, x_label=x_label, y_label="VP", goal=GOAL)


def rating_chart(player: str, ordinals: Sequence[float]) -> str:
    """A player's rating (ordinal) after each of their counted games, oldest first."""
    points = tuple((float(n), value) for n, value in enumerate(ordinals, start=1))
    series = [Series(player, PALETTE[1], points)]
    return line_chart(
        series, title=f"{player}: rating", x_label="games", y_label="rating", goal=None
    )
