"""``companion new-game``, the player options and ``companion token``."""

from __future__ import annotations

import time
from pathlib import Path

from click.testing import CliRunner

from companion.cli.main import main
from companion.storage.store import EventStore


def test_new_game_takes_the_enrolled_tags(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    runner = CliRunner()
    runner.invoke(main, ["enrol", "bind", "04AB", "munchkin/sword-lord", "--db", db])
    result = runner.invoke(
        main,
        [
            "new-game",
            "--player",
            "Ann=munchkin/orcs,munchkin/elves",
            "--player",
            "Ben=core/ninjas,core/robots",
            "--zones",
            "3",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "game 1 started with 1 enrolled tags" in result.output
    with EventStore.open(db) as store:
        record = store.log.latest_open_game()
        assert record is not None and record.players == ["Ann", "Ben"]
        assert record.header["zones"] == ["base-1", "base-2", "base-3", "discard"]
        assert record.header["tags"] == {"04AB": "munchkin/sword-lord"}


def test_player_options_are_checked(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "g.db")
    one = runner.invoke(main, ["new-game", "--player", "Ann=core/ninjas,core/robots", "--db", db])
    assert one.exit_code != 0 and "2 to 4 players" in one.output
    same = runner.invoke(
        main,
        [
            "new-game",
            "--player",
            "Ann=core/ninjas,core/ninjas",
            "--player",
            "Ben=core/robots,core/aliens",
            "--db",
            db,
        ],
    )
    assert same.exit_code != 0 and "NAME=FACTION,FACTION" in same.output
    unknown = runner.invoke(
        main,
        [
            "simulate",
            "--player",
            "Ann=core/pixies,core/robots",
            "--player",
            "Ben=core/ninjas,core/aliens",
        ],
    )
    assert unknown.exit_code != 0 and "core/pixies" in unknown.output


def test_serve_needs_a_table_or_simulate() -> None:
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code != 0 and "--simulate" in result.output


def test_token_prints_the_control_token(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    EventStore.open(db).close()
    first = CliRunner().invoke(main, ["token", "--db", db])
    second = CliRunner().invoke(main, ["token", "--db", db])
    assert first.exit_code == 0
    assert first.output.splitlines()[0] == second.output.splitlines()[0]
    assert len(first.output.splitlines()[0]) >= 32


def test_games_says_how_each_game_stands(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    header = {
        "tape": 1,
        "game": "smashup",
        "players": ["Ann", "Ben"],
        "factions": {"Ann": ["core/aliens", "core/ninjas"], "Ben": ["core/robots", "core/pirates"]},
        "zones": ["base-1", "discard"],
        "tags": {},
    }
    with EventStore.open(db, clock=lambda: 1_700_000_000.0) as store:
        voided, abandoned, won, nobody, playing = (store.log.create_game(header) for _ in range(5))
        store.log.void_game(voided, "a tablet at 192.0.2.9 (control token)")
        store.log.finish_game(won, ["Ben"])
        store.log.finish_game(nobody, [])
    result = CliRunner().invoke(main, ["games", "--db", str(db)])
    assert result.exit_code == 0, result.output
    said = {int(line.split()[0]): line for line in result.output.splitlines()}
    assert said[voided].endswith(
        "void: ended unfinished by a tablet at 192.0.2.9 (control token)"
        + time.strftime(" on %Y-%m-%d at %H:%M", time.localtime(1_700_000_000.0))
    )
    assert said[abandoned].endswith("abandoned: left unfinished when a newer game started")
    assert said[won].endswith("won by Ben")
    assert said[nobody].endswith("ended with no winner")
    assert said[playing].endswith("in progress")
    assert "won by \n" not in result.output + "\n"
