"""Face-down cards stay hidden from anyone without the token: the state, the event stream, tag
look-ups and the simulator never identify a buried card; the tape and the store keep the truth
(issue 15, 2: all four buried cards of oops-2p were identified without the token)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.tape.examples import example_tape
from companion.tape.lines import read_lines
from companion.web.app import create_app
from companion.web.hidden import FACE_DOWN, buried_tags, public_view
from companion.web.stream import events
from companion.web.table import EXTENSION, Table
from tests.conftest import AUTH, TOKEN


@pytest.fixture
def oops(catalogue: Catalogue) -> Iterator[tuple[TableService, list[dict[str, Any]]]]:
    lines = [line.event for line in read_lines(example_tape("oops-2p").splitlines())]
    store = EventStore.memory()
    live = LiveGame.start(store, lines[0], catalogue)
    zones = {z: "mock:" for z in lines[0]["zones"]}  # lines are submitted: no worker needed
    service = TableService(live, zones, clock=time.monotonic, worker_thread=False)
    service.start()
    yield service, lines[1:]
    service.stop()
    store.close()


def test_no_buried_card_is_identifiable_at_any_moment_of_oops_2p(
    oops: tuple[TableService, list[dict[str, Any]]],
) -> None:
    service, lines = oops
    app = create_app(service=service, token=TOKEN, simulated=True)
    client = app.test_client()
    ever_buried: set[str] = set()
    for line in lines:
        service.submit(line)
        full = client.get("/api/state", headers=AUTH).get_json()
        buried = buried_tags(full["state"])
        ever_buried |= buried
        public = client.get("/api/state").get_data().upper()
        stream = next(s for s in events(app.extensions[EXTENSION], None, ping=60) if b"data:" in s)
        sim = client.get("/api/sim/cards").get_json()["cards"]
        for tag in buried:
            assert tag.encode() in client.get("/api/state", headers=AUTH).get_data()
            assert tag.encode() not in public and tag.encode() not in stream.upper()
            shown = next(card for card in sim if card["uid"] == tag)
            assert shown["card"] is None and shown["name"] == FACE_DOWN and shown["owner"] is None
            assert client.get(f"/api/bindings/{tag}").status_code == 401
        assert all(c["card"] for c in sim if c["uid"] not in buried)
    assert len(ever_buried) >= 4
    tag = sorted(ever_buried)[0]
    with_token = client.get(f"/api/bindings/{tag}", headers=AUTH).get_json()
    assert with_token["bound"] and with_token["card"]
    everything = client.get("/api/sim/cards", headers=AUTH).get_json()["cards"]
    assert all(card["card"] for card in everything)


def test_the_store_keeps_the_truth(oops: tuple[TableService, list[dict[str, Any]]]) -> None:
    service, lines = oops
    for line in lines:
        service.submit(line)
        buried = buried_tags(service.document() or {})  # the contract's document names them
        if buried:
            break
    assert service.live is not None and buried
    stored = service.store.log.lines(service.live.game_id)
    tag = sorted(buried)[0]
    assert any(tag in (line.get("tap"), line.get("tag")) for line in stored)


def test_the_public_view_redacts_a_buried_tag_wherever_it_is() -> None:
    document = {
        "bases": [{"zone": "base-1", "buried": [{"tag": "04AB", "controller": "Ann"}]}],
        "prompts": [{"options": [{"label": "Uncover", "line": {"tag": "04ab"}}]}],
        "recent": [{"text": "tag 04AB was read"}],
    }
    shown = public_view(document, buried_tags(document))
    assert shown["bases"][0]["buried"] == [{"tag": None, "controller": "Ann"}]
    assert shown["prompts"][0]["options"][0]["line"] == {"tag": None}
    assert shown["recent"][0]["text"] == f"tag {FACE_DOWN} was read"
    assert document["bases"][0]["buried"][0]["tag"] == "04AB"  # the original is untouched


def test_bindings_need_a_token(client: FlaskClient) -> None:
    answer = client.get("/api/bindings/B1")
    assert answer.status_code == 401 and "token" in answer.get_json()["error"]
    assert client.get("/api/bindings/B1", headers=AUTH).get_json()["bound"] is True


def test_table_payload_variants_share_one_version(
    oops: tuple[TableService, list[dict[str, Any]]],
) -> None:
    service, _ = oops
    table = Table(service, token=TOKEN)
    assert table.payload(full=True)[0] == table.payload()[0]
