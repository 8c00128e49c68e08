"""The bundled example games: whole games that replay to a winner, consistently."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.rules.game import WINNING_VP
from companion.storage.store import EventStore
from companion.table.live import LiveGame
from companion.tape.examples import EXAMPLES, example_tape
from companion.tape.lines import parse_header, read_lines
from companion.tracker.document import state_document
from companion.tracker.game import Game


def _play(name: str, catalogue: Catalogue) -> tuple[Game, list[dict], list[dict]]:
    lines = list(read_lines(example_tape(name).splitlines()))
    game = Game(parse_header(lines[0].event, catalogue), catalogue)
    events: list[dict] = []
    for line in lines[1:]:
        events.extend(game.apply(line.event).events)
    return game, [line.event for line in lines], events


SMASH_UP = [name for name in EXAMPLES if not name.startswith("cthulhu")]


@pytest.mark.parametrize("name", SMASH_UP)
def test_example_game_ends_with_a_rightful_winner(name: str, catalogue: Catalogue) -> None:
    game, _, events = _play(name, catalogue)
    table = game.state.table
    assert len(table.winners) == 1
    winner = table.winners[0]
    assert table.vp_of(winner) >= WINNING_VP
    assert all(table.vp_of(p) < table.vp_of(winner) for p in table.players if p != winner)
    # Every VP came from a scoring or an ability, each said as an event.
    gained = dict.fromkeys(table.players, 0)
    for event in events:
        if event["event"] == "scored":
            for placing in event["ranking"]:
                gained[placing["player"]] += placing["vp"]
        elif event["event"] == "vp":
            gained[event["player"]] += event["delta"]
    assert gained == {p: table.vp_of(p) for p in table.players}


def test_munchkin_example_deals_treasures(catalogue: Catalogue) -> None:
    game, header, _ = _play("munchkin-3p", catalogue)
    assert len(header[0]["players"]) == 3
    assert all(f.startswith("munchkin/") for fs in header[0]["factions"].values() for f in fs)
    assert any(result.treasure_order for result in game.state.scorings)
    assert game.state.treasure_draws


def test_mixed_example_uses_four_sets(catalogue: Catalogue) -> None:
    _, header, _ = _play("mixed-4p", catalogue)
    factions = [f for fs in header[0]["factions"].values() for f in fs]
    assert len(header[0]["players"]) == 4
    assert {f.split("/")[0] for f in factions} == {"core", "monster-smash", "oops", "munchkin"}


@pytest.mark.parametrize("name", EXAMPLES)
def test_stored_then_exported_example_replays_identically(
    name: str, catalogue: Catalogue, tmp_path: Path
) -> None:
    game, lines, _ = _play(name, catalogue)
    with EventStore.open(tmp_path / "night.db") as store:
        live = LiveGame.start(store, lines[0], catalogue)
        for line in lines[1:]:
            live.submit(line)
        record = store.log.game(live.game_id)
        assert record.winner == game.state.table.winners[0] and record.ended is not None
        exported = [record.header, *store.log.lines(live.game_id)]
    again = Game(parse_header(exported[0], catalogue), catalogue)
    for line in exported[1:]:
        again.apply(line)
    assert state_document(again.state, catalogue) == state_document(game.state, catalogue)


def test_demo_prints_the_final_table() -> None:
    result = CliRunner().invoke(main, ["example"])
    assert result.exit_code == 0
    assert "winner: Ann" in result.output and "Scored" in result.output
    other = CliRunner().invoke(main, ["example", "--tape", "mixed-4p"])
    assert other.exit_code == 0 and "winner:" in other.output
    missing = CliRunner().invoke(main, ["example", "--tape", "nope"])
    assert missing.exit_code != 0 and "munchkin-3p" in missing.output
