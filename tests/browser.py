"""Browser tests' support: Debian's Chromium driven by Playwright, and a real dashboard
server on a simulated NFC table (real nfcpy reader threads, a real SQLite file)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.chromium import CHROMIUM_ARGS
from companion.catalogue.cards import Catalogue
from companion.simulation.plausible import make_header
from companion.storage.store import EventStore
from companion.table.config import TableConfig
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.web.server import Dashboard

SCREENSHOTS = Path(__file__).parent / "screenshots"
FAILED = pytest.StashKey[bool]()
HOW_TO_INSTALL = (
    "the browser tests need Debian's Chromium: `sudo apt-get install chromium` "
    "(or set CHROMIUM=/path/to/chromium); Playwright's own browser download is not used"
)
TOKEN = "browser-test-token"
PLAYERS = {
    "Ann": ["core/dinosaurs", "munchkin/orcs"],
    "Ben": ["core/robots", "munchkin/thieves"],
}


def wait_until_live(page: Any, timeout: float = 15_000) -> None:
    """Until the table page's stream is open (its status says live), looked at each animation
    frame in the page: expect looks every 500 ms once its first tries fail, which after a
    reconnection cost up to half a second more."""
    live = "() => document.querySelector('#connection')?.dataset.status === 'live'"
    page.wait_for_function(live, timeout=timeout)


def chromium_path() -> str:
    """Chromium's path; fails in CI (CI=1) and skips elsewhere, saying how to install it."""
    found = (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail(HOW_TO_INSTALL)
    pytest.skip(HOW_TO_INSTALL)


class LiveTable:
    """A simulated table with the dashboard served on a free port, restartable on that port."""

    def __init__(
        self,
        db: Path,
        catalogue: Catalogue,
        zones: int = 3,
        players: dict[str, list[str]] | None = None,
        reader: str = "sim:",
        zone_names: list[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        worker_thread: bool = True,
    ) -> None:
        self.store = EventStore.open(db)
        chosen = players or PLAYERS
        self.header = make_header(list(chosen), chosen, catalogue, zones)
        self.live = LiveGame.start(self.store, self.header, catalogue)
        names = zone_names or list(TableConfig.simulated(zones).hardware.readers)
        readers = {zone: reader for zone in names}
        self.service = TableService(self.live, readers, clock=clock, worker_thread=worker_thread)
        self.port = 0
        self.dashboard: Dashboard | None = None
        self.thread: threading.Thread | None = None
        self.used: set[str] = set()
        # The app first, as `companion serve` does: Python 3.11 keeps the AST constructor's
        # recursion count in the interpreter, shared by threads, so Flask compiling its routes
        # while another thread parses (a traceback being formatted) can fail with "AST
        # constructor recursion depth mismatch" (see CPython gh-106905).
        self.serve()
        self.service.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def serve(self) -> None:
        self.dashboard = Dashboard(
            self.service, host="127.0.0.1", port=self.port, token=TOKEN, simulated=True
        )
        self.port = self.dashboard.port
        self.thread = threading.Thread(target=self.dashboard.serve_forever, daemon=True)
        self.thread.start()

    def stop_serving(self) -> None:
        assert self.dashboard is not None and self.thread is not None
        self.dashboard.shutdown()
        self.dashboard.close()
        self.thread.join(5)
        self.dashboard = None

    def close(self) -> None:
        if self.dashboard is not None:
            self.stop_serving()
        self.service.stop()
        self.store.close()

    def tag(self, card: str) -> str:
        """An unused tag of ``card`` (each call another physical copy)."""
        for uid, bound in self.header["tags"].items():
            if bound == card and uid not in self.used:
                self.used.add(uid)
                return str(uid)
        raise LookupError(f"no unused tag of {card}")

    def tap(self, card: str, zone: str) -> str:
        """A tap straight into the service (the tape line a reader would make)."""
        uid = self.tag(card)
        self.service.submit({"tap": uid, "zone": zone})
        return uid

    def ready_treasure_bath(self) -> None:
        """Treasure Bath on base 1 with Munchkin and core minions past its breakpoint: ready
        to score (the scoring prompt and the treasure draft follow)."""
        for card in ("munchkin/treasure-bath", "munchkin/hippogriff", "core/king-rex"):
            self.tap(card, "base-1")
        self.tap("munchkin/sword-lord", "base-1")
        self.tap("core/hoverbot", "base-1")


@pytest.fixture
def live_table(tmp_path: Path, catalogue: Catalogue) -> Iterator[LiveTable]:
    table = LiveTable(tmp_path / "table.db", catalogue)
    yield table
    table.close()


@pytest.fixture(scope="module")
def shared_live_table(
    tmp_path_factory: pytest.TempPathFactory, catalogue: Catalogue
) -> Iterator[LiveTable]:
    """One live table for a module's tests that only look at its pages (never tap or change
    it): started once instead of for each page."""
    table = LiveTable(tmp_path_factory.mktemp("shared") / "table.db", catalogue)
    yield table
    table.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A tablet-sized page; its console errors fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    opened.errors = errors
    yield opened
    # a failing test's last screen is kept for people to look at (taking one after every test
    # cost each a third of a second), its page errors printed with its output
    if FAILED in request.node.stash:
        screenshot(opened, f"last-{request.node.name}")
    print("page errors:", errors)
    context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Notes on the test's item that its call failed, for :func:`page`'s teardown."""
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
