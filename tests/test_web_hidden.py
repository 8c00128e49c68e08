"""Face-down cards stay hidden: nothing a viewer without the token can fetch (state, stream,
bindings, the virtual table) identifies a buried card; the tape and the store keep the truth."""

from __future__ import annotations

import json
import time

from companion.catalogue.cards import Catalogue
from companion.storage.session import LiveGame
from companion.storage.store import EventStore
from companion.table.service import TableService
from companion.tape.examples import example_tape
from companion.tape.lines import read_lines
from companion.web.app import TOKEN_HEADER, create_app
from companion.web.hidden import buried_tags

TOKEN = "t" * 32


def test_no_buried_card_is_identifiable_without_the_token(catalogue: Catalogue) -> None:
    lines = list(read_lines(example_tape("oops-2p").splitlines()))
    store = EventStore.memory()
    live = LiveGame.start(store, lines[0].event, catalogue)
    zones = {zone: "mock:" for zone in live.game.state.header.zones}
    service = TableService(live, zones, clock=time.monotonic)
    client = create_app(service=service, token=TOKEN, simulated=True).test_client()
    ever_buried: set[str] = set()
    for line in lines[1:]:
        service.submit(line.event)
        truth = service.document()
        assert truth is not None
        hidden = buried_tags(truth)
        ever_buried |= hidden
        seen = client.get("/api/state")
        assert seen.status_code == 200
        for tag in hidden:  # not in the bases, not in a prompt's option lines, nowhere
            assert tag.encode() not in seen.data
        counts = [len(b["buried"]) for b in seen.get_json()["state"]["bases"]]
        assert counts == [len(b["buried"]) for b in truth["bases"]]  # counted, never named
    assert len(ever_buried) >= 4
    for tag in ever_buried:
        assert client.get(f"/api/bindings/{tag}").status_code == 401
        known = client.get(f"/api/bindings/{tag}", headers={TOKEN_HEADER: TOKEN})
        assert known.status_code == 200 and known.get_json()["bound"] is True
    assert client.get("/api/sim/cards").status_code == 401
    assert client.get("/api/sim/cards", headers={TOKEN_HEADER: TOKEN}).status_code == 200
    # the store keeps the truth: the stored tape names every buried card's tag
    stored = json.dumps(store.lines(live.game_id))
    assert all(tag in stored for tag in ever_buried)
