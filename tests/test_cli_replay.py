"""``companion replay`` and ``companion export``: the tape contract from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from companion.cli.main import main
from tests.tapes import HEADER, inp, tap, tape


def write(tmp_path: Path, lines: list[str], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_replay_json_prints_the_state_document(tmp_path: Path) -> None:
    path = write(tmp_path, tape(tap("B1", "base-1"), tap("H1", "base-1"), tap("TC", "base-1")))
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert set(document) >= {
        "game",
        "turn",
        "current_player",
        "players",
        "bases",
        "scorings",
        "treasure_draws",
        "winner",
    }
    base = document["bases"][0]
    assert set(base) >= {
        "zone",
        "card",
        "printed_breakpoint",
        "breakpoint",
        "total",
        "ready",
        "power",
        "minions",
        "monsters",
    }
    assert base["minions"][0] == {
        **base["minions"][0],
        "tag": "TC",
        "card": "munchkin/topper-chopper",
        "controller": "Ann",
        "power": 5,
    }
    assert document["players"][0] == {
        **document["players"][0],
        "name": "Ann",
        "vp": 0,
        "madness": 0,
    }


def test_comments_and_blank_lines_are_ignored(tmp_path: Path) -> None:
    lines = tape(tap("B1", "base-1"))
    path = write(tmp_path, [lines[0], "", "   # a comment", lines[1]])
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["bases"]


def test_bad_json_line_stops_replay_naming_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, [*tape(tap("B1", "base-1")), "{not json"])
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code != 0
    assert "line 3" in result.stderr and result.stdout == ""


def test_unacceptable_event_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, tape(tap("B1", "base-1"), inp("award")))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code != 0 and "line 3" in result.stderr


def test_unknown_card_in_header_is_refused_naming_it(tmp_path: Path) -> None:
    header = {**HEADER, "tags": {**HEADER["tags"], "ZZ": "munchkin/no-such-card"}}
    path = write(tmp_path, tape(header=header))
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code != 0
    assert "munchkin/no-such-card" in result.stderr and "line 1" in result.stderr


def test_replay_without_json_prints_a_table(tmp_path: Path) -> None:
    path = write(tmp_path, tape(tap("B1", "base-1"), tap("TC", "base-1")))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0
    assert "Treehouse" in result.output and "Topper Chopper" in result.output


def test_export_then_replay_gives_the_identical_state(tmp_path: Path) -> None:
    lines = tape(
        tap("B1", "base-1"),
        tap("H1", "base-1"),
        tap("TC", "base-1"),
        tap("ZZ", "base-1"),
        inp("counter", tag="TC", delta=2),
        inp("end-turn"),
        tap("MT", "base-1"),
        inp("undo"),
        tap("FE", "base-1"),
    )
    original = write(tmp_path, lines)
    db = tmp_path / "games.db"
    runner = CliRunner()
    stored = runner.invoke(main, ["import", str(original), "--db", str(db)])
    assert stored.exit_code == 0, stored.output
    exported = runner.invoke(main, ["export", "1", "--db", str(db)])
    assert exported.exit_code == 0, exported.output
    copy = tmp_path / "export.jsonl"
    copy.write_text(exported.output, encoding="utf-8")
    first = runner.invoke(main, ["replay", str(original), "--json"])
    second = runner.invoke(main, ["replay", str(copy), "--json"])
    assert json.loads(first.output) == json.loads(second.output)


def test_the_installed_command_runs(tmp_path: Path) -> None:
    path = write(tmp_path, tape(tap("B1", "base-1")))
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["bases"][0]["card"] == "munchkin/treehouse"


# Bad input: refused naming the line, never a traceback (issue 15)

BROKEN_LINES = {
    "invalid-utf8": (b'{"tap": "B1", "zone": "base-\xff1"}', "not valid UTF-8"),
    "deep": (b"[" * 1200 + b"]" * 1200, "nested more than"),
    "huge-int": (
        b'{"input": "madness", "player": "Ann", "delta": ' + b"9" * 4400 + b"}",
        "too long",
    ),
    "nan": (b'{"tap": "B1", "zone": "base-1", "at": NaN}', "NaN is not a JSON number"),
    "infinity": (b'{"input": "madness", "player": "Ann", "delta": Infinity}', "Infinity"),
    "overflow": (b'{"tap": "B1", "zone": "base-1", "at": 1e999}', "too large"),
    "surrogate": (b'{"tap": "B1", "zone": "base-1", "player": "\\ud800"}', "lone surrogate"),
    "at-text": (b'{"tap": "B1", "zone": "base-1", "at": "soon"}', '"at" must be a number'),
    "at-negative": (b'{"tap": "B1", "zone": "base-1", "at": -4}', '"at" must be from 0'),
    "delta-big": (b'{"input": "madness", "player": "Ann", "delta": 101}', '"delta" must be from'),
    "count-big": (
        b'{"input": "bury", "zone": "base-1", "player": "Ann", "count": 1001}',
        '"count" must be from 0 to 1000',
    ),
    "tags-type": (b'{"input": "sell", "player": "Ann", "tags": [1]}', '"tags" must be a list'),
}


def test_broken_lines_are_refused_naming_the_line(tmp_path: Path) -> None:
    runner = CliRunner()
    for kind, (line, said) in BROKEN_LINES.items():
        good = tape(tap("B1", "base-1"))
        path = tmp_path / f"{kind}.jsonl"
        path.write_bytes("\n".join(good).encode() + b"\n" + line + b"\n")
        result = runner.invoke(main, ["replay", str(path), "--json"])
        assert result.exit_code == 1, kind
        assert result.stdout == "", kind
        assert "line 3" in result.stderr and said in result.stderr, (kind, result.stderr)
        assert "Traceback" not in result.output


def test_a_header_saying_tape_true_is_not_version_1(tmp_path: Path) -> None:
    header = json.dumps({**HEADER, "tape": True})
    result = CliRunner().invoke(main, ["replay", str(write(tmp_path, [header]))])
    assert result.exit_code == 1 and '"tape": 1' in result.stderr


def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path: Path) -> None:
    """A lone surrogate in what is printed (a file name the OS hands back undecodable) is
    written escaped, not a UnicodeEncodeError."""
    path = Path(str(tmp_path / "tape-\udcff.jsonl"))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert "\\udcff" in result.stderr and "cannot read the tape" in result.stderr
