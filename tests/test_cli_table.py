"""``companion new-game``, the player options and ``companion token``."""

from __future__ import annotations

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
        record = store.latest_open_game()
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
