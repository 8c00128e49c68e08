"""Whole Munchkin Cthulhu turns and a whole game as tapes, through replay, the CLI, the store,
and random tapes (levels always 1 to 10, undo exact)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.main import main
from companion.errors import Rejected
from companion.tape.examples import example_tape
from companion.tape.lines import parse_header, read_lines
from companion.tracker.document import state_document
from companion.tracker.game import Game
from tests.cthulhu_tapes import HEADER, TAGS, doc, inp, player, tap


def levels_after(catalogue: Catalogue, turns: int) -> dict[str, int]:
    """Levels when ``turns`` turns of the bundled game have ended."""
    lines = list(read_lines(example_tape("cthulhu-3p").splitlines()))
    game = Game(parse_header(lines[0].event, catalogue), catalogue)
    ended = 0
    for line in lines[1:]:
        if ended == turns:
            break
        game.apply(line.event)
        ended += line.event.get("input") == "end-turn"
    return {p.name: p.level for p in game.state.table.players}


def test_the_bundled_game_turn_by_turn(catalogue: Catalogue) -> None:
    # the story is told in the tape's comments; each line here is one of its turns
    assert levels_after(catalogue, 1) == {"Ann": 2, "Ben": 1, "Cat": 1}  # kill
    assert levels_after(catalogue, 2) == {"Ann": 2, "Ben": 2, "Cat": 1}  # help + one-shot
    assert levels_after(catalogue, 3) == {"Ann": 2, "Ben": 2, "Cat": 1}  # ran, Bad Stuff
    assert levels_after(catalogue, 4) == {"Ann": 4, "Ben": 2, "Cat": 1}  # level card + kill
    assert levels_after(catalogue, 6) == {"Ann": 5, "Ben": 3, "Cat": 2}  # the odd one out
    assert levels_after(catalogue, 11) == {"Ann": 8, "Ben": 8, "Cat": 2}  # 2-level monster


def test_the_bundled_game_replays_to_its_winner_from_the_command_line(tmp_path: Path) -> None:
    tape = tmp_path / "cthulhu.jsonl"
    tape.write_text(example_tape("cthulhu-3p"))
    result = CliRunner().invoke(main, ["replay", str(tape), "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["game"] == "munchkin-cthulhu"
    assert [(p["name"], p["level"]) for p in document["players"]] == [
        ("Ann", 10),
        ("Ben", 8),
        ("Cat", 2),
    ]
    assert document["winner"] == "Ann" and document["winners"] == ["Ann"]
    assert document["last_combat"] == {
        "won": True,
        "levels": 2,
        "treasures": 4,
        "fighter": "Ann",
        "helper": "Ben",
    }
    ben = document["players"][1]
    spike = next(i for i in ben["items"] if i["card"].endswith("railroad-spike"))
    assert spike == {**spike, "in_use": False, "why_not": "Monster Whacker only"}


def test_a_sell_turn_and_a_cultist_win_as_tapes(catalogue: Catalogue) -> None:
    sold = doc(
        catalogue,
        tap("TESLA", "seat-1"),
        tap("FLAME", "seat-1"),
        inp("sell", player="Margot", tags=["TESLA", "FLAME"]),  # 1,700 gold
        inp("end-turn"),
    )
    assert player(sold, "Margot")["level"] == 2 and player(sold, "Margot")["items"] == []
    assert sold["current_player"] == "Gene"
    cult = doc(catalogue, tap("CU1", "seat-1"), tap("CU2", "seat-2"), tap("CU3", "seat-3"))
    assert cult["winners"] == ["Chris"]  # the level as the last non-Cultist made him highest


CARDS = sorted(TAGS)
LINES = st.one_of(
    st.builds(tap, st.sampled_from(CARDS), st.sampled_from(HEADER["zones"])),
    st.builds(
        lambda p, d: inp("level", player=p, delta=d),
        st.sampled_from(HEADER["players"]),
        st.integers(-12, 12),
    ),
    st.builds(lambda p: inp("help", player=p), st.sampled_from(HEADER["players"])),
    st.just(inp("resolve")),
    st.just(inp("end-turn")),
    st.just(inp("undo")),
    st.builds(
        lambda p, r: inp("run-away", player=p, roll=r),
        st.sampled_from(HEADER["players"]),
        st.integers(1, 6),
    ),
    st.builds(
        lambda p, t: inp("sell", player=p, tags=t),
        st.sampled_from(HEADER["players"]),
        st.lists(st.sampled_from(CARDS), min_size=1, max_size=3, unique=True),
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, max_size=40))
def test_random_tapes_keep_levels_in_bounds_and_undo_exact(lines: list[dict[str, Any]]) -> None:
    catalogue = load_catalogue()
    game = Game(parse_header(HEADER, catalogue), catalogue)
    history = [state_document(game.state, catalogue)]
    for line in lines:
        try:
            outcome = game.apply(line)
        except Rejected:
            continue
        document = state_document(game.state, catalogue)
        assert all(1 <= p["level"] <= 10 for p in document["players"])
        reached_ten = [p["name"] for p in document["players"] if p["level"] == 10]
        assert set(reached_ten) <= set(document["winners"]) or not reached_ten
        if line.get("input") == "undo":
            history.pop()
            assert {**document, "version": 0, "prompts": []} == {
                **history[-1],
                "version": 0,
                "prompts": [],
            }
        elif outcome.changed:
            history.append(document)
