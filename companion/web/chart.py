"""The score-over-time chart as SVG, drawn by hand: each player's VP (Levels in Munchkin
Cthulhu) at the end of every turn, on the dashboard's dark panel so every seat colour reads."""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

from companion.web.replay import GameHistory, VpPoint

#: small and with big type: it is scaled to the page, down to a phone's width
WIDTH, LEFT, RIGHT, TOP, AXIS = 480, 44, 16, 16, 44
PLOT_H = 220
LEGEND_ROW, LEGEND_COLUMNS = 24, 3
GOAL = 15  #: the Smash Up winning score, always on the scale
CTHULHU_GOAL = 10  #: Munchkin Cthulhu's winning Level
PANEL, GRID, GOAL_LINE, INK = "#1c2128", "#2c333d", "#9aa4b1", "#eef1f5"
PLOT_W = WIDTH - LEFT - RIGHT

Scale = Callable[[float], float]


def vp_chart(history: GameHistory) -> str:
    """Each player's score at the start and at the end of each turn (the winning score
    always on the scale)."""
    points = history.by_turn
    cthulhu = history.record.game == "munchkin-cthulhu"
    unit, goal = ("Level", CTHULHU_GOAL) if cthulhu else ("VP", GOAL)
    top = max([goal, *(v for p in points for v in p.vp)])
    bottom = min([0, *(v for p in points for v in p.vp)])
    last = max(1, len(points) - 1)

    def x(index: float) -> float:
        return round(LEFT + PLOT_W * index / last, 1)

    def y(value: float) -> float:
        return round(TOP + PLOT_H * (top - value) / (top - bottom), 1)

    title = f"{unit} by turn, game {history.record.id}"
    rows = -(-len(history.players) // LEGEND_COLUMNS)
    height = TOP + PLOT_H + AXIS + rows * LEGEND_ROW
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label={quoteattr(title)} '
        f'font-family="sans-serif" font-size="15" fill="{INK}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="{PANEL}"/>',
        *_value_axis(bottom, top, goal, unit, y),
        *_turn_axis(points, x),
        *_lines(history, points, x, y),
        "</svg>",
    ]
    return "\n".join(out)


def _value_axis(bottom: int, top: int, goal: int, unit: str, y: Scale) -> list[str]:
    step = 5 if top - bottom > 10 else 1
    out = []
    for value in range(bottom - bottom % step, top + 1, step):
        if value < bottom:
            continue
        stroke = GOAL_LINE if value == goal else GRID
        out.append(
            f'<line x1="{LEFT}" y1="{y(value)}" x2="{LEFT + PLOT_W}" y2="{y(value)}" '
            f'stroke="{stroke}"/>'
        )
        out.append(f'<text x="{LEFT - 6}" y="{y(value) + 4}" text-anchor="end">{value}</text>')
    middle = TOP + PLOT_H / 2
    out.append(
        f'<text x="14" y="{middle}" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle})">{unit}</text>'
    )
    return out


def _turn_axis(points: list[VpPoint], x: Scale) -> list[str]:
    """Ticks under the ends of turns (every turn, or every 5th or 10th on long games)."""
    turns = len(points) - 1
    every = 1 if turns <= 8 else 5 if turns <= 50 else 10
    out = [f'<path d="M{LEFT},{TOP} V{TOP + PLOT_H} H{LEFT + PLOT_W}" fill="none" stroke="{INK}"/>']
    for index, point in enumerate(points[1:], start=1):
        if point.turn % every == 0 or index == 1:
            tx = x(index)
            out.append(
                f'<line x1="{tx}" y1="{TOP + PLOT_H}" x2="{tx}" y2="{TOP + PLOT_H + 4}" '
                f'stroke="{INK}"/>'
            )
            out.append(
                f'<text x="{tx}" y="{TOP + PLOT_H + 19}" text-anchor="middle">{point.turn}</text>'
            )
    out.append(
        f'<text x="{LEFT + PLOT_W / 2}" y="{TOP + PLOT_H + 38}" text-anchor="middle">turn</text>'
    )
    return out


def _lines(history: GameHistory, points: list[VpPoint], x: Scale, y: Scale) -> list[str]:
    out = []
    for seat, player in enumerate(history.players):
        colour = history.colours.get(player, INK)
        line = " ".join(f"{x(i)},{y(p.vp[seat])}" for i, p in enumerate(points))
        if line:
            out.append(
                f'<polyline fill="none" stroke={quoteattr(colour)} stroke-width="3" '
                f'points="{line}"><title>{escape(player)}</title></polyline>'
            )
        row, column = divmod(seat, LEGEND_COLUMNS)
        ly = TOP + PLOT_H + AXIS + row * LEGEND_ROW + 16
        lx = LEFT + column * (PLOT_W // LEGEND_COLUMNS)
        out.append(
            f'<rect x="{lx}" y="{ly - 12}" width="14" height="14" fill={quoteattr(colour)}/>'
        )
        final = points[-1].vp[seat] if points else 0
        out.append(f'<text x="{lx + 20}" y="{ly}">{escape(player)} ({final})</text>')
    return out
