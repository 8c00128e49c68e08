"""Every tap meaning of the tape contract, and every prompt, as small tapes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected, TapeError
from companion.tracker.document import state_document
from tests.tapes import HEADER, doc, inp, run, tap

TREEHOUSE = [tap("B1", "base-1"), tap("H1", "base-1"), tap("H2", "base-1")]


def base1(document: dict) -> dict:
    return next(b for b in document["bases"] if b["zone"] == "base-1")


def prompt_kinds(document: dict) -> list[str]:
    return [p["kind"] for p in document["prompts"]]


def test_base_then_its_monsters(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE)
    base = base1(document)
    assert base["card"] == "munchkin/treehouse"
    assert [m["card"] for m in base["monsters"]] == ["munchkin/hippogriff"] * 2
    assert all(m["controller"] is None for m in base["monsters"])
    assert (base["printed_breakpoint"], base["breakpoint"]) == (15, 21)
    assert base["monsters_to_place"] == 0


def test_minion_played_by_its_owner(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE, tap("TC", "base-1"))
    minion = base1(document)["minions"][0]
    assert (minion["card"], minion["controller"], minion["power"]) == (
        "munchkin/topper-chopper",
        "Ann",
        5,
    )
    assert base1(document)["power"] == {"Ann": 5}


def test_treasure_minion_belongs_to_the_current_player(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE, inp("end-turn"), tap("HH", "base-1"))
    assert base1(document)["minions"][0]["controller"] == "Ben"


def test_minion_in_play_moves_with_counters_and_attachments(catalogue: Catalogue) -> None:
    document = doc(
        catalogue,
        *TREEHOUSE,
        tap("B2", "base-2"),
        tap("H3", "base-2"),
        tap("H1", "base-2"),
        tap("BH", "base-1"),
        tap("DB", "base-1"),
        tap("BH", "base-1"),
        inp("counter", tag="BH", delta=2),
        tap("BH", "base-2"),
    )
    moved = next(b for b in document["bases"] if b["zone"] == "base-2")["minions"][0]
    assert moved["card"] == "munchkin/big-hero"
    assert moved["power"] == 5 + 3 + 2  # printed, Dumbbells, counters
    assert moved["actions"][0]["card"] == "munchkin/dumbbells"


def test_action_on_a_base_attaches(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE, tap("SS", "base-1"))
    assert base1(document)["actions"][0]["card"] == "munchkin/secret-stash"


def test_action_on_a_minion_takes_the_next_minion_tap_there(catalogue: Catalogue) -> None:
    document = doc(
        catalogue, *TREEHOUSE, tap("TC", "base-1"), tap("DB", "base-1"), tap("TC", "base-1")
    )
    minion = base1(document)["minions"][0]
    assert minion["power"] == 8 and minion["actions"][0]["controller"] == "Cat"
    assert document["pending"] is None and document["prompts"] == []


def test_treasure_action_on_a_minion(catalogue: Catalogue) -> None:
    document = doc(
        catalogue, *TREEHOUSE, tap("TC", "base-1"), tap("CH", "base-1"), tap("TC", "base-1")
    )
    assert base1(document)["minions"][0]["power"] == 7


def test_standard_action_is_played_and_discarded(catalogue: Catalogue) -> None:
    game = run(catalogue, *TREEHOUSE, tap("MT", "base-1"), tap("FE", "base-1"))
    assert game.state.pending is None


def test_card_in_play_tapped_at_discard_leaves(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE, tap("TC", "base-1"), tap("TC", "discard"))
    assert base1(document)["minions"] == []


def test_destroyed_monster_gives_treasure_draws_to_current_player(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE, tap("H1", "discard"))
    assert document["treasure_draws"] == [
        {"player": "Ann", "count": 1, "card": "munchkin/hippogriff"}
    ]
    assert base1(document)["breakpoint"] == 18


def test_monster_outside_setup_is_played_uncontrolled(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE, tap("H3", "base-1"))
    assert len(base1(document)["monsters"]) == 3


def test_scoring_window_award_and_next_base(catalogue: Catalogue) -> None:
    document = doc(
        catalogue,
        tap("B3", "base-3"),
        *[tap(t, "base-3") for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
        inp("counter", tag="TP", delta=3),
        inp("score", zone="base-3"),
        tap("TP", "discard"),  # a before-scoring special drops the power under the breakpoint
        inp("award"),
        tap("B2", "base-3"),
    )
    scoring = document["scorings"][0]
    assert scoring["card"] == "core/the-central-brain"
    assert [(r["player"], r["place"]) for r in scoring["ranking"]] == [
        ("Ann", 1),
        ("Ben", 2),
        ("Cat", 3),
    ]
    assert [b["card"] for b in document["bases"]] == ["munchkin/the-mines"]


def test_award_deals_the_treasure_draft(catalogue: Catalogue) -> None:
    document = doc(
        catalogue,
        *TREEHOUSE,
        *[tap(t, "base-1") for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
        inp("counter", tag="MT", delta=2),
        inp("score", zone="base-1"),
        inp("award"),
    )
    treasures = document["scorings"][0]["treasures"]
    assert treasures == {"count": 2, "order": ["Ann", "Ben"]}


def test_control_counters_and_madness(catalogue: Catalogue) -> None:
    document = doc(
        catalogue,
        *TREEHOUSE,
        inp("control", tag="H1", player="Ben"),
        inp("madness", player="Cat", delta=2),
    )
    assert base1(document)["power"] == {"Ben": 3}
    assert document["players"][2]["madness"] == 2


def test_end_turn_passes_clockwise(catalogue: Catalogue) -> None:
    document = doc(catalogue, inp("end-turn"), inp("end-turn"))
    assert (document["turn"], document["current_player"]) == (3, "Cat")


def test_extra_plays_are_noted_never_refused(catalogue: Catalogue) -> None:
    game = run(catalogue, *TREEHOUSE, tap("TC", "base-1"))
    outcome = game.apply(tap("SL", "base-1"))
    assert outcome.changed
    assert any("2 minions" in e.get("text", "") for e in outcome.events)


def test_undo_reverts_exactly_one_and_two(catalogue: Catalogue) -> None:
    plain = doc(catalogue, *TREEHOUSE)
    once = doc(catalogue, *TREEHOUSE, tap("TC", "base-1"), inp("undo"))
    twice = doc(
        catalogue, *TREEHOUSE, tap("TC", "base-1"), tap("SL", "base-1"), inp("undo"), inp("undo")
    )
    for document in (once, twice):
        document.pop("version")
    plain.pop("version")
    assert once == plain == twice


@pytest.mark.parametrize(
    ("lines", "kind"),
    [
        ([tap("ZZ99", "base-1")], "unknown-tag"),
        ([*TREEHOUSE, tap("TC", "base-1"), tap("TC", "base-1")], "already-here"),
        ([*TREEHOUSE, tap("B2", "base-1")], "base-occupied"),
        ([tap("TC", "base-2")], "no-base"),
        ([tap("B3", "base-3"), tap("DB", "base-3")], "needs-target"),
        (
            [tap("B3", "base-3"), tap("TC", "base-3"), tap("DB", "base-3"), tap("MT", "base-3")],
            "needs-target",
        ),
        ([*TREEHOUSE, tap("CP", "base-1")], "unknown-owner"),
        ([tap("TC", "discard")], "not-in-play"),
        ([*TREEHOUSE, tap("B1", "discard")], "base-at-discard"),
    ],
)
def test_reads_that_make_no_sense_become_prompts(
    catalogue: Catalogue, lines: list[dict], kind: str
) -> None:
    document = doc(catalogue, *lines)
    assert kind in prompt_kinds(document)
    prompt = next(p for p in document["prompts"] if p["kind"] == kind)
    assert prompt["options"] and prompt["message"]


def test_answering_a_prompt_applies_its_option(catalogue: Catalogue) -> None:
    game = run(catalogue, *TREEHOUSE, tap("CP", "base-1"))
    prompt = game.state.prompts[0]
    labels = [o.label for o in prompt.options]
    game.apply({"input": "answer", "prompt": prompt.id, "option": labels.index("Ben's")})
    assert game.state.prompts == ()
    assert game.state.header.tags["CP"].owner == "Ben"


def test_base_occupied_answer_replaces_the_base(catalogue: Catalogue) -> None:
    game = run(catalogue, *TREEHOUSE, tap("TC", "base-1"), tap("B2", "base-1"))
    prompt = game.state.prompts[0]
    game.apply({"input": "answer", "prompt": prompt.id, "option": 0})
    base = game.state.table.base_at("base-1")
    assert base is not None and base.card == "munchkin/the-mines" and base.minions == ()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (inp("award"), "no base has been chosen"),
        (inp("score", zone="base-1"), "not ready"),
        (inp("counter", tag="TC", delta=1), "not in play"),
        (inp("madness", player="Zed", delta=1), "not playing"),
        (inp("fly"), "unknown input"),
        ({"tap": "TC"}, "needs"),
        (tap("TC", "base-9"), "unknown zone"),
    ],
)
def test_inputs_that_cannot_apply_stop_replay_naming_the_line(
    catalogue: Catalogue, line: dict, message: str
) -> None:
    with pytest.raises(TapeError, match=message) as raised:
        run(catalogue, tap("B1", "base-1"), line)
    assert raised.value.line == 3


def test_undo_with_nothing_to_undo_is_refused(catalogue: Catalogue) -> None:
    with pytest.raises(TapeError, match="nothing to undo"):
        run(catalogue, inp("undo"))


def test_action_waiting_for_a_target_can_be_discarded(catalogue: Catalogue) -> None:
    game = run(
        catalogue, *TREEHOUSE, tap("TC", "base-1"), tap("DB", "base-1"), tap("DB", "discard")
    )
    assert game.state.pending is None and game.state.prompts == ()


def test_action_waiting_for_a_target_then_something_else_asks(catalogue: Catalogue) -> None:
    game = run(catalogue, *TREEHOUSE, tap("TC", "base-1"), tap("DB", "base-1"), tap("SL", "base-1"))
    assert [p.kind for p in game.state.prompts] == ["needs-target"]
    assert game.state.table.locate("SL") is not None  # the other tap still counts
    prompt = game.state.prompts[0]
    choice = [o.label for o in prompt.options].index("Attach to Topper Chopper")
    game.apply({"input": "answer", "prompt": prompt.id, "option": choice})
    assert game.state.table.locate("TC")[1].attached[0].card == "munchkin/dumbbells"


def test_one_turn_action_asks_for_its_minion_and_expires(catalogue: Catalogue) -> None:
    header = {
        **HEADER,
        "tags": {**HEADER["tags"], "AU": "core/augmentation"},
        "factions": {**HEADER["factions"], "Ben": ["core/dinosaurs", "munchkin/thieves"]},
    }
    game = run(
        catalogue,
        *TREEHOUSE,
        tap("TC", "base-1"),
        inp("end-turn"),
        tap("AU", "base-1"),
        header=header,
    )
    prompt = game.state.prompts[0]
    assert prompt.kind == "choose-target"
    choice = [o.label for o in prompt.options].index("Topper Chopper on Treehouse")
    game.apply({"input": "answer", "prompt": prompt.id, "option": choice})
    assert state_document(game.state, catalogue)["bases"][0]["minions"][0]["power"] == 9
    game.apply(inp("end-turn"))
    assert state_document(game.state, catalogue)["bases"][0]["minions"][0]["power"] == 5


def test_tap_at_a_zone_that_is_not_a_base_asks(catalogue: Catalogue) -> None:
    header = {**HEADER, "zones": [*HEADER["zones"], "seat-1"]}
    document = doc(catalogue, tap("TC", "seat-1"), header=header)
    assert prompt_kinds(document) == ["wrong-zone"]


def test_taps_after_the_game_is_over_ask_nothing_and_say_so(catalogue: Catalogue) -> None:
    game = run(catalogue, *TREEHOUSE)
    game.state = replace(game.state, table=replace(game.state.table, vp=(15, 0, 0)))
    game.apply(inp("end-turn"))
    assert game.state.table.winners == ("Ann",)
    outcome = game.apply(tap("TC", "base-1"))
    assert game.state.prompts == ()  # a finished game asks nothing
    assert [e["text"] for e in outcome.events if e["event"] == "note"] == [
        "The game is over (Ann won). Undo to go on."
    ]
    with pytest.raises(Rejected, match="game is over"):
        game.apply(inp("end-turn"))
    game.apply(inp("undo"))
    assert game.state.table.winners == ()


def test_releasing_a_monster_and_refusing_to_release_a_minion(catalogue: Catalogue) -> None:
    game = run(
        catalogue,
        *TREEHOUSE,
        tap("TC", "base-1"),
        inp("control", tag="H1", player="Ann"),
        inp("control", tag="H1", player=None),
    )
    assert game.state.table.locate("H1")[1].controller is None
    with pytest.raises(Rejected, match="only a monster"):
        game.apply(inp("control", tag="TC", player=None))


def test_bury_hides_a_card_and_tapping_it_there_uncovers_it(catalogue: Catalogue) -> None:
    document = doc(catalogue, *TREEHOUSE, inp("bury", tag="TC", zone="base-1"))
    base = base1(document)
    assert base["buried"] == [{"tag": "TC", "controller": "Ann"}]
    assert base["power"] == {} and base["minions"] == []
    uncovered = doc(
        catalogue, *TREEHOUSE, inp("bury", tag="TC", zone="base-1"), tap("TC", "base-1")
    )
    base = base1(uncovered)
    assert base["buried"] == [] and base["power"] == {"Ann": 5}


def test_buried_cards_go_when_the_base_scores(catalogue: Catalogue) -> None:
    document = doc(
        catalogue,
        tap("B3", "base-3"),
        *[tap(t, "base-3") for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
        inp("bury", tag="DB", zone="base-3"),
        inp("score", zone="base-3"),
        inp("award"),
        tap("B3", "base-3"),
    )
    assert document["bases"][0]["buried"] == []


def test_crosstalk_asks_where_the_card_is(catalogue: Catalogue) -> None:
    game = run(
        catalogue,
        *TREEHOUSE,
        tap("B2", "base-2"),
        tap("TC", "base-1"),
        inp("crosstalk", tag="TC", zones=["base-1", "base-2"]),
    )
    prompt = game.state.prompts[0]
    assert prompt.kind == "crosstalk" and "Topper Chopper" in prompt.message
    game.apply({"input": "answer", "prompt": prompt.id, "option": 1})
    assert game.state.table.locate("TC")[0].zone == "base-2"
