"""The plausible game (``companion simulate``, the demo) plays as a table would: every prompt
answered and every treasure handed out at once, so nothing is left open; a seed gives one game."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.league.simtables import claim, simulated_push
from companion.simulation.answers import answer, next_response
from companion.simulation.plausible import plausible_lines, random_header
from companion.tape.lines import parse_header
from companion.tape.prompts import DISMISS, Option, Prompt
from companion.tracker.game import Game
from tests import oops_tapes, tapes
from tests.test_tracker_lapse import SCORED


@pytest.mark.parametrize("seed", range(6))
def test_a_plausible_game_answers_everything_and_ends_with_nothing_open(
    seed: int, catalogue: Catalogue
) -> None:
    rng = random.Random(seed)
    header = random_header(rng, catalogue, players=2 + seed % 3, zones=3 + seed % 3)
    game = Game(parse_header(header, catalogue), catalogue)
    answered = 0
    for line in plausible_lines(random.Random(seed), header, catalogue):
        if line.get("input") == "end-turn":  # the table answered all before ending the turn
            assert game.state.prompts == () and game.state.deals == ()
        game.apply({k: v for k, v in line.items() if k != "at"})
        answered += line.get("input") == "answer"
    assert game.state.table.winners
    assert game.state.prompts == () and game.state.deals == ()
    assert answered > 0


def test_a_seed_gives_one_game(catalogue: Catalogue) -> None:
    header = random_header(random.Random(3), catalogue, players=3, zones=4)
    first = list(plausible_lines(random.Random(3), header, catalogue))
    assert first == list(plausible_lines(random.Random(3), header, catalogue))
    assert any(line.get("input") == "dealt" for line in first)


def prompt(kind: str, left: int | None = 1) -> Prompt:
    options = (Option("Put 1 counter on Worker", {"input": "counter"}), Option("Done", DISMISS))
    return Prompt(7, kind, "?", options, left=left)  # type: ignore[arg-type]


def test_a_table_takes_up_offers_and_passes_on_what_it_does_not_want() -> None:
    rng = random.Random(1)
    assert answer(prompt("counters"), rng) == {"input": "answer", "prompt": 7, "option": 0}
    assert answer(prompt("wrong-zone"), rng)["option"] == 1  # a notice: Ignore
    choices = {answer(prompt("counters", left=None), rng)["option"] for _ in range(40)}
    assert choices == {0, 1}  # any number of counters: one more, or Done


def test_the_table_resolves_a_duel_and_deals_treasures_once_nothing_is_asked(
    catalogue: Catalogue,
) -> None:
    rng = random.Random(0)
    duel = oops_tapes.run(
        catalogue,
        *[oops_tapes.tap(t, z) for t, z in (("JO", "base-1"), ("PH", "base-1"), ("KQ", "base-1"))],
        oops_tapes.inp("duel", challenger="PH", challenged="KQ"),
    )
    assert next_response(duel.state, rng) == {"input": "resolve-duel"}
    scored = tapes.run(catalogue, *SCORED)
    assert next_response(scored.state, rng) == {"input": "dealt"}  # a draft: one pick at a time
    drawn = tapes.run(catalogue, *SCORED[:3], tapes.tap("H1", "discard"))
    assert next_response(drawn.state, rng) == {"input": "dealt", "all": True}
    asked = tapes.run(catalogue, *SCORED[:3], tapes.tap("H1", "discard"), tapes.tap("TC", "base-3"))
    assert next_response(asked.state, rng)["input"] == "answer"  # prompts come first
    header = random_header(random.Random(0), catalogue, players=2, zones=3)
    assert next_response(Game(parse_header(header, catalogue), catalogue).state, rng) is None


def test_simulate_passes_on_an_answer_that_no_longer_fits() -> None:
    """Seed 1 of this table once opened a duel, then offered a second dueling card to a side
    that had one: the simulator crashed. A table passes on such an offer."""
    players = [
        "Ann=munchkin/orcs,oops/cowboys",
        "Ben=munchkin/thieves,oops/ancient-egyptians",
        "Cat=munchkin/warriors,core/pirates",
    ]
    args = ["simulate", *[arg for p in players for arg in ("--player", p)], "--seed", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert lines[0]["players"] == ["Ann", "Ben", "Cat"]
    assert any(line.get("input") == "resolve-duel" for line in lines[1:])


def test_empty_decks_are_made_again_from_their_discard_piles() -> None:
    """This two-player game used to run both players' decks dry at 15 VP each (a tie goes
    on) and end its 400 turns without a winner: the league disputed it. As the rulebook says,
    an empty deck is its discard pile shuffled (a player's, and the bases and monsters)."""
    honest = simulated_push(random.Random(8 * 1000 + 67), "t08-g067")
    assert honest["claimed"]["winners"]
    ended = [line for line in honest["tape"][1:] if line.get("input") == "end-turn"]
    assert len(ended) < 400


@pytest.mark.parametrize("seed", range(4))
def test_a_simulated_push_claims_what_a_replay_of_its_tape_says(seed: int) -> None:
    """The claim comes from the simulation's own game, not a second replay: the same winners
    and VP as the replay the league makes of the tape."""
    push = simulated_push(random.Random(seed), f"g{seed}", guest_rate=0.5)
    assert push["claimed"] == claim(push["tape"])
    assert push["claimed"]["winners"]  # a whole game, won
