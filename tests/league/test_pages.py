"""The TV pages and the API's description: every page renders with what was pushed, and the
OpenAPI document names every API route."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.league.charts import vp_chart
from companion.league.engine import faction_name
from companion.league.openapi import spec
from tests.league.games import push
from tests.league.test_ingest import send


def _played(league_client: FlaskClient, key: str) -> dict[str, object]:
    for seed in (1, 2, 3):
        assert send(league_client, key, push(seed, "Ann", "Ben", "Cat")).status_code == 201
    return push(3, "Ann", "Ben", "Cat")


def test_the_standings_board_lists_players_best_first(
    league_client: FlaskClient, table_key: str
) -> None:
    _played(league_client, table_key)
    page = league_client.get("/")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "refresh.js" in text and "Pause updates" in text  # updates itself, and can stop
    best = league_client.get("/api/v1/standings").json["standings"][0]["player"]
    rows = re.findall(r'<td><a href="/players/(\w+)">', text)
    assert rows[0] == best and sorted(rows) == ["Ann", "Ben", "Cat"]


def test_recent_games_show_a_vp_chart_per_game(league_client: FlaskClient, table_key: str) -> None:
    _played(league_client, table_key)
    text = league_client.get("/games").get_data(as_text=True)
    assert text.count("<svg") == 3
    assert text.count("<polyline") == 9  # three players, three games


def test_a_game_page_shows_seats_factions_and_rating_changes(
    league_client: FlaskClient, table_key: str
) -> None:
    last = _played(league_client, table_key)
    text = league_client.get("/games/game-3").get_data(as_text=True)
    factions = [f for chosen in last["tape"][0]["factions"].values() for f in chosen]  # type: ignore[index]
    assert all(faction_name(f) in text for f in factions)
    assert "Rating before" in text and "<svg" in text


def test_the_factions_page_shows_rates_with_intervals(
    league_client: FlaskClient, table_key: str
) -> None:
    _played(league_client, table_key)
    text = league_client.get("/factions").get_data(as_text=True)
    assert "Faction pairs" in text and text.count('class="interval"') >= 6
    stats = league_client.get("/api/v1/factions").json
    assert sum(row["games"] for row in stats["pairs"]) == 9
    assert all(
        row["interval"][0] <= row["win_rate"] <= row["interval"][1] for row in stats["factions"]
    )


def test_a_player_page_charts_the_rating(league_client: FlaskClient, table_key: str) -> None:
    _played(league_client, table_key)
    text = league_client.get("/players/ben").get_data(as_text=True)
    assert "<h1>Ben</h1>" in text and "rating" in text and text.count("/games/game-") >= 3


def test_pages_escape_what_tables_send(league_client: FlaskClient, table_key: str) -> None:
    body = push(4, "<b>Ann</b>", "Ben")
    assert send(league_client, table_key, body).status_code == 201
    for path in ("/", "/games", "/games/game-4"):
        text = league_client.get(path).get_data(as_text=True)
        assert "<b>Ann</b>" not in text and "&lt;b&gt;Ann&lt;/b&gt;" in text


def test_a_chart_without_times_or_changes_still_draws() -> None:
    svg = vp_chart(["A", "B"], [{"at": None, "vp": [0, 0]}], "empty")
    assert svg.startswith("<svg") and svg.count("<polyline") == 2


def test_openapi_names_every_api_route_and_only_those(league_app: Flask) -> None:
    document = spec()
    routes: dict[str, set[str]] = {}
    for rule in league_app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(\w+)>", r"{\1}", rule.rule)
            routes.setdefault(path, set()).update((rule.methods or set()) - {"HEAD", "OPTIONS"})
    described = {path: {m.upper() for m in ops} for path, ops in document["paths"].items()}
    assert described == routes
    for path, ops in document["paths"].items():
        for op in ops.values():
            params = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert params == set(re.findall(r"{(\w+)}", path))
            assert "503" in op["responses"]


def test_every_page_file_ships_in_the_wheel() -> None:
    """Templates and styles are package data: pyproject's patterns must name each of them."""
    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["companion"]
    league = root / "companion" / "league"
    files = [p for p in league.rglob("*") if p.is_file() and p.suffix in (".html", ".css", ".js")]
    assert files
    for path in files:
        relative = path.relative_to(root / "companion").as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative
