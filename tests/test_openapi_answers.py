"""What the dashboard answers is what its OpenAPI document says, key by key: a real server
(waitress, a real SQLite file) replays the bundled Smash Up and Munchkin Cthulhu games, and at
every line the state (a viewer's and a token holder's, and the event stream's first frame),
and every few lines every GET, is held to the document generated from the answers' types. A
key the server sends that the document does not name, one it names but the server leaves out,
or a value of another type fails the test: the document cannot drift from the server."""

from __future__ import annotations

import http.client
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.league.openapi import spec as league_spec
from companion.simulation.plausible import make_header, plausible_lines
from companion.storage.store import EventStore
from companion.table.demo import DemoPlayer
from companion.table.games import DEMO_PLAYERS
from companion.table.live import LiveGame
from companion.table.service import TableService
from companion.tape.examples import example_tape
from companion.tape.lines import read_lines
from companion.tracker.public import public_view
from companion.web.openapi import spec
from tests.conftest import AUTH, serving
from tests.openapi_bodies import answer_schema, mismatches

DOCUMENT = spec()
GETS = sorted(path for path, item in DOCUMENT["paths"].items() if "get" in item)
STREAM = "/api/events"
#: a seeded plausible Smash Up game (every line a person might send) besides the bundled tapes
PLAUSIBLE = "plausible"
#: every GET is fetched at these lines (and after the last); the state at every line
EVERY = 15


class Served:
    """A table playing one bundled game on a real server, and a client of it."""

    def __init__(self, service: TableService, port: int, lines: list[dict[str, Any]]) -> None:
        self.service = service
        self.lines = lines
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        #: the GETs that answered 200 and were held to the document
        self.checked: set[str] = set()

    def get(self, url: str, *, token: bool) -> tuple[int, Any]:
        self.connection.request("GET", url, headers=AUTH if token else {})
        response = self.connection.getresponse()
        return response.status, json.loads(response.read())

    def check(self, path: str, url: str, *, token: bool) -> None:
        """``url`` (of the document's ``path``) answers 200 as the document says, or one of
        the errors the document lists."""
        status, answer = self.get(url, token=token)
        operation = DOCUMENT["paths"][path]["get"]
        assert str(status) in operation["responses"], f"GET {url}: {status} is not documented"
        if status != 200:
            return
        schema = answer_schema(operation, 200)
        assert schema is not None, f"GET {path}: the document does not describe its answer"
        found = mismatches(answer, schema, f"GET {url}", strict=True)
        assert found == [], found
        self.checked.add(path)

    def check_every_get(self) -> None:
        for token in (False, True):
            _, state = self.get("/api/state", token=True)
            for path in GETS:
                if path != STREAM:
                    self.check(path, self._url(path, state, token=token), token=token)

    def _url(self, path: str, state: dict[str, Any], *, token: bool) -> str:
        document = state["state"] or {}
        tags = [m["tag"] for b in document.get("bases", []) for m in b["minions"]]
        tag = tags[0] if tags else "no-minion"
        if tags and not token:  # a viewer names a minion by its handle
            _, public = self.get("/api/state", token=False)
            tag = next(m["tag"] for b in public["state"]["bases"] for m in b["minions"])
        uid = (
            next(iter(self.service.live.game.state.header.tags), "04AA")
            if self.service.live
            else "04AA"
        )
        values = {"{game_id}": str(state["game_id"]), "{tag}": tag, "{uid}": uid}
        for name, value in values.items():
            path = path.replace(name, value)
        return path

    def check_state(self) -> None:
        for token in (False, True):
            self.check("/api/state", "/api/state", token=token)


def game_lines(name: str, catalogue: Catalogue) -> list[dict[str, Any]]:
    """A bundled tape's lines (its header first), or a seeded plausible Smash Up game's."""
    if name == PLAUSIBLE:
        factions = {player: list(chosen) for player, chosen in DEMO_PLAYERS.items()}
        header = make_header(list(DEMO_PLAYERS), factions, catalogue, 3)
        moves = plausible_lines(random.Random(1), header, catalogue)
        return [header, *(dict(line) for line in moves)]
    return [line.event for line in read_lines(example_tape(name).splitlines())]


@pytest.fixture(params=["oops-2p", "mixed-4p", "cthulhu-3p", "munchkin-3p", PLAUSIBLE])
def served(
    request: pytest.FixtureRequest, catalogue: Catalogue, tmp_path: Path
) -> Iterator[Served]:
    lines = game_lines(request.param, catalogue)
    store = EventStore.open(tmp_path / "table.db")
    live = LiveGame.start(store, lines[0], catalogue)
    zones = {zone: "mock:" for zone in lines[0]["zones"]}
    service = TableService(live, zones, clock=time.monotonic, worker_thread=False)
    service.start()
    demo = DemoPlayer(service)  # not playing: /api/demo answers its status
    try:
        with serving(service, simulated=True, demo=demo) as dashboard:
            client = Served(service, dashboard.port, lines[1:])
            yield client
            client.connection.close()
    finally:
        service.stop()
        store.close()


def test_every_answer_of_a_whole_game_is_what_the_document_says(served: Served) -> None:
    served.check_every_get()
    for number, line in enumerate(served.lines, start=1):
        served.service.submit(line)
        served.check_state()
        if number % EVERY == 0:
            served.check_every_get()
        if number == len(served.lines) // 2:  # Undo, and the state that offers Redo
            served.service.submit({"input": "undo"})
            served.check_state()
            redo = served.get("/api/state", token=True)[1]["redo"]
            assert redo is not None
            served.service.submit(redo["line"])
    served.check_every_get()
    smash_up = served.service.live.game.state.header.game == "smashup"
    missing = set(GETS) - served.checked - {STREAM} - (set() if smash_up else {"/api/power/{tag}"})
    assert missing == set(), f"never answered 200: {sorted(missing)}"


def test_the_stream_sends_what_the_state_answers(served: Served) -> None:
    """The event stream's data is "as /api/state": its first frame is held to that schema."""
    for line in served.lines[:10]:
        served.service.submit(line)
    schema = answer_schema(DOCUMENT["paths"]["/api/state"]["get"], 200)
    assert schema is not None
    port = served.connection.port
    for headers in ({}, AUTH):
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stream.request("GET", STREAM, headers=headers)
        response = stream.getresponse()
        data = next(line.removeprefix(b"data: ") for line in response if line.startswith(b"data: "))
        stream.close()
        assert mismatches(json.loads(data), schema, "stream", strict=True) == []


def test_a_table_with_no_game_answers_as_documented(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    service = TableService(
        None,
        {"base-1": "mock:"},
        clock=time.monotonic,
        store=store,
        catalogue=catalogue,
        worker_thread=False,
    )
    service.start()
    try:
        with serving(service) as dashboard:
            client = Served(service, dashboard.port, [])
            client.check_every_get()
            assert client.get("/api/state", token=False)[1]["message"]
            assert {"/api/state", "/api/readers", "/api/games", "/api/pairing"} <= client.checked
            client.connection.close()
    finally:
        service.stop()
        store.close()


def test_a_real_tap_is_timed_as_documented(served: Served) -> None:
    """The readers' page lists the last taps' stage times: a card placed on a reader, taken
    by the worker's step, is held to the document (its uid only to a token holder)."""
    first = next(line for line in served.lines if "tap" in line)
    reader = served.service.readers[first["zone"]]
    reader.start()
    reader.place(first["tap"])
    served.service.step()
    for token in (False, True):
        served.check("/api/readers", "/api/readers", token=token)
        taps = served.get("/api/readers", token=token)[1]["taps"]
        uids = {tap["uid"] for tap in taps}
        assert first["tap"] in uids if token else uids == {None}


def _state(served: Served) -> tuple[dict[str, Any], dict[str, Any]]:
    for line in served.lines[:20]:
        served.service.submit(line)
    schema = answer_schema(DOCUMENT["paths"]["/api/state"]["get"], 200)
    assert schema is not None
    return served.get("/api/state", token=True)[1], schema


def test_a_missing_a_wrongly_typed_or_an_undocumented_key_is_caught(served: Served) -> None:
    """The check above can fail: a real answer, changed the ways a drifting server would."""
    answer, schema = _state(served)
    assert mismatches(answer, schema, strict=True) == []
    players = answer["state"]["players"]
    broken = [
        {k: v for k, v in answer.items() if k != "undo"},
        {**answer, "version": "7"},
        {**answer, "state": {**answer["state"], "players": [{**players[0], "name": 3}]}},
        {**answer, "state": {**answer["state"], "turn": None}},
        {**answer, "health": {"store": {**answer["health"]["store"], "new": 1}}},
        {**answer, "recent": [{"seq": 1, "event": "played"}]},
    ]
    for wrong in broken:
        assert mismatches(wrong, schema, strict=True) != [], wrong


def test_every_answer_in_both_documents_is_described() -> None:
    """No operation of the dashboard or the league answers JSON without a schema (``{}``)."""
    for document in (DOCUMENT, league_spec()):
        for path, item in document["paths"].items():
            for method, operation in item.items():
                for code, response in operation["responses"].items():
                    for kind, media in response.get("content", {}).items():
                        where = f"{method.upper()} {path} {code} {kind}"
                        assert media.get("schema"), f"{where}: no schema"


def test_an_option_line_about_a_face_down_card_is_what_the_document_says() -> None:
    """Every key of an option's line that holds a uid is null to a viewer when its card lies
    face down (the public view, CONTRACT.md): the document says so, key by key."""
    state = answer_schema(DOCUMENT["paths"]["/api/state"]["get"], 200)
    assert state is not None
    games = state["properties"]["state"]["oneOf"]
    for game in games:
        prompts = game["properties"]["prompts"]["items"]
        line = prompts["properties"]["options"]["items"]["properties"]["line"]
        held = {"tap": "04AB", "zone": "base-1", "tag": "04AB", "target": "04AB",
                "tags": ["04AB", "04CD"]}  # fmt: skip
        seen = public_view(held, {"04AB": None, "04CD": "card-0123456789ab"})
        assert seen == {"tap": None, "zone": "base-1", "tag": None, "target": None,
                        "tags": [None, "card-0123456789ab"]}  # fmt: skip
        assert mismatches(seen, line, strict=True) == []
        assert mismatches({**seen, "zone": None}, line, strict=True) != []  # the check can fail
