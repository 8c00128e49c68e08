"""Duels at the table, as small tapes. Rulebook: Oops, You Did It Again (2018), "New Rules:
Duels" (p. 11) and the Clarifications; cited as "Duels: <paragraph>"."""

from __future__ import annotations

from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import TapeError
from tests.oops_tapes import answer, base_at, doc, inp, minion, prompts, run, tap, texts

# Jungle Oasis (12, VP 2/0/0) at base-1, Tar Pits (16) at base-2. At base-1: Ann's Pharaoh
# (5) and Ben's Killer Queen (4) and Drone (3, enters with a counter: 4). Ann's turn.
START = [
    tap("JO", "base-1"),
    tap("TP", "base-2"),
    tap("PH", "base-1"),
    tap("KQ", "base-1"),
    tap("DR", "base-1"),
]
PH_KQ = inp("duel", challenger="PH", challenged="KQ")


def duel_of(cat: Catalogue, *lines: dict[str, Any]) -> dict[str, Any]:
    document = doc(cat, *lines)
    assert document["duel"] is not None
    return dict(document["duel"])


def test_a_duel_shows_both_minions_and_their_powers(catalogue: Catalogue) -> None:
    duel = duel_of(catalogue, *START, PH_KQ)
    assert (duel["status"], duel["zone"], duel["winners"]) == ("open", "base-1", [])
    assert duel["challenger"] == {
        "side": "challenger",
        "tag": "PH",
        "card": "oops/pharaoh",
        "controller": "Ann",
        "power": 5,
        "dueling_card": None,
    }
    assert (duel["challenged"]["tag"], duel["challenged"]["power"]) == ("KQ", 4)
    assert doc(catalogue, *START)["duel"] is None


def test_the_higher_power_wins(catalogue: Catalogue) -> None:
    # Duels: Basics: "the minion with the higher power is determined to be the winner"
    duel = duel_of(catalogue, *START, PH_KQ, inp("resolve-duel"))
    assert (duel["status"], duel["winner"], duel["tie"]) == ("resolved", "PH", False)
    assert (duel["challenger"]["power"], duel["challenged"]["power"]) == (5, 4)
    # No card started it: nothing happens to either minion.
    assert base_at(doc(catalogue, *START, PH_KQ, inp("resolve-duel")), "base-1")["power"] == {
        "Ann": 5,
        "Ben": 8,
    }


def test_dueling_cards_are_tapped_at_the_base_while_the_duel_is_open(
    catalogue: Catalogue,
) -> None:
    # Duels: Basics: "If it is an action it is played normally, otherwise it is returned to
    # the hand." Ben's Worker is a bluff; Ann's Form a Posse gives her minions +1.
    lines = [
        *START,
        inp("counter", tag="KQ", delta=1),
        PH_KQ,
        tap("WK", "base-1"),
        tap("FP", "base-1"),
    ]
    duel = duel_of(catalogue, *lines)
    assert duel["challenged"]["dueling_card"] == {"tag": "WK", "card": "monster-smash/worker"}
    assert duel["challenger"]["dueling_card"] == {"tag": "FP", "card": "oops/form-a-posse"}
    document = doc(catalogue, *lines)
    assert [m["tag"] for m in base_at(document, "base-1")["minions"]] == ["PH", "KQ", "DR"]
    resolved = duel_of(catalogue, *lines, inp("resolve-duel"))
    assert (resolved["challenger"]["power"], resolved["challenged"]["power"]) == (6, 5)
    assert resolved["winner"] == "PH"


def test_a_dueling_card_nobody_duels_for_asks_whose_it_is(catalogue: Catalogue) -> None:
    document = doc(catalogue, *START, PH_KQ, tap("HD", "base-1"))  # Cat's card
    options = prompts(document, "duel")[-1]["options"]
    assert [o["line"].get("side") for o in options] == ["challenger", "challenged", None]
    with pytest.raises(TapeError, match="already placed"):
        run(
            catalogue,
            *START,
            PH_KQ,
            tap("FP", "base-1"),
            inp("dueling-card", tag="BA", side="challenger"),
        )


def test_a_tie_gives_both_sides_every_effect(catalogue: Catalogue) -> None:
    # Duels: Basics: "in case of ties, both sides get all the effects of the duel."
    lines = [*START, inp("counter", tag="KQ", delta=1), tap("HC", "base-1")]
    document = doc(catalogue, *lines)
    lines.append(answer(document, "duel", "Killer Queen (5) duels Pharaoh (5)"))
    game = run(catalogue, *lines)
    events = game.apply(inp("resolve-duel")).events
    assert [e for e in events if e["event"] == "vp"] == [
        {"event": "vp", "player": "Ann", "delta": 1},
        {"event": "vp", "player": "Ben", "delta": 1},
    ]


def test_the_duel_stops_if_the_minions_part(catalogue: Catalogue) -> None:
    # Duels: Details: "if the two minions of the duel are not together on the same base as
    # each other, the duel stops without resolution. However, changing control of either or
    # both minions does not stop the duel."
    moved = duel_of(catalogue, *START, PH_KQ, tap("KQ", "base-2"), inp("resolve-duel"))
    assert (moved["status"], moved["winners"]) == ("stopped", [])
    control = duel_of(
        catalogue, *START, PH_KQ, inp("control", tag="KQ", player="Ann"), inp("resolve-duel")
    )
    assert (control["status"], control["winner"]) == ("resolved", "PH")


def test_only_one_duel_at_a_time(catalogue: Catalogue) -> None:
    # Duels: Details: "Two duels may not happen at the same time ... that part of the ability
    # is ignored."
    game = run(catalogue, *START, PH_KQ)
    said = texts(game, [inp("duel", challenger="PH", challenged="DR")])
    assert any("already on" in text for text in said)
    assert game.state.duel is not None and game.state.duel.challenged == "KQ"
    document = doc(catalogue, *START, PH_KQ, tap("GF", "base-1"))
    assert not prompts(document, "duel")  # Gunfighter starts none during a duel


def test_gunfighter_duels_on_play_and_destroys_the_loser(catalogue: Catalogue) -> None:
    lines = [*START, tap("GF", "base-1")]
    document = doc(catalogue, *lines)
    labels = [o["label"] for o in prompts(document, "duel")[-1]["options"]]
    assert labels == [
        "Gunfighter (3) duels Killer Queen (4)",
        "Gunfighter (3) duels Drone (4)",
        "Ignore",
    ]
    lines += [answer(document, "duel", "Drone"), inp("resolve-duel")]
    after = doc(catalogue, *lines)
    assert after["duel"]["winner"] == "DR"
    assert [m["tag"] for m in base_at(after, "base-1")["minions"]] == ["PH", "KQ", "DR"]


def test_sheriff_may_duel_just_before_its_base_scores(catalogue: Catalogue) -> None:
    # The Big Score: "the Cowboy player uses Sheriff to duel another player's minion there.
    # Since the losing minion is destroyed, the total power may go below the breakpoint, but
    # the base still scores."
    lines = [*START, tap("SH", "base-1"), inp("score", zone="base-1")]
    document = doc(catalogue, *lines)
    assert prompts(document, "duel")[-1]["message"] == "Sheriff: start a duel?"
    lines += [answer(document, "duel", "Killer Queen"), inp("resolve-duel")]
    after = doc(catalogue, *lines)
    assert base_at(after, "base-1")["power"] == {"Ann": 10, "Ben": 4}
    scored = doc(catalogue, *lines, inp("award"))
    assert scored["scorings"][0]["ranking"][0] == {
        "player": "Ann",
        "power": 10,
        "place": 1,
        "vp": 2,
    }


def test_high_noon_any_of_mine_against_theirs(catalogue: Catalogue) -> None:
    lines = [*START, tap("GF", "base-1"), inp("dismiss"), tap("HN", "base-1")]
    document = doc(catalogue, *lines)
    labels = [o["label"] for o in prompts(document, "duel")[-1]["options"]]
    assert len(labels) == 2 * 2 + 1  # Pharaoh and Gunfighter against Killer Queen and Drone
    lines += [answer(document, "duel", "Pharaoh (5) duels Killer"), inp("resolve-duel")]
    game = run(catalogue, *lines[:-1])
    said = texts(game, [lines[-1]])
    assert any("High Noon: Ann may play an extra minion" in text for text in said)
    assert game.state.table.locate("KQ") is None


def test_run_em_off_boosts_the_winner_and_moves_the_loser(catalogue: Catalogue) -> None:
    lines = [*START, tap("RO", "base-1")]
    document = doc(catalogue, *lines)
    assert not prompts(document, "choose-target")  # the duel decides who gets the +3
    lines += [answer(document, "duel", "Killer"), inp("resolve-duel")]
    after = doc(catalogue, *lines)
    assert minion(after, "PH")["power"] == 5 + 3
    move = prompts(after, "move")[-1]
    assert [o["line"] for o in move["options"][:1]] == [{"tap": "KQ", "zone": "base-2"}]
    moved = doc(catalogue, *lines, answer(after, "move", "Tar Pits"))
    assert [m["tag"] for m in base_at(moved, "base-2")["minions"]] == ["KQ"]


@pytest.mark.parametrize(("base", "tag"), [("SC", "so-so-corral"), ("SG", "shoguns-palace")])
def test_bases_that_let_a_minion_played_there_duel(
    catalogue: Catalogue, base: str, tag: str
) -> None:
    lines = [tap(base, "base-1"), tap("KQ", "base-1"), tap("PH", "base-1")]
    document = doc(catalogue, *lines)
    prompt = prompts(document, "duel")[-1]
    assert prompt["options"][0]["line"]["card"] == f"oops/{tag}"
    lines += [answer(document, "duel", "Killer"), inp("resolve-duel")]
    game = run(catalogue, *lines[:-1])
    said = texts(game, [lines[-1]])
    if base == "SC":
        assert game.state.table.locate("KQ") is None  # the loser is destroyed
    else:
        assert any("Shogun's Palace: Ann draws 2" in text for text in said)
        assert game.state.table.locate("KQ") is not None


def test_heart_of_the_battle_before_a_base_scores(catalogue: Catalogue) -> None:
    lines = [*START, inp("end-turn"), tap("SO", "base-1"), inp("score", zone="base-1")]
    document = doc(catalogue, *lines, tap("HB", "base-1"))
    labels = [o["label"] for o in prompts(document, "duel")[-1]["options"]]
    assert "Shogun (5) duels Pharaoh (5)" in labels


def test_every_card_that_starts_a_duel_has_a_scenario_here(catalogue: Catalogue) -> None:
    from companion.catalogue.table_effects import DuelEffect

    starting = {c.id for c in catalogue if any(isinstance(e, DuelEffect) for e in c.effects)}
    assert starting == {
        "oops/gunfighter",  # test_gunfighter_duels_on_play_and_destroys_the_loser
        "oops/sheriff",  # test_sheriff_may_duel_just_before_its_base_scores
        "oops/high-noon",  # test_high_noon_any_of_mine_against_theirs
        "oops/run-em-off",  # test_run_em_off_boosts_the_winner_and_moves_the_loser
        "oops/heart-of-the-battle",  # test_heart_of_the_battle_before_a_base_scores
        "oops/honorable-combat",  # test_a_tie_gives_both_sides_every_effect
        "oops/so-so-corral",  # test_bases_that_let_a_minion_played_there_duel
        "oops/shoguns-palace",  # test_bases_that_let_a_minion_played_there_duel
    }
