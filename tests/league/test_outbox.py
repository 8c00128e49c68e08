"""The table's outbox: a game enters it in the transaction that ends it, survives a restart,
follows an undo of the win, and a game abandoned unfinished goes as void. No league server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import StoreError
from companion.storage import log as game_log
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.table.service import TableService
from tests.league.games import push


def play(store: EventStore, tape: list[dict[str, Any]], catalogue: Catalogue) -> LiveGame:
    live = LiveGame.start(store, tape[0], catalogue)
    for line in tape[1:]:
        live.submit(line)
    return live


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    opened = EventStore.open(tmp_path / "table.db")
    opened.log.league_outbox = True
    return opened


def test_a_finished_game_is_queued_with_its_tape_and_the_tracker_s_claim(
    store: EventStore, catalogue: Catalogue
) -> None:
    game = push(1, "Ann", "Ben", "Cat")
    live = play(store, game["tape"], catalogue)
    [entry] = store.outbox.newest()
    assert entry.state == "pending" and entry.status == "finished"
    assert entry.game_id == live.game_id and entry.uid.endswith(f"-{live.game_id}")
    assert entry.payload["id"] == entry.uid
    assert entry.payload["tape"] == game["tape"]
    assert entry.payload["claimed"] == game["claimed"]
    assert store.log.game(live.game_id).ended is not None


def test_without_a_league_nothing_is_queued(tmp_path: Path, catalogue: Catalogue) -> None:
    with EventStore.open(tmp_path / "table.db") as plain:
        play(plain, push(1)["tape"], catalogue)
        assert plain.outbox.newest() == []


def test_the_outbox_row_and_the_end_of_the_game_are_one_transaction(
    store: EventStore, catalogue: Catalogue, monkeypatch: pytest.MonkeyPatch
) -> None:
    tape = push(1)["tape"]

    def broken(*args: Any) -> None:
        raise StoreError("the disk is full")

    monkeypatch.setattr(game_log, "queue_game", broken)
    live = LiveGame.start(store, tape[0], catalogue)
    for line in tape[1:]:
        live.submit(line)  # the winning line is stored; recording its end is retried later
    assert store.log.game(live.game_id).ended is None  # the end was rolled back with the outbox row
    assert store.outbox.newest() == []
    monkeypatch.undo()
    LiveGame.resume(store, live.game_id, catalogue)  # the restart finishes it, queued this time
    assert store.log.game(live.game_id).ended is not None
    assert [e.status for e in store.outbox.newest()] == ["finished"]


def test_the_outbox_survives_a_restart(tmp_path: Path, catalogue: Catalogue) -> None:
    with EventStore.open(tmp_path / "table.db") as first:
        first.log.league_outbox = True
        play(first, push(1)["tape"], catalogue)
        queued = first.outbox.newest()
    with EventStore.open(tmp_path / "table.db") as again:
        assert again.outbox.newest() == queued
        assert again.outbox.due(queued[0].queued + 1, settled_before=queued[0].queued + 1)


def test_an_undone_win_withdraws_the_game_and_the_next_win_queues_it_again(
    store: EventStore, catalogue: Catalogue
) -> None:
    tape = push(1)["tape"]
    live = play(store, tape, catalogue)
    live.submit({"input": "undo"})
    assert store.outbox.newest() == [] and store.log.game(live.game_id).ended is None
    live.submit(tape[-1])  # the same winning line again
    [entry] = store.outbox.newest()
    assert entry.payload["tape"] == [*tape, {"input": "undo"}, tape[-1]]


def test_a_game_replaced_unfinished_is_shipped_as_void(
    store: EventStore, catalogue: Catalogue
) -> None:
    tape = push(1)["tape"]
    live = LiveGame.start(store, tape[0], catalogue)
    for line in tape[1:30]:
        live.submit(line)
    service = TableService(live, {z: "mock:" for z in tape[0]["zones"]}, clock=lambda: 0.0)
    service.replace_game(LiveGame.start(store, tape[0], catalogue))
    [entry] = store.outbox.newest()
    assert entry.status == "void" and "claimed" not in entry.payload
    assert entry.payload["tape"] == tape[:30]
    record = store.log.game(live.game_id)
    assert record.void and record.ended is not None and not record.winners


def test_a_finished_game_replaced_is_not_void(store: EventStore, catalogue: Catalogue) -> None:
    tape = push(1)["tape"]
    live = play(store, tape, catalogue)
    service = TableService(live, {z: "mock:" for z in tape[0]["zones"]}, clock=lambda: 0.0)
    service.replace_game(LiveGame.start(store, tape[0], catalogue))
    assert [e.status for e in store.outbox.newest()] == ["finished"]
    assert not store.log.game(live.game_id).void


def test_guests_named_at_setup_travel_with_the_game(
    store: EventStore, catalogue: Catalogue
) -> None:
    tape = push(1, "Ann", "Zed")["tape"]
    tape[0]["guests"] = ["Zed"]
    play(store, tape, catalogue)
    assert store.outbox.newest()[0].payload["guests"] == ["Zed"]


def test_the_league_s_names_are_cached(store: EventStore) -> None:
    assert store.outbox.league_players() == ([], None)
    store.outbox.cache_league_players(["Ann", "Ben"])
    names, fetched = store.outbox.league_players()
    assert names == ["Ann", "Ben"] and fetched is not None
