"""The table screen's story: the last events in words without what an undo took back, what
Undo would take back, and right after an undo what Redo puts back (the undo toast's words)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from companion.storage.records import LogEntry
from companion.table.service import TableService
from companion.web.timeline import timeline, walk
from companion.web.words import Words
from tests.conftest import AUTH


def state(client: FlaskClient) -> dict[str, Any]:
    return client.get("/api/state").get_json()  # type: ignore[no-any-return]


def send(client: FlaskClient, line: dict[str, Any]) -> None:
    version = state(client)["version"]
    answer = client.post("/api/input", json={"line": line, "version": version}, headers=AUTH)
    assert answer.status_code == 200, answer.get_json()


def texts(client: FlaskClient) -> list[str]:
    return [item["text"] for item in state(client)["recent"]]


def test_undo_says_what_it_takes_back_and_redo_puts_it_back(client: FlaskClient) -> None:
    send(client, {"tap": "B1", "zone": "base-1"})
    send(client, {"tap": "TC", "zone": "base-1"})
    assert state(client)["undo"] == "Ann played Topper Chopper on Treehouse"
    assert state(client)["redo"] is None
    send(client, {"input": "undo"})
    now = state(client)
    assert "Ann played Topper Chopper on Treehouse" not in texts(client)  # it left the list
    assert not any("Undone" in text for text in texts(client))
    assert now["redo"] == {
        "line": {"tap": "TC", "zone": "base-1"},
        "text": "Ann played Topper Chopper on Treehouse",
    }
    assert now["undo"] == "Treehouse entered"
    send(client, now["redo"]["line"])
    assert texts(client)[0] == "Ann played Topper Chopper on Treehouse"
    assert state(client)["redo"] is None


def test_undone_changes_stay_out_after_more_play(client: FlaskClient) -> None:
    send(client, {"tap": "B1", "zone": "base-1"})
    send(client, {"tap": "TC", "zone": "base-1"})
    send(client, {"input": "undo"})
    send(client, {"tap": "SL", "zone": "base-1"})
    send(client, {"input": "undo"})
    send(client, {"input": "undo"})  # takes Treehouse back too
    assert texts(client) == []
    assert state(client)["undo"] is None
    assert state(client)["redo"]["text"] == "Treehouse entered"


def entry(seq: int, line: dict[str, Any], changed: bool = True) -> LogEntry:
    return LogEntry(seq, None, 0.0, line, [], changed)  # type: ignore[arg-type]


def test_the_walk_keeps_lines_that_changed_nothing_with_the_change_before_them() -> None:
    a, b = entry(1, {"tap": "A", "zone": "z"}), entry(2, {"tap": "B", "zone": "z"})
    quiet = entry(3, {"tap": "Q", "zone": "z"}, changed=False)
    undo = entry(4, {"input": "undo"})
    walked = walk([a, b, quiet, undo])
    assert walked == ([[a]], [b, quiet])  # the undo took the quiet line back with b
    assert walk([quiet, a, undo]) == ([[quiet]], [a])  # lines before any change stay
    assert walk([a, undo, undo]) is None  # the second undo reaches before these lines


def test_a_long_undo_run_reads_further_back_in_the_log(service: TableService) -> None:
    service.submit({"tap": "B1", "zone": "base-1"})
    for uid in ("TC", "SL", "MT"):
        service.submit({"tap": uid, "zone": "base-1"})
    for _ in range(3):
        service.submit({"input": "undo"})
    live = service.live
    tags = {uid: bound.card for uid, bound in live.game.state.header.tags.items()}
    words = Words(live.game.catalogue, tags, {})
    told = timeline(lambda n: live.store.log.entries(live.game_id, last=n), words, 8, lines=2)
    assert "Treehouse entered" in [item["text"] for item in told.recent]
    assert not any("Chopper" in item["text"] for item in told.recent)
    assert told.redo is not None and told.redo["line"] == {"tap": "TC", "zone": "base-1"}
