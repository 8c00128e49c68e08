"""The league board on a TV or a phone: axe-core finds no WCAG 2.2 AA violation on any of its
pages, served by a real server (waitress) to Debian's Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.league.admin import add_table
from companion.league.cluster import Cluster
from companion.league.database import connect
from companion.league.pages import REFRESH_S
from tests.a11y import axe_violations
from tests.league.conftest import League, fresh_database, league_app_on
from tests.league.games import push
from tests.league.test_ingest import send


@pytest.fixture(scope="module")
def board(pg_cluster: Cluster) -> Iterator[str]:
    """A league with three games on a real server, shared by this module's tests: they only
    look at its pages (a database, three games and a server for each test cost 1-3 s)."""
    with fresh_database(pg_cluster) as conninfo, league_app_on(conninfo) as app:
        with connect(conninfo) as db:
            key = add_table(db, "kitchen")
        client = app.test_client()
        for seed in (1, 2, 3):
            assert send(client, key, push(seed, "Ann", "Ben", "Cat")).status_code == 201
        served = League(app)  # stopped at once (closing only the listener waited 5 s)
        served.start()
        yield served.url
        served.stop()


@pytest.mark.parametrize("path", ["/", "/games", "/factions", "/players/Ann"])
def test_every_league_page_has_no_axe_violations(page: Any, board: str, path: str) -> None:
    answer = page.goto(board + path)
    assert answer is not None and answer.status == 200
    expect(page.locator("h1").first).to_be_visible()
    assert axe_violations(page) == []


def test_the_board_updates_itself_and_anyone_can_pause_it(page: Any, board: str) -> None:
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(board + "/")
    toggle = page.locator("#refresh-toggle")
    expect(page.locator("#refresh-note")).to_have_text(f"This page updates every {REFRESH_S} s.")
    toggle.click()
    expect(toggle).to_have_text("Resume updates")
    expect(page.locator("#refresh-note")).to_have_text("Updates are paused.")
    page.reload()  # the choice holds for this tab
    expect(toggle).to_have_text("Resume updates")
    assert errors == []
