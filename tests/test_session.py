"""A live game in front of the store: applied, stored, then acknowledged; or nothing at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected, StoreError
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from tests.tapes import HEADER, inp, tap


def test_lines_are_stored_with_their_events_and_survive_a_restart(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    with EventStore.open(tmp_path / "t.db") as store:
        live = LiveGame.start(store, HEADER, catalogue)
        live.submit(tap("B1", "base-1"))
        live.submit(tap("TC", "base-1"))
        log = store.log.entries(live.game_id)
        assert [entry.line for entry in log] == [tap("B1", "base-1"), tap("TC", "base-1")]
        assert log[1].events[0]["event"] == "played" and log[1].changed
    with EventStore.open(tmp_path / "t.db") as store:
        resumed = LiveGame.resume(store, 1, catalogue)
        assert resumed.game.state.table.locate("TC") is not None
        assert resumed.game.can_undo


def test_rejected_line_changes_nothing_and_is_kept_as_a_read(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    live.submit(tap("B1", "base-1"))
    before = live.game.state
    with pytest.raises(Rejected, match="not ready"):
        live.submit(inp("score", zone="base-1"))
    assert live.game.state is before and store.log.last_seq(live.game_id) == 1
    row = store.db.execute("SELECT kind, detail FROM reads").fetchone()
    assert row[0] == "rejected" and "not ready" in row[1]


def test_a_failed_write_rolls_the_game_back(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    live = LiveGame.start(store, HEADER, catalogue)
    live.submit(tap("B1", "base-1"))
    live.submit(tap("TC", "base-1"))
    before = live.game.state
    store.close()
    with pytest.raises(Exception):  # noqa: B017  (whatever the closed database raises)
        live.submit(inp("undo"))
    assert live.game.state is before and live.game.can_undo


def test_bad_header_is_refused(catalogue: Catalogue) -> None:
    with pytest.raises(StoreError, match="header is not valid"):
        LiveGame.start(EventStore.memory(), {**HEADER, "players": []}, catalogue)
