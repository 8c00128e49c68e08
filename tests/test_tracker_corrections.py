"""A tap moved to where its card rests (``tap-moved``): the game becomes what it would be had
the card been read there in the first place, never a second play; undo takes it back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.errors import Rejected
from companion.tape.lines import parse_header
from companion.tracker.corrections import EMPTY, JOURNAL_KEPT, record
from companion.tracker.document import state_document
from companion.tracker.game import Game
from tests.cthulhu_tapes import doc as cthulhu_doc
from tests.cthulhu_tapes import tap as cthulhu_tap
from tests.tapes import HEADER, doc, inp, run, tap, tape

SETUP = [tap("B1", "base-1"), tap("H1", "base-1"), tap("H2", "base-1"), tap("B2", "base-2")]
SETUP += [tap("H3", "base-2")]  # the Mines' monster: both bases ready for minions


def moved(uid: str, origin: str, zone: str) -> dict[str, Any]:
    return inp("tap-moved", tag=uid, **{"from": origin}, zone=zone)


def same(catalogue: Catalogue, corrected: list[dict[str, Any]], direct: list[dict[str, Any]]):
    """The state documents of two tapes, but for their versions (lines count)."""
    first, second = doc(catalogue, *corrected), doc(catalogue, *direct)
    first.pop("version"), second.pop("version")
    assert first == second
    return first


def test_a_minion_is_played_where_it_rests_once(catalogue: Catalogue) -> None:
    document = same(
        catalogue,
        [*SETUP, tap("TC", "base-1"), moved("TC", "base-1", "base-2")],
        [*SETUP, tap("TC", "base-2")],
    )
    bases = {b["zone"]: [m["card"] for m in b["minions"]] for b in document["bases"]}
    assert bases == {"base-1": [], "base-2": ["munchkin/topper-chopper"]}


def test_an_action_is_played_where_it_rests_never_twice(catalogue: Catalogue) -> None:
    turn_of_ben = [*SETUP, inp("end-turn")]
    document = same(
        catalogue,
        [*turn_of_ben, tap("SS", "base-1"), moved("SS", "base-1", "base-2")],
        [*turn_of_ben, tap("SS", "base-2")],
    )
    actions = {b["zone"]: [a["card"] for a in b["actions"]] for b in document["bases"]}
    assert actions == {"base-1": [], "base-2": ["munchkin/secret-stash"]}


def test_the_lines_after_the_tap_are_applied_again(catalogue: Catalogue) -> None:
    same(
        catalogue,
        [
            *SETUP,
            tap("TC", "base-1"),
            tap("SL", "base-1"),
            inp("counter", tag="TC", delta=1),
            moved("TC", "base-1", "base-2"),
        ],
        [*SETUP, tap("TC", "base-2"), tap("SL", "base-1"), inp("counter", tag="TC", delta=1)],
    )


def test_brushing_two_zones_moves_the_tap_twice(catalogue: Catalogue) -> None:
    same(
        catalogue,
        [
            *SETUP,
            tap("TC", "base-1"),
            moved("TC", "base-1", "discard"),
            moved("TC", "discard", "base-2"),
        ],
        [*SETUP, tap("TC", "base-2")],
    )


def test_a_tap_that_never_reached_the_game_is_made_where_the_card_rests(
    catalogue: Catalogue,
) -> None:
    same(catalogue, [*SETUP, moved("TC", "base-3", "base-2")], [*SETUP, tap("TC", "base-2")])


def test_a_correction_a_later_line_no_longer_fits_is_refused(catalogue: Catalogue) -> None:
    game = run(catalogue, *SETUP, tap("TC", "base-1"), inp("counter", tag="TC", delta=1))
    before = game.state
    with pytest.raises(Rejected, match="cannot be moved to discard.*tap the card"):
        game.apply(moved("TC", "base-1", "discard"))  # then it could not take a counter
    assert game.state is before


def test_undo_takes_the_correction_back(catalogue: Catalogue) -> None:
    game = run(catalogue, *SETUP, tap("TC", "base-1"))
    at_base_1 = state_document(game.state, game.catalogue)
    outcome = game.apply(moved("TC", "base-1", "base-2"))
    assert outcome.changed
    assert [e["event"] for e in outcome.events] == ["tap-moved", "played"]
    game.apply(inp("undo"))
    undone = state_document(game.state, game.catalogue)
    at_base_1.pop("version"), undone.pop("version")
    assert undone == at_base_1


def test_a_correction_undone_and_made_again_is_the_same(catalogue: Catalogue) -> None:
    """What the timeline's Redo does: the same line, after its undo."""
    turn_of_ben = [*SETUP, inp("end-turn"), tap("SS", "base-1")]
    correction = moved("SS", "base-1", "base-2")
    same(
        catalogue,
        [*turn_of_ben, correction, inp("undo"), correction],
        [*SETUP, inp("end-turn"), tap("SS", "base-2")],
    )
    game = run(catalogue, *turn_of_ben, correction, inp("undo"), correction)
    assert game.state.actions_played == 1  # never a second play


def test_a_binding_made_since_the_tap_is_kept(catalogue: Catalogue) -> None:
    header = {**HEADER, "tags": {k: v for k, v in HEADER["tags"].items() if k != "SL"}}
    lines = [
        *SETUP,
        tap("TC", "base-1"),
        inp("counter", tag="H1", delta=1),
        inp("bind", tag="SL", card="munchkin/sword-lord"),
        inp("undo"),  # the counter taken back; the binding made after it stays
        moved("TC", "base-1", "base-2"),
        tap("SL", "base-1"),
    ]
    game = run(catalogue, *lines, header=header)
    assert "SL" in game.state.header.tags
    where = {tag: game.state.table.locate(tag) for tag in ("TC", "SL")}
    assert {tag: found[0].zone for tag, found in where.items() if found} == {
        "TC": "base-2",
        "SL": "base-1",
    }


def test_a_munchkin_cthulhu_tap_is_moved_too(catalogue: Catalogue) -> None:
    corrected = cthulhu_doc(
        catalogue, cthulhu_tap("TESLA", "seat-2"), moved("TESLA", "seat-2", "seat-1")
    )
    direct = cthulhu_doc(catalogue, cthulhu_tap("TESLA", "seat-1"))
    corrected.pop("version"), direct.pop("version")
    assert corrected == direct


def test_a_stored_line_rolled_back_leaves_no_tap_to_correct(catalogue: Catalogue) -> None:
    game = run(catalogue, *SETUP)
    checkpoint = game.checkpoint()
    game.apply(tap("TC", "base-1"))
    game.rollback(checkpoint)  # the store failed: that tap never happened
    game.apply(moved("TC", "base-1", "base-2"))
    assert game.state.minions_played == 1
    found = game.state.table.locate("TC")
    assert found is not None and found[0].zone == "base-2"


@pytest.mark.parametrize(
    ("line", "field"),
    [
        (inp("tap-moved", zone="base-2", **{"from": "base-1"}), '"tag"'),
        (inp("tap-moved", tag="TC", zone="base-2"), '"from"'),
        (inp("tap-moved", tag="TC", **{"from": "base-1"}), '"zone"'),
    ],
)
def test_a_correction_needs_its_fields(catalogue: Catalogue, line: dict, field: str) -> None:
    game = run(catalogue, *SETUP, tap("TC", "base-1"))
    with pytest.raises(Rejected, match=field):
        game.apply(line)


def test_the_journal_stays_bounded(catalogue: Catalogue) -> None:
    game = Game(parse_header(HEADER, catalogue), catalogue)
    for line in SETUP + [inp("counter", tag="H1", delta=1)] * (2 * JOURNAL_KEPT):
        game.apply(line)
    assert len(game._journal) == JOURNAL_KEPT
    assert game._journal.length < 2 * JOURNAL_KEPT  # the older states it held are let go


def test_recording_a_line_links_it_in_front_of_the_kept_ones() -> None:
    """Each line costs one link, not a copy of the kept lines (a live table records every
    line, and its 500 undo states each keep the journal of their time)."""
    lines = [{"input": "counter", "tag": "H1", "delta": n} for n in range(5 * JOURNAL_KEPT)]
    journal = EMPTY
    for n, line in enumerate(lines):
        recorded = record(journal, n, line)
        if journal.length + 1 < 2 * JOURNAL_KEPT:
            assert recorded.newest is not None and recorded.newest[2] is journal.newest
        journal = recorded
        first = max(0, n + 1 - JOURNAL_KEPT)
        assert [entry.line for entry in journal.entries()] == lines[first : n + 1]
        assert [entry.before for entry in journal.entries()] == list(range(first, n + 1))


def test_companion_replay_applies_a_moved_tap(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    lines = tape(*SETUP, tap("TC", "base-1"), moved("TC", "base-1", "base-2"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    bases = json.loads(result.output)["bases"]
    assert {b["zone"]: [m["card"] for m in b["minions"]] for b in bases} == {
        "base-1": [],
        "base-2": ["munchkin/topper-chopper"],
    }


def crosstalk_answered(
    catalogue: Catalogue, before: list[dict[str, Any]], uid: str, zones: list[str], option: int
) -> list[dict[str, Any]]:
    """``before``, the tap filter's crosstalk about ``uid`` and the prompt's answer."""
    asked = [*before, inp("crosstalk", tag=uid, zones=zones)]
    (prompt,) = [p for p in run(catalogue, *asked).state.prompts if p.kind == "crosstalk"]
    return [*asked, inp("answer", prompt=prompt.id, option=option)]


def test_answering_on_the_second_zone_moves_a_one_shot_action_never_plays_it_twice(
    catalogue: Catalogue,
) -> None:
    turn_of_ben = [*SETUP, inp("end-turn")]
    brushed = [*turn_of_ben, tap("SS", "base-1")]
    answered = crosstalk_answered(catalogue, brushed, "SS", ["base-1", "base-2"], 1)
    document = same(catalogue, answered, [*turn_of_ben, tap("SS", "base-2")])
    actions = {b["zone"]: [a["card"] for a in b["actions"]] for b in document["bases"]}
    assert actions == {"base-1": [], "base-2": ["munchkin/secret-stash"]}
    assert document["prompts"] == []
    game = run(catalogue, *answered)
    assert game.state.actions_played == 1
    # a later correction replays the journal: the settled crosstalk does not ask again
    game.apply(moved("SS", "base-2", "base-1"))
    assert game.state.prompts == () and game.state.actions_played == 1


def test_answering_on_the_first_zone_leaves_the_tap_where_it_was(catalogue: Catalogue) -> None:
    brushed = [*SETUP, tap("TC", "base-1")]
    answered = crosstalk_answered(catalogue, brushed, "TC", ["base-1", "base-2"], 0)
    document = same(catalogue, answered, brushed)
    assert document["prompts"] == []


def test_undo_reopens_the_crosstalk_prompt_with_the_tap_where_it_was(
    catalogue: Catalogue,
) -> None:
    asked = [*SETUP, tap("TC", "base-1"), inp("crosstalk", tag="TC", zones=["base-1", "base-2"])]
    game = run(catalogue, *asked)
    before = state_document(game.state, game.catalogue)
    (prompt,) = game.state.prompts
    outcome = game.apply(inp("answer", prompt=prompt.id, option=1))
    assert [e["event"] for e in outcome.events] == ["answered", "tap-moved", "played"]
    game.apply(inp("undo"))
    undone = state_document(game.state, game.catalogue)
    before.pop("version"), undone.pop("version")
    assert undone == before


def test_companion_replay_moves_the_tap_the_crosstalk_answer_says(
    catalogue: Catalogue, tmp_path: Path
) -> None:
    turn_of_ben = [*SETUP, inp("end-turn")]
    answered = crosstalk_answered(
        catalogue, [*turn_of_ben, tap("SS", "base-1")], "SS", ["base-1", "base-2"], 1
    )
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(tape(*answered)) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    bases = json.loads(result.output)["bases"]
    assert {b["zone"]: [a["card"] for a in b["actions"]] for b in bases} == {
        "base-1": [],
        "base-2": ["munchkin/secret-stash"],
    }
