"""The table's shipper against a real league server (the league app on a real HTTP server and
PostgreSQL): it ships what the outbox holds, waits and retries while the league is away, sends
everything when it is back, and keeps a refusal with its reason."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.league.database import Connection
from companion.league.shipper import Shipper
from companion.storage.store import EventStore
from tests.league.conftest import League
from tests.league.games import push
from tests.league.test_league_night import LiveServer
from tests.league.test_outbox import play


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(tmp_path: Path, clock: Clock) -> Iterator[EventStore]:
    """A table's store on the test's clock (a shipper on the real clock finds it all due)."""
    store = EventStore.open(tmp_path / "table.db", clock=clock)
    store.log.league_outbox = True
    yield store
    store.close()


def test_a_finished_game_is_shipped_and_counted(
    league: League, table: EventStore, table_key: str, db: Connection, catalogue: Catalogue
) -> None:
    game = push(1, "Ann", "Ben", "Cat")
    play(table, game["tape"], catalogue)
    shipper = Shipper(table, league.url, table_key, settle=0)
    assert shipper.ship_due() == 1
    [entry] = table.outbox.newest()
    assert entry.state == "sent" and entry.answer == {
        "id": entry.uid, "status": "counted", "season": "Season 1", "duplicate": False,
        "dispute": [],
    }  # fmt: skip
    row = db.execute("SELECT status, claimed FROM games WHERE uid = %s", [entry.uid]).fetchone()
    assert row["status"] == "counted" and row["claimed"]["vp"] == game["claimed"]["vp"]


def test_a_game_waits_for_the_settle_time(
    league: League, table: EventStore, table_key: str, catalogue: Catalogue, clock: Clock
) -> None:
    play(table, push(1)["tape"], catalogue)
    shipper = Shipper(table, league.url, table_key, settle=30, clock=clock)
    assert shipper.ship_due() == 0
    clock.now += 31
    assert shipper.ship_due() == 1


def test_a_night_offline_then_everything_ships(
    league: League,
    table: EventStore,
    table_key: str,
    db: Connection,
    catalogue: Catalogue,
    clock: Clock,
) -> None:
    league.stop()
    for seed in (1, 2, 3):
        play(table, push(seed)["tape"], catalogue)
    shipper = Shipper(table, league.url, table_key, settle=0, first=10, most=40, clock=clock)
    waits = []
    for _ in range(4):
        assert shipper.ship_due() == 0
        [first, *_] = sorted(table.outbox.newest(), key=lambda e: e.id)
        waits.append(first.next_try - clock.now)
        assert "cannot be reached" in (first.last_error or "")
        clock.now = first.next_try
    assert waits[0] <= 10 and waits[1] <= 20 and waits[3] <= 40 and waits[3] >= 20
    assert [e.attempts for e in sorted(table.outbox.newest(), key=lambda e: e.id)] == [4, 0, 0]
    league.start()
    assert shipper.ship_due() == 3
    assert {e.state for e in table.outbox.newest()} == {"sent"}
    assert db.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 3


def test_a_lost_answer_means_sending_again_and_the_league_keeps_one(
    league: League, table: EventStore, table_key: str, db: Connection, catalogue: Catalogue
) -> None:
    play(table, push(1)["tape"], catalogue)
    shipper = Shipper(table, league.url, table_key, settle=0)
    shipper.ship_due()
    table.db.execute("UPDATE outbox SET state = 'pending'")  # as if the answer never came
    table.db.conn.commit()
    assert shipper.ship_due() == 1
    assert table.outbox.newest()[0].answer["duplicate"] is True  # type: ignore[index]
    assert db.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 1


def test_a_game_changed_after_it_shipped_is_refused_and_kept(
    league: League, table: EventStore, table_key: str, catalogue: Catalogue
) -> None:
    tape = push(1)["tape"]
    live = play(table, tape, catalogue)
    shipper = Shipper(table, league.url, table_key, settle=0)
    shipper.ship_due()
    live.submit({"input": "undo"})
    live.submit(tape[-1])  # won again: a different tape under the same id
    assert shipper.ship_due() == 0
    refused = [e for e in table.outbox.newest() if e.state == "refused"]
    assert len(refused) == 1 and "409" in (refused[0].last_error or "")
    assert "different tape" in (refused[0].last_error or "")
    assert shipper.ship_due() == 0  # not sent again


def test_a_wrong_key_waits_instead_of_giving_up(
    league: League, table: EventStore, catalogue: Catalogue
) -> None:
    play(table, push(1)["tape"], catalogue)
    Shipper(table, league.url, "tk_not-a-key", settle=0).ship_due()
    [entry] = table.outbox.newest()
    assert entry.state == "pending" and "401" in (entry.last_error or "")


def test_the_league_s_names_are_fetched_and_kept_when_it_is_away(
    league: League, table: EventStore, table_key: str, catalogue: Catalogue
) -> None:
    play(table, push(1, "Ann", "Ben")["tape"], catalogue)
    shipper = Shipper(table, league.url, table_key, settle=0)
    shipper.ship_due()
    assert shipper.refresh_roster()
    assert table.outbox.league_players()[0] == ["Ann", "Ben"]
    league.stop()
    assert not shipper.refresh_roster()
    assert table.outbox.league_players()[0] == ["Ann", "Ben"]


def test_the_background_thread_ships_without_being_asked(
    league: League, table: EventStore, table_key: str, catalogue: Catalogue
) -> None:
    shipper = Shipper(table, league.url, table_key, settle=0, poll=0.05)
    shipper.start()
    try:
        play(table, push(1)["tape"], catalogue)
        for _ in range(200):
            if table.outbox.newest()[0].state == "sent":
                break
            threading.Event().wait(0.05)
        assert table.outbox.newest()[0].state == "sent"
    finally:
        shipper.stop()


def test_an_oversized_game_is_parked_and_the_games_behind_it_ship(
    league_db: str,
    table: EventStore,
    table_key: str,
    db: Connection,
    catalogue: Catalogue,
    clock: Clock,
    tmp_path: Path,
) -> None:
    """A push larger than the league takes is not sent (a server answers 413 before it has
    read the body, and a client still sending it sees a broken connection, not the answer):
    it is parked, said so in the outbox, and the games behind it ship (issue 22, 7)."""
    play(table, push(1)["tape"], catalogue)
    play(table, push(2)["tape"], catalogue)
    first, second = sorted(table.outbox.newest(), key=lambda e: e.id)
    note = {"input": "note", "text": "x" * 1000}  # a tape grown past the league's 8 MB
    oversized = {**first.payload, "tape": first.payload["tape"] + [note] * 9000}
    table.db.execute(
        "UPDATE outbox SET payload = ? WHERE id = ?", [json.dumps(oversized), first.id]
    )
    table.db.conn.commit()
    server = LiveServer(league_db, tmp_path / "league.log")  # gunicorn, as a league runs
    try:
        shipper = Shipper(table, server.url, table_key, settle=0, clock=clock)
        assert shipper.ship_due() == 1
        clock.now += 3600
        assert shipper.ship_due() == 0  # the parked game is not tried again
    finally:
        server.crash()
    parked, shipped = sorted(table.outbox.newest(), key=lambda e: e.id)
    assert shipped.id == second.id and shipped.state == "sent"
    assert parked.state == "too-large" and parked.attempts == 0
    assert "MB" in (parked.last_error or "") and "8 MB" in (parked.last_error or "")
    assert [row["uid"] for row in db.execute("SELECT uid FROM games").fetchall()] == [shipped.uid]
    listed = CliRunner().invoke(main, ["league", "outbox", "--db", table.name])
    assert f"{parked.uid}\tfinished\ttoo-large\t" in listed.output, listed.output


def test_a_table_restored_from_a_backup_ships_its_games_again_and_they_count_once(
    league: League,
    table: EventStore,
    table_key: str,
    db: Connection,
    catalogue: Catalogue,
    tmp_path: Path,
    clock: Clock,
) -> None:
    """A fresh store (a new table id) holding the same game sends it under a new id: the
    league names the game it already has, and the outbox says so."""
    tape = push(1)["tape"]
    play(table, tape, catalogue)
    assert Shipper(table, league.url, table_key, settle=0).ship_due() == 1
    restored = EventStore.open(tmp_path / "restored.db", clock=clock)
    try:
        restored.log.league_outbox = True
        play(restored, tape, catalogue)
        assert Shipper(restored, league.url, table_key, settle=0).ship_due() == 1
        [first], [again] = table.outbox.newest(), restored.outbox.newest()
        assert again.uid != first.uid and again.answer is not None
        assert again.answer["duplicate"] is True and again.answer["duplicate_of"] == first.uid
        listed = CliRunner().invoke(main, ["league", "outbox", "--db", restored.name])
        assert f"a duplicate of game {first.uid}, counted once" in listed.output, listed.output
    finally:
        restored.close()
    assert db.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 1
