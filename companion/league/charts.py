"""Small SVG charts for the league's pages, drawn on the server (nothing to load on a TV):
a game's VP over time and a player's rating over their games. Pure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

#: Okabe-Ito colours: told apart by colour-blind eyes, and on a dark screen
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7", "#D55E00")
GOAL = 15  #: the Smash Up winning score, always on the VP scale


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    colour: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Frame:
    width: int = 640
    height: int = 300
    left: int = 56
    right: int = 150
    top: int = 34
    bottom: int = 44

    @property
    def plot_w(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_h(self) -> int:
        return self.height - self.top - self.bottom


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
    return chart(series, title=title, x_label=x_label, y_label="VP", goal=GOAL)


def rating_chart(player: str, ordinals: Sequence[float]) -> str:
    """A player's rating (ordinal) after each of their counted games, oldest first."""
    points = tuple((float(n), value) for n, value in enumerate(ordinals, start=1))
    series = [Series(player, PALETTE[1], points)]
    return chart(series, title=f"{player}: rating", x_label="games", y_label="rating", goal=None)


def chart(
    series: Sequence[Series], *, title: str, x_label: str, y_label: str, goal: float | None
) -> str:
    frame = Frame()
    xs = [x for s in series for x, _ in s.points] or [0.0, 1.0]
    ys = [y for s in series for _, y in s.points] + ([0.0, goal] if goal is not None else [])
    x_low, x_high = min(xs), max(max(xs), min(xs) + 1)
    y_low, y_high = min(ys or [0.0]), max(ys or [1.0])
    if y_high - y_low < 1:
        y_high = y_low + 1

    def x(value: float) -> float:
        return round(frame.left + frame.plot_w * (value - x_low) / (x_high - x_low), 1)

    def y(value: float) -> float:
        return round(frame.top + frame.plot_h * (y_high - value) / (y_high - y_low), 1)

    out = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {frame.width} '
        f'{frame.height}" role="img" aria-label={quoteattr(title)}>',
        f"<title>{escape(title)}</title>",
    ]
    out += _grid(frame, y_low, y_high, goal, y)
    out.append(
        f'<path class="axis" d="M{frame.left},{frame.top} V{frame.top + frame.plot_h} '
        f'H{frame.left + frame.plot_w}"/>'
    )
    out.append(
        f'<text x="{frame.left + frame.plot_w / 2}" y="{frame.height - 8}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    out.append(f'<text x="4" y="{frame.top - 14}">{escape(y_label)}</text>')
    for n, s in enumerate(series):
        line = " ".join(f"{x(px)},{y(py)}" for px, py in s.points)
        out.append(f'<polyline fill="none" stroke="{s.colour}" stroke-width="4" points="{line}"/>')
        last = s.points[-1][1] if s.points else 0
        out.append(
            f'<text x="{frame.left + frame.plot_w + 10}" y="{frame.top + 22 + 26 * n}" '
            f'fill="{s.colour}">{escape(s.label)} {_number(last)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _grid(frame: Frame, low: float, high: float, goal: float | None, y: Any) -> list[str]:
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 1000) if (high - low) / s <= 5)
    out = []
    value = math.floor(low / step) * step
    while value <= high:
        if value >= low:
            kind = "goal" if goal is not None and value == goal else "grid"
            out.append(
                f'<line class="{kind}" x1="{frame.left}" y1="{y(value)}" '
                f'x2="{frame.left + frame.plot_w}" y2="{y(value)}"/>'
                f'<text x="{frame.left - 8}" y="{y(value) + 6}" text-anchor="end">'
                f"{_number(value)}</text>"
            )
        value += step
    if goal is not None and goal % step:
        out.append(
            f'<line class="goal" x1="{frame.left}" y1="{y(goal)}" '
            f'x2="{frame.left + frame.plot_w}" y2="{y(goal)}"/>'
        )
    return out


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
