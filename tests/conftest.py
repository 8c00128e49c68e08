from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.catalogue.cards import Catalogue, build_catalogue, load_catalogue
from companion.storage.store import EventStore
from companion.table.demo import DemoPlayer
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.web.app import TOKEN_HEADER, create_app
from companion.web.server import Dashboard
from tests.tapes import HEADER as TAPE_HEADER

# Simulated (sim:) zones answer at today's simulator speed unless a test picks a PN532 link
# profile itself (sim:pi-uart-921600, ReaderContext(clock, "pi-uart-921600")); set before any
# table starts, so that child processes (companion demo) inherit it.
os.environ.setdefault("COMPANION_SIM_PROFILE", "ideal")

#: the browser tests' Chromium, page and live-table fixtures; the long tests started first
pytest_plugins = ["tests.browser", "tests.ordering"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--wheel", action="store_true", help="also run the wheel check")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The wheel check runs in CI (CI=1), or with --wheel; not twice in one CI run (.ci/run
    runs .ci/check-wheel first and says so with COMPANION_WHEEL_CHECKED=1)."""
    if config.getoption("--wheel"):
        return
    if os.environ.get("COMPANION_WHEEL_CHECKED"):
        reason = "checked by .ci/check-wheel earlier in this CI run"
    elif os.environ.get("CI"):
        return
    else:
        reason = "builds and installs the wheel: runs in CI (CI=1) or with --wheel"
    for item in items:
        if "wheel" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


TOKEN = "s3cret-token"
AUTH = {TOKEN_HEADER: TOKEN}


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    return load_catalogue()


def faction_cards(set_id: str, faction: str, extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A legal 20-card faction: ``extra`` cards, padded with plain 1-power minions."""
    cards = list(extra)
    used = sum(card["copies"] for card in cards)
    for n in range(20 - used):
        cards.append(
            {
                "id": f"{set_id}/{faction}-filler-{n}",
                "name": f"{faction} filler {n}",
                "type": "minion",
                "faction": f"{set_id}/{faction}",
                "copies": 1,
                "power": 1,
                "text": None,
            }
        )
    return cards


def mini_catalogue(cards: list[dict[str, Any]], factions: list[str] | None = None) -> Catalogue:
    """A small test set ``t`` built from card dicts (ids and faction ids must be ``t/...``)."""
    names = factions or sorted({c["faction"].split("/")[1] for c in cards if c.get("faction")})
    faction_docs = [{"id": f"t/{name}", "name": name, "bases": []} for name in names]
    padded: list[dict[str, Any]] = [c for c in cards if not c.get("faction")]
    for name in names:
        mine = [c for c in cards if c.get("faction") == f"t/{name}"]
        padded.extend(faction_cards("t", name, mine))
    document = {"set": "t", "name": "Test set", "factions": faction_docs, "cards": padded}
    return build_catalogue([(Path("t.json"), document)])


@pytest.fixture
def service(catalogue: Catalogue) -> Iterator[TableService]:
    store = EventStore.memory()
    table = TableService(
        LiveGame.start(store, TAPE_HEADER, catalogue),
        {z: "mock:" for z in TAPE_HEADER["zones"]},
        clock=time.monotonic,
    )
    table.start()
    yield table
    table.stop()
    store.close()


@pytest.fixture
def client(service: TableService) -> FlaskClient:
    return create_app(service=service, token=TOKEN).test_client()


@contextmanager
def serving(
    service: TableService, *, simulated: bool = False, demo: DemoPlayer | None = None, **config: Any
) -> Iterator[Dashboard]:
    """The dashboard on the real server (waitress), as ``companion serve`` runs it, in a thread,
    with ``config`` set on its app (e.g. ``SSE_PING_SECONDS``); closed afterwards."""
    served = Dashboard(
        service, host="127.0.0.1", port=0, token=TOKEN, simulated=simulated, demo=demo
    )
    served.app.config.update(config)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        served.close()
        thread.join(timeout=10)


@pytest.fixture
def dashboard(service: TableService) -> Iterator[Dashboard]:
    with serving(service) as served:
        yield served


@pytest.fixture
def factory() -> Iterator[Any]:
    """gpiozero's mock pins (with PWM, for the buzzer and LEDs), reset after the test."""
    made = MockFactory(pin_class=MockPWMPin)
    yield made
    made.reset()
