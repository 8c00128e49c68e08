"""The table screen's story: the last events in words without what an undo took back, what
Undo would take back, and right after an undo what Redo puts back (the undo toast's words),
all from the tracker's own undo grouping (companion.table.story words it)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from companion.table.service import TableService
from tests.conftest import AUTH


def state(client: FlaskClient, **headers: str) -> dict[str, Any]:
    """The state as the tablet that acts sees it (a holder of the token)."""
    return client.get("/api/state", headers=headers or AUTH).get_json()  # type: ignore[no-any-return]


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
    watching = client.get("/api/state").get_json()  # a viewer is never given a uid
    assert watching["redo"]["text"] == now["redo"]["text"]
    assert watching["redo"]["line"]["tap"] not in ("TC", None)
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


def test_the_grouping_is_the_trackers_own_undo(service: TableService) -> None:
    """A line that changed nothing goes with the change before it (an undo takes both back);
    lines before any change stay; what the last undo took back is there to redo until a
    change."""
    game = service.playing().game
    service.submit({"input": "dismiss"})  # nothing to dismiss: changes nothing, nothing undoable
    assert game.undoable is None and [t.line for t in game.told()] == [{"input": "dismiss"}]
    service.submit({"tap": "B1", "zone": "base-1"})
    service.submit({"tap": "TC", "zone": "base-1"})
    service.submit({"input": "dismiss"})
    assert game.undoable is not None and game.undoable.line == {"tap": "TC", "zone": "base-1"}
    service.submit({"input": "undo"})  # takes the dismiss back with Topper Chopper
    assert [t.version for t in game.told()] == [2, 1]
    assert game.undone is not None and game.undone.line == {"tap": "TC", "zone": "base-1"}
    service.submit({"input": "dismiss"})  # changes nothing: redo stays
    assert game.undone is not None
    service.submit({"tap": "SL", "zone": "base-1"})
    assert game.undone is None


def test_a_failed_store_rolls_the_grouping_back(service: TableService) -> None:
    game = service.playing().game
    service.submit({"tap": "B1", "zone": "base-1"})
    service.submit({"tap": "TC", "zone": "base-1"})
    before = (list(game.told()), game.undoable, game.undone)
    for line in ({"input": "undo"}, {"input": "dismiss"}, {"tap": "SL", "zone": "base-1"}):
        checkpoint = game.checkpoint()
        game.apply(line)  # type: ignore[arg-type]
        game.rollback(checkpoint)  # as LiveGame does when the store refuses the line
        assert (list(game.told()), game.undoable, game.undone) == before


def test_a_long_undo_run_still_says_the_oldest_change(service: TableService) -> None:
    service.submit({"tap": "B1", "zone": "base-1"})
    for uid in ("TC", "SL", "MT"):
        service.submit({"tap": uid, "zone": "base-1"})
    for _ in range(3):
        service.submit({"input": "undo"})
    view = service.view
    assert "Treehouse entered" in [item["text"] for item in view.recent]
    assert not any("Chopper" in item["text"] for item in view.recent)
    assert view.redo is not None and view.redo.line == {"tap": "TC", "zone": "base-1"}
    assert view.undo == "Treehouse entered"
