"""A table's side of the league, without a league server: the [league] section of its config,
its dashboard offering the league's names at setup (guests too), and `companion serve`
shipping when the config has a league."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.cli.table import open_table
from companion.hardware.config import ConfigError
from companion.storage.store import EventStore
from companion.table.config import LeagueConfig, load_table_config
from companion.table.service import TableService
from tests.conftest import AUTH
from tests.league.games import push
from tests.league.test_outbox import play

ZONES = '[zones.base-1]\nreader = "sim:"\n[zones.base-2]\nreader = "sim:"\n'


def config(tmp_path: Path, league: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(f'[table]\ndb = "{tmp_path / "table.db"}"\n{ZONES}{league}')
    return path


def test_the_league_section_is_read(tmp_path: Path) -> None:
    league = '[league]\nurl = "http://192.168.1.20:8700/"\ntable_key = "tk_abc"\n'
    loaded = load_table_config(config(tmp_path, league))
    assert loaded.league == LeagueConfig("http://192.168.1.20:8700", "tk_abc", 30.0)
    assert load_table_config(config(tmp_path, "")).league is None


@pytest.mark.parametrize(
    ("league", "message"),
    [
        ('[league]\nurl = "192.168.1.20"\ntable_key = "k"\n', "league.url"),
        ('[league]\nurl = "http://x:1"\n', "league.table_key: this table's key"),
        ('[league]\nurl = "http://x:1"\ntable_key = "k"\nkey = 1\n', "league.key: unknown key"),
        ('[league]\nurl = "http://x:1"\ntable_key = "k"\nsettle_s = -1\n', "league.settle_s"),
    ],
)
def test_a_wrong_league_section_says_what_to_write(
    tmp_path: Path, league: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_table_config(config(tmp_path, league))


def test_serve_with_a_league_queues_finished_games(tmp_path: Path) -> None:
    league = '[league]\nurl = "http://127.0.0.1:9"\ntable_key = "tk_abc"\n'
    with_league = load_table_config(config(tmp_path, league))
    service = open_table(with_league, None)
    try:
        assert service.store.log.league_outbox
    finally:
        service.store.close()
    without = load_table_config(config(tmp_path, ""))
    service = open_table(without, str(tmp_path / "other.db"))  # a first boot: no game yet
    try:
        assert not service.store.log.league_outbox and service.live is None
    finally:
        service.store.close()


def test_the_dashboard_tells_the_league_and_its_names(
    client: FlaskClient, service: TableService
) -> None:
    assert client.get("/api/league").json["league"] is False
    store = service.live.store
    store.log.league_outbox = True
    store.outbox.cache_league_players(["Ann", "Ben", "Cat"])
    answer = client.get("/api/league").json
    assert answer["league"] is True and answer["players"] == ["Ann", "Ben", "Cat"]
    assert answer["outbox"] == {"pending": 0, "sent": 0, "refused": 0, "too-large": 0}


def _setup_body(guest: object) -> dict[str, object]:
    return {
        "players": [
            {"name": "Ann", "colour": "#112233", "factions": ["core/ninjas", "core/robots"]},
            {"name": "Zed", "colour": "#445566", "factions": ["core/aliens", "core/zombies"],
             "guest": guest},
        ],
        "zones": 2,
    }  # fmt: skip


def test_a_seat_can_play_as_a_guest(
    client: FlaskClient, service: TableService, catalogue: Catalogue
) -> None:
    replacing = {"replace": service.live.game_id}
    started = client.post("/api/games", json={**_setup_body(True), **replacing}, headers=AUTH)
    assert started.status_code == 201
    header = service.live.store.log.game(started.json["game_id"]).header
    assert header["guests"] == ["Zed"]
    replacing = {"replace": service.live.game_id}
    plain = client.post("/api/games", json={**_setup_body(False), **replacing}, headers=AUTH)
    assert "guests" not in service.live.store.log.game(plain.json["game_id"]).header
    wrong = client.post("/api/games", json=_setup_body("yes"), headers=AUTH)
    assert wrong.status_code == 400 and '"guest"' in wrong.json["error"]


def test_the_outbox_command_lists_what_waits_and_why(tmp_path: Path, catalogue: Catalogue) -> None:
    db = tmp_path / "table.db"
    with EventStore.open(db) as store:
        store.log.league_outbox = True
        play(store, push(1)["tape"], catalogue)
        [entry] = store.outbox.newest()
        store.outbox.retry(entry.id, "the league server cannot be reached", 0.0)
    shown = CliRunner().invoke(main, ["league", "outbox", "--db", str(db)])
    assert shown.exit_code == 0
    assert f"{entry.uid}\tfinished\twaiting, 1 attempts\tthe league server cannot be reached" in (
        shown.output
    )
    missing = CliRunner().invoke(main, ["league", "outbox", "--db", str(tmp_path / "no.db")])
    assert missing.exit_code == 1 and "no table database" in missing.output
    assert not (tmp_path / "no.db").exists()
