"""The one chart module both apps draw with (companion/charts/svg.py)."""

from __future__ import annotations

import inspect
import xml.etree.ElementTree as ET

from companion.charts.svg import PLOT_H, TOP, Series, Ticks, line_chart
from companion.league import charts as league_charts
from companion.web import chart as web_chart

SVG = "{http://www.w3.org/2000/svg}"


def test_the_goal_is_on_the_scale_and_every_series_has_a_line_and_a_legend() -> None:
    series = [Series("Ann <&>", "#E69F00", ((0, 1), (1, 4))), Series("Ben", "#56B4E9", ())]
    svg = line_chart(series, title="VP by turn", x_label="turn", y_label="VP", goal=15)
    root = ET.fromstring(svg)  # well-formed, names escaped
    assert root.get("aria-label") == "VP by turn"
    goals = [line for line in root.iter(f"{SVG}line") if line.get("class") == "goal"]
    assert len(goals) == 1
    lines = list(root.iter(f"{SVG}polyline"))
    assert len(lines) == 1  # a series with no points has a legend entry only
    legend = [t.text for t in root.iter(f"{SVG}text") if t.text and "(" in t.text]
    assert legend == ["Ann <&> (4)", "Ben (0)"]


def test_the_goal_line_sits_above_every_lower_value() -> None:
    svg = line_chart(
        [Series("A", "#fff", ((0, 2), (1, 3)))], title="t", x_label="x", y_label="y", goal=10
    )
    root = ET.fromstring(svg)
    goal = next(line for line in root.iter(f"{SVG}line") if line.get("class") == "goal")
    polyline = root.find(f"{SVG}polyline")
    assert polyline is not None
    top_of_line = min(float(p.split(",")[1]) for p in polyline.get("points", "").split())
    assert float(goal.get("y1", "0")) < top_of_line  # smaller y is higher on screen


def test_ticks_given_are_the_ticks_drawn() -> None:
    svg = line_chart(
        [Series("A", "#fff", ((0, 0), (1, 1), (2, 2)))],
        title="t",
        x_label="turn",
        y_label="VP",
        goal=None,
        x_ticks=Ticks(((1.0, "1"), (2.0, "2"))),
    )
    under_the_axis = str(TOP + PLOT_H + 19)
    ticks = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("y") == under_the_axis]
    assert ticks == ["1", "2"]


def test_neither_app_draws_svg_of_its_own() -> None:
    for module in (web_chart, league_charts):
        assert "<svg" not in inspect.getsource(module) and "<polyline" not in inspect.getsource(
            module
        )
