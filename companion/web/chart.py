"""The VP-over-time chart as SVG, drawn by hand: one polyline per player, axes, a legend."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from companion.web.replay import GameHistory

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 48, 130, 20, 40
GOAL = 15  #: the Smash Up winning score, always on the scale


def vp_chart(history: GameHistory) -> str:
    points = history.points
    players = history.players
    colours = history.colours
    last = max(1, len(points) - 1)
    top = max([GOAL, *(v for p in points for v in p.vp)])
    bottom = min([0, *(v for p in points for v in p.vp)])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + plot_w * index / last, 1)

    def y(vp: int) -> float:
        return round(TOP + plot_h * (top - vp) / (top - bottom), 1)

    title = f"VP over time, game {history.record.id}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label={quoteattr(title)} '
        'font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
    ]
    step = 5 if top - bottom > 10 else 1
    for vp in range(bottom - bottom % step, top + 1, step):
        if vp < bottom:
            continue
        out.append(
            f'<line x1="{LEFT}" y1="{y(vp)}" x2="{LEFT + plot_w}" y2="{y(vp)}" '
            f'stroke="{"#999" if vp == GOAL else "#eee"}"/>'
        )
        out.append(f'<text x="{LEFT - 6}" y="{y(vp) + 4}" text-anchor="end">{vp}</text>')
    out.append(
        f'<path d="M{LEFT},{TOP} V{TOP + plot_h} H{LEFT + plot_w}" fill="none" stroke="black"/>'
    )
    out.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
        f"log entries ({len(points) - 1})</text>"
    )
    out.append(
        f'<text x="14" y="{TOP + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {TOP + plot_h / 2})">VP</text>'
    )
    for seat, player in enumerate(players):
        colour = colours.get(player, "#000000")
        line = " ".join(f"{x(i)},{y(p.vp[seat])}" for i, p in enumerate(points))
        if line:
            out.append(
                f'<polyline fill="none" stroke={quoteattr(colour)} stroke-width="2" '
                f'points="{line}"><title>{escape(player)}</title></polyline>'
            )
        ly = TOP + 16 + seat * 20
        lx = WIDTH - RIGHT + 14
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="12" fill={quoteattr(colour)}/>')
        final = points[-1].vp[seat] if points else 0
        out.append(f'<text x="{lx + 18}" y="{ly + 1}">{escape(player)} ({final})</text>')
    out.append("</svg>")
    return "\n".join(out)
