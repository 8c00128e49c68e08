"""Prompts belong to a moment (README "Tapes": prompt lapse): when the turn ends, the card
leaves play, the base scores or the game ends, the tracker withdraws them and logs a
``lapsed`` event. Prompts about the physical truth wait until answered; a finished game asks
nothing and queues no deals."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.tracker.game import Game
from tests import cthulhu_tapes, tapes
from tests.oops_tapes import base_at, doc, inp, prompts, run, tap

# Ann has Pharaoh (5) at Jungle Oasis (12) and Ben Killer Queen (4) and Drone (4) there.
START = [
    tap("JO", "base-1"),
    tap("TP", "base-2"),
    tap("PH", "base-1"),
    tap("KQ", "base-1"),
    tap("DR", "base-1"),
]


def lapsed(game: Game, line: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in game.apply(line).events if e["event"] == "lapsed"]


def test_a_start_of_turn_uncover_lapses_when_that_turn_ends(catalogue: Catalogue) -> None:
    game = run(catalogue, *START, inp("bury", tag="SO", zone="base-2"), inp("end-turn"))
    asked = [p for p in game.state.prompts if p.kind == "uncover"]
    assert len(asked) == 1 and asked[0].moment.turn == 2
    events = lapsed(game, inp("end-turn"))
    assert [(e["prompt"], e["kind"], e["why"]) for e in events] == [
        (asked[0].id, "uncover", "turn-ended")
    ]
    assert events[0]["text"].startswith("No longer asked (the turn ended): Start of Ben's turn")
    assert game.state.prompts == ()


def test_a_prompt_about_a_card_lapses_when_it_leaves_play(catalogue: Catalogue) -> None:
    game = run(catalogue, *START, tap("GF", "base-1"))  # Gunfighter: start a duel?
    duel = next(p for p in game.state.prompts if p.kind == "duel")
    assert duel.moment.card == "GF"
    events = lapsed(game, tap("GF", "discard"))
    assert [(e["prompt"], e["why"]) for e in events] == [(duel.id, "card-left")]
    assert not [p for p in game.state.prompts if p.kind == "duel"]


def test_a_before_scoring_prompt_lapses_when_its_base_has_scored(catalogue: Catalogue) -> None:
    lines = [*START, inp("bury", tag="PA", zone="base-1"), inp("score", zone="base-1")]
    game = run(catalogue, *lines)
    pharaoh = next(p for p in game.state.prompts if p.kind == "uncover")
    assert pharaoh.moment.base == "JO"
    events = lapsed(game, inp("award"))
    assert (pharaoh.id, "base-left") in [(e.get("prompt"), e["why"]) for e in events]
    assert all(p.id != pharaoh.id for p in game.state.prompts)


def test_the_physical_truth_waits_across_turns_until_the_game_ends(catalogue: Catalogue) -> None:
    game = run(catalogue, *START, tap("04ABCDEF000001", "base-1"), inp("end-turn"))
    unknown = [p for p in game.state.prompts if p.kind == "unknown-tag"]
    assert len(unknown) == 1 and unknown[0].moment.waits
    game.apply(inp("end-turn"))
    assert [p.kind for p in game.state.prompts] == ["unknown-tag"]
    game.state = replace(game.state, table=replace(game.state.table, vp=(15, 0, 0)))
    events = lapsed(game, inp("end-turn"))  # Cat's turn ends: Ann has won
    assert game.state.table.winners == ("Ann",)
    assert [(e["kind"], e["why"]) for e in events] == [("unknown-tag", "game-over")]
    assert game.state.prompts == ()
    outcome = game.apply(tap("04ABCDEF000002", "base-1"))  # a finished game asks nothing
    assert game.state.prompts == ()
    assert [e["event"] for e in outcome.events] == ["note"]


def test_the_document_says_what_each_prompt_belongs_to(catalogue: Catalogue) -> None:
    document = doc(catalogue, *START, tap("GF", "base-1"), tap("04ABCDEF000001", "base-2"))
    duel = prompts(document, "duel")[-1]
    assert duel["moment"] == {"turn": 1, "card": "GF", "base": "JO"}
    assert prompts(document, "unknown-tag")[-1]["moment"] == {
        "turn": None,
        "card": None,
        "base": None,
    }
    assert base_at(document, "base-1")["total"] == 5 + 4 + 4 + 3


# Treasure deals (Munchkin): they belong to the turn they were made in.
TREEHOUSE = [tapes.tap("B1", "base-1"), tapes.tap("H1", "base-1"), tapes.tap("H2", "base-1")]
SCORED = [
    *TREEHOUSE,
    *[tapes.tap(t, "base-1") for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
    tapes.inp("counter", tag="MT", delta=2),
    tapes.inp("score", zone="base-1"),
    tapes.inp("award"),
]


def test_a_deal_nobody_marked_lapses_when_its_turn_ends(catalogue: Catalogue) -> None:
    game = tapes.run(catalogue, *SCORED)
    assert [d.kind for d in game.state.deals] == ["draft"]
    vp = game.state.table.vp
    events = lapsed(game, tapes.inp("end-turn"))
    assert [(e["deal"], e["kind"], e["why"]) for e in events] == [
        ("munchkin/treehouse", "draft", "turn-ended")
    ]
    assert events[0]["text"] == "Treasures for Treehouse taken as dealt (the turn ended)"
    assert game.state.deals == () and game.state.table.vp == vp


def test_no_deal_is_queued_once_the_game_is_over(catalogue: Catalogue) -> None:
    game = tapes.run(catalogue, *TREEHOUSE)
    game.state = replace(game.state, table=replace(game.state.table, vp=(15, 0, 0)))
    game.apply(tapes.inp("end-turn"))
    assert game.state.table.winners == ("Ann",)
    game.apply(tapes.inp("remove", tag="H1"))  # a monster destroyed after the end
    assert game.state.deals == ()
    assert [d.player for d in game.state.treasure_draws] == [game.state.table.current_player]


def test_munchkin_cthulhu_prompts_lapse_with_the_turn_and_the_pad_question_waits(
    catalogue: Catalogue,
) -> None:
    header = {**cthulhu_tapes.HEADER, "zones": [*cthulhu_tapes.HEADER["zones"], "pad"]}
    game = cthulhu_tapes.run(
        catalogue,
        cthulhu_tapes.tap("CHIBI", "seat-1"),  # a monster at a seat: wrong zone
        cthulhu_tapes.tap("BOW", "pad"),  # a shared pad: where did it go?
        header=header,
    )
    assert [p.kind for p in game.state.prompts] == ["wrong-zone", "choose-zone"]
    events = lapsed(game, cthulhu_tapes.inp("end-turn"))
    assert [(e["kind"], e["why"]) for e in events] == [("wrong-zone", "turn-ended")]
    assert [p.kind for p in game.state.prompts] == ["choose-zone"]


def test_there_is_no_base_there_is_withdrawn_once_a_base_is(catalogue: Catalogue) -> None:
    game = run(catalogue, tap("PH", "base-1"))  # a minion where no base lies yet
    (asked,) = game.state.prompts
    assert asked.kind == "no-base"
    assert asked.message == "There is no base on base zone 1: tap a base card there first."
    events = lapsed(game, tap("JO", "base-1"))
    assert [(e["prompt"], e["why"]) for e in events] == [(asked.id, "base-placed")]
    assert "a base is there now: tap the card again" in events[0]["text"]
    assert game.state.prompts == ()
    still = run(catalogue, tap("PH", "base-1"), tap("TP", "base-2"))  # another zone: still true
    assert [p.kind for p in still.state.prompts] == ["no-base"]
