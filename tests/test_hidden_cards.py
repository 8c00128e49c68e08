"""Face-down cards stay hidden from anyone without the token: the state, the event stream, tag
look-ups and the simulator never identify a buried card; the tape and the store keep the truth
(issue 15, 2: all four buried cards of oops-2p were identified without the token). A viewer is
never given a uid at all (issue 26, 2): a uid seen face up would name the card buried later."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import TableService, TapTiming
from companion.tape.examples import example_tape
from companion.tape.lines import read_lines
from companion.tracker.public import HANDLE_PREFIX, handle, public_view
from companion.tracker.words import FACE_DOWN
from companion.web.app import create_app
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


def public_reads(client: FlaskClient, app: Flask) -> dict[str, bytes]:
    """Everything a viewer (no token) can read of the table now, by where it comes from."""
    table = app.extensions[EXTENSION]
    frames = events(table, None, ping=60)
    stream = b"".join(part for _, part in zip(range(5), frames, strict=False))
    frames.close()
    return {
        "state": client.get("/api/state").get_data(),
        "stream": stream,
        "readers": client.get("/api/readers").get_data(),
        "sim": client.get("/api/sim/cards").get_data(),
    }


def test_a_viewer_never_receives_a_uid_at_any_moment_of_oops_2p(
    oops: tuple[TableService, list[dict[str, Any]]],
) -> None:
    """No uid anywhere a viewer reads (the state and its events in words, the stream, the
    readers' taps, the virtual table), at every moment of the bundled Oops game; a buried card
    has no handle, and the handle its card had face up appears nowhere while it is buried."""
    service, lines = oops
    app = create_app(service=service, token=TOKEN, simulated=True)
    client = app.test_client()
    assert service.live is not None
    uids = {uid.upper() for uid in service.live.game.state.header.tags}
    sightings: dict[str, str] = {}  # uid -> the handle a viewer saw it by, face up
    ever_buried: set[str] = set()
    for line in lines:
        service.submit(line)
        for key in ("tap", "tag"):
            if isinstance(line.get(key), str):
                uids.add(line[key].upper())
                service.timings.append(TapTiming("base-1", line[key], None, 0.0, 0.0, 0.0))
        full = client.get("/api/state", headers=AUTH).get_json()
        buried = buried_in(full["state"])
        ever_buried |= buried
        shown = service.view.shown
        sightings.update({uid: h for uid, h in shown.items() if h is not None})
        reads = public_reads(client, app)
        for where, data in reads.items():
            for uid in uids:
                assert uid.encode() not in data.upper(), f"{uid} in the viewer's {where}"
            for tag in buried:
                assert tag.encode() in client.get("/api/state", headers=AUTH).get_data()
                if tag in sightings:  # seen face up earlier: nothing links the two
                    assert sightings[tag].encode() not in data, f"{tag}'s handle in {where}"
        public = json.loads(reads["state"])["state"]
        for base in public["bases"]:
            assert all(card["tag"] is None for card in base["buried"])
        sim = json.loads(reads["sim"])["cards"]
        assert sum(1 for card in sim if card.get("face_down")) == len(buried)
        for card in sim:
            if card.get("face_down"):
                assert card["uid"] is None and card["card"] is None and card["owner"] is None
                assert card["name"] == FACE_DOWN
            else:  # by handle, and only what anyone at the table sees (never a hand)
                assert card["card"] and card["uid"] and card["uid"].startswith(HANDLE_PREFIX)
                assert card["in_play"] or card["zone"] is not None
        for tag in buried:
            assert client.get(f"/api/bindings/{tag}").status_code == 401
    assert len(ever_buried) >= 4
    assert set(sightings) & ever_buried  # some buried card had been seen face up: tested
    tag = sorted(ever_buried)[0]
    with_token = client.get(f"/api/bindings/{tag}", headers=AUTH).get_json()
    assert with_token["bound"] and with_token["card"]
    everything = client.get("/api/sim/cards", headers=AUTH).get_json()["cards"]
    assert all(card["card"] and card["uid"] in uids for card in everything)


def test_a_holder_of_the_token_keeps_every_tag(
    oops: tuple[TableService, list[dict[str, Any]]],
) -> None:
    """The page's controls point at cards by uid: a token holder's state and stream have them."""
    service, lines = oops
    app = create_app(service=service, token=TOKEN, simulated=True)
    for line in lines:  # until a minion is in play
        service.submit(line)
        if any(base["minions"] for base in service.document()["bases"]):  # type: ignore[index]
            break
    assert service.live is not None
    uids = set(service.live.game.state.header.tags)
    in_play = {m["tag"] for b in service.document()["bases"] for m in b["minions"]}  # type: ignore[index]
    in_play |= {b["tag"] for b in service.document()["bases"]}  # type: ignore[index]
    assert in_play and in_play <= uids
    frames = events(app.extensions[EXTENSION], None, ping=60, full=True)
    stream = b"".join(part for _, part in zip(range(5), frames, strict=False))
    frames.close()
    state = app.test_client().get("/api/state", headers=AUTH).get_data()
    for tag in in_play:
        assert tag.encode() in stream and tag.encode() in state
    watching = app.test_client().get("/api/state").get_json()
    handles = {m["tag"] for b in watching["state"]["bases"] for m in b["minions"]}
    assert handles and all(h.startswith(HANDLE_PREFIX) for h in handles)
    # a viewer asks why a minion has its power by its handle, and is answered with it
    handle = sorted(handles)[0]
    why = app.test_client().get(f"/api/power/{handle}").get_json()
    assert why["tag"] == handle and why["power"] >= 0


def test_the_store_keeps_the_truth(oops: tuple[TableService, list[dict[str, Any]]]) -> None:
    service, lines = oops
    for line in lines:
        service.submit(line)
        buried = buried_in(service.document() or {})  # the contract's document names them
        if buried:
            break
    assert service.live is not None and buried
    stored = service.store.log.lines(service.live.game_id)
    tag = sorted(buried)[0]
    assert any(tag in (line.get("tap"), line.get("tag")) for line in stored)


def test_the_public_view_replaces_every_uid_wherever_it_is() -> None:
    document = {
        "bases": [{"zone": "base-1", "buried": [{"tag": "04AB", "controller": "Ann"}]}],
        "prompts": [{"options": [{"label": "Uncover", "line": {"tag": "04ab"}}]}],
        "minions": [{"tag": "04CD"}],
        "recent": [{"text": "tag 04AB was read, then 04cd"}],
    }
    shown = {"04AB": None, "04CD": "card-1"}
    seen = public_view(document, shown)
    assert seen["bases"][0]["buried"] == [{"tag": None, "controller": "Ann"}]
    assert seen["prompts"][0]["options"][0]["line"] == {"tag": None}
    assert seen["minions"] == [{"tag": "card-1"}]
    assert seen["recent"][0]["text"] == f"tag {FACE_DOWN} was read, then card-1"
    assert document["bases"][0]["buried"][0]["tag"] == "04AB"  # the original is untouched


def test_handles_differ_from_game_to_game() -> None:
    assert handle(b"a" * 16, "04AB") == handle(b"a" * 16, "04ab") != handle(b"b" * 16, "04AB")


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


def buried_in(document: Mapping[str, Any]) -> set[str]:
    """The tags of the buried cards a state document names."""
    return {c["tag"] for b in document.get("bases", ()) for c in b.get("buried", ())}


@pytest.mark.parametrize("name", ["mixed-4p", "cthulhu-3p"])
def test_no_uid_reaches_a_viewer_in_either_game(catalogue: Catalogue, name: str) -> None:
    """Every moment of a bundled Smash Up and Munchkin Cthulhu game: the viewer's state (its
    events in words included) names no uid; a token holder's keeps them."""
    lines = [line.event for line in read_lines(example_tape(name).splitlines())]
    store = EventStore.memory()
    live = LiveGame.start(store, lines[0], catalogue)
    service = TableService(live, {z: "mock:" for z in lines[0]["zones"]}, clock=time.monotonic)
    client = create_app(service=service, token=TOKEN, simulated=True).test_client()
    uids = {uid.upper() for uid in live.game.state.header.tags}
    for line in lines[1:]:
        service.submit(line)
        uids |= {line[key].upper() for key in ("tap", "tag") if isinstance(line.get(key), str)}
        public = client.get("/api/state").get_data().upper()
        assert not [uid for uid in uids if uid.encode() in public]
    full = client.get("/api/state", headers=AUTH).get_data().upper()
    assert any(uid.encode() in full for uid in uids)
    store.close()
