"""One line chart, drawn by hand as SVG, for both apps: the dashboard's score by turn and the
league's VP over time and rating over games.

The SVG carries its own colours (it is served alone as an image) and CSS classes (``axis``,
``grid``, ``goal``) a page may restyle when it is inlined. A dark panel keeps every seat colour
readable; the type is large because the chart is scaled down to a phone's width. Pure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

#: Okabe-Ito colours: told apart by colour-blind eyes, and on a dark screen
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7", "#D55E00")
PANEL, GRID, GOAL_LINE, INK = "#1c2128", "#2c333d", "#9aa4b1", "#eef1f5"
WIDTH, LEFT, RIGHT, TOP, AXIS = 480, 44, 16, 16, 44
PLOT_H = 220
LEGEND_ROW, LEGEND_COLUMNS = 24, 3
PLOT_W = WIDTH - LEFT - RIGHT

Scale = Callable[[float], float]


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    colour: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Ticks:
    """Where the x axis is labelled: ``(x, label)`` pairs, or ``None`` for even steps."""

    marks: tuple[tuple[float, str], ...] | None = None


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    x_label: str,
    y_label: str,
    goal: float | None,
    x_ticks: Ticks = Ticks(),
) -> str:
    """Each series as a line; ``goal`` (a winning score) is always on the scale, drawn apart;
    the legend under the plot names each series with its last value."""
    xs = [x for s in series for x, _ in s.points] or [0.0, 1.0]
    ys = [y for s in series for _, y in s.points] + [0.0] + ([goal] if goal is not None else [])
    x_low, x_high = min(xs), max(max(xs), min(xs) + 1)
    y_low, y_high = min(ys), max(max(ys), min(ys) + 1)

    def x(value: float) -> float:
        return round(LEFT + PLOT_W * (value - x_low) / (x_high - x_low), 1)

    def y(value: float) -> float:
        return round(TOP + PLOT_H * (y_high - value) / (y_high - y_low), 1)

    rows = -(-len(series) // LEGEND_COLUMNS)
    height = TOP + PLOT_H + AXIS + rows * LEGEND_ROW
    marks = x_ticks.marks if x_ticks.marks is not None else _even_marks(x_low, x_high)
    out = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
        f'height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label={quoteattr(title)} font-family="sans-serif" font-size="15" fill="{INK}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="{PANEL}"/>',
        *_value_axis(y_low, y_high, goal, y_label, y),
        *_x_axis(marks, x_label, x),
        *_lines(series, x, y),
        "</svg>",
    ]
    return "\n".join(out)


def _value_axis(low: float, high: float, goal: float | None, label: str, y: Scale) -> list[str]:
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 1000, 10**6) if (high - low) / s <= 6)
    values: list[float] = [
        v * step for v in range(math.ceil(low / step), math.floor(high / step) + 1)
    ]
    if goal is not None and goal not in values:
        values.append(goal)
    out = []
    for value in sorted(values):
        kind, stroke = ("goal", GOAL_LINE) if value == goal else ("grid", GRID)
        out.append(
            f'<line class="{kind}" x1="{LEFT}" y1="{y(value)}" x2="{LEFT + PLOT_W}" '
            f'y2="{y(value)}" stroke="{stroke}"/>'
        )
        out.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 5}" text-anchor="end">{number(value)}</text>'
        )
    middle = TOP + PLOT_H / 2
    out.append(
        f'<text x="14" y="{middle}" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle})">{escape(label)}</text>'
    )
    return out


def _x_axis(marks: Sequence[tuple[float, str]], label: str, x: Scale) -> list[str]:
    bottom = TOP + PLOT_H
    out = [
        f'<path class="axis" d="M{LEFT},{TOP} V{bottom} H{LEFT + PLOT_W}" fill="none" '
        f'stroke="{INK}"/>'
    ]
    for at, text in marks:
        tx = x(at)
        out.append(f'<line x1="{tx}" y1="{bottom}" x2="{tx}" y2="{bottom + 4}" stroke="{INK}"/>')
        out.append(f'<text x="{tx}" y="{bottom + 19}" text-anchor="middle">{escape(text)}</text>')
    out.append(
        f'<text x="{LEFT + PLOT_W / 2}" y="{bottom + 38}" text-anchor="middle">'
        f"{escape(label)}</text>"
    )
    return out


def _even_marks(low: float, high: float) -> tuple[tuple[float, str], ...]:
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 1000, 10**6) if (high - low) / s <= 8)
    first = math.ceil(low / step)
    return tuple(
        (float(v * step), number(v * step)) for v in range(first, math.floor(high / step) + 1)
    )


def _lines(series: Sequence[Series], x: Scale, y: Scale) -> list[str]:
    out = []
    for n, s in enumerate(series):
        line = " ".join(f"{x(px)},{y(py)}" for px, py in s.points)
        if line:
            out.append(
                f'<polyline fill="none" stroke={quoteattr(s.colour)} stroke-width="3" '
                f'points="{line}"><title>{escape(s.label)}</title></polyline>'
            )
        row, column = divmod(n, LEGEND_COLUMNS)
        ly = TOP + PLOT_H + AXIS + row * LEGEND_ROW + 16
        lx = LEFT + column * (PLOT_W // LEGEND_COLUMNS)
        out.append(
            f'<rect x="{lx}" y="{ly - 12}" width="14" height="14" fill={quoteattr(s.colour)}/>'
        )
        last = s.points[-1][1] if s.points else 0
        out.append(f'<text x="{lx + 20}" y="{ly}">{escape(s.label)} ({number(last)})</text>')
    return out


def number(value: float) -> str:
    """A value as people write it: 12, not 12.0; 3.5 with one decimal."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
