"""+1 power counters at the table: every card of the four sets that places, removes or moves
them, as a small tape each. Rulebooks: Monster Smash (2014), "+1 Power Counters"; Oops (2018),
"Power counters on minions and titans always modify their power" and Terms: "Transfer"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.catalogue.table_effects import CountersEffect, MoveCountersEffect
from companion.errors import TapeError
from tests import tapes
from tests.oops_tapes import HEADER, answer, doc, inp, minion, prompts, run, tap

CATALOGUE = load_catalogue()
Scenario = Callable[[Catalogue], None]
CASES: dict[str, Scenario] = {}

# Jungle Oasis (12) at base-1, Tar Pits (16) at base-2; Ann's Pharaoh (5) and Ben's Killer
# Queen (4) at base-1. Ann's turn.
START = [tap("JO", "base-1"), tap("TP", "base-2"), tap("PH", "base-1"), tap("KQ", "base-1")]
BEN = [inp("end-turn")]
CAT = [inp("end-turn"), inp("end-turn")]


def case(*card_ids: str) -> Callable[[Scenario], Scenario]:
    def register(fn: Scenario) -> Scenario:
        for card_id in card_ids:
            CASES[card_id] = fn
        return fn

    return register


def counters_of(document: dict[str, Any], tag: str) -> int:
    return int(minion(document, tag)["counters"])


def answer_all(cat: Catalogue, lines: list[dict[str, Any]], picks: list[str]) -> dict[str, Any]:
    """Answer the last counters prompt once per label part in ``picks``."""
    lines = list(lines)
    for pick in picks:
        lines.append(answer(doc(cat, *lines), "counters", pick))
    return doc(cat, *lines)


@case("monster-smash/worker", "monster-smash/drone")
def _placed_on_itself(cat: Catalogue) -> None:
    document = doc(cat, *START, *BEN, tap("WK", "base-2"), tap("DR", "base-2"))
    assert (counters_of(document, "WK"), minion(document, "WK")["power"]) == (2, 2)
    assert (counters_of(document, "DR"), minion(document, "DR")["power"]) == (1, 4)


@case("monster-smash/soldier")
def _soldier(cat: Catalogue) -> None:
    lines = [*START, *BEN, tap("SL", "base-1"), inp("talent", tag="SL")]
    document = doc(cat, *lines)
    assert counters_of(document, "SL") == 2
    after = answer_all(cat, lines, ["to Pharaoh"])
    assert (counters_of(after, "SL"), counters_of(after, "PH")) == (1, 1)
    assert minion(after, "PH")["power"] == 6


@case("oops/code-of-bushido", "monster-smash/gimme-the-prize")
def _distribute_three(cat: Catalogue) -> None:
    for card in ("CD", "GP"):
        lines = [*START, *BEN, tap("SO", "base-2"), tap(card, "base-2")]
        prompt = prompts(doc(cat, *lines), "counters")[-1]
        assert prompt["left"] == 3
        labels = [o["label"] for o in prompt["options"]]
        assert labels[-1] == "Done" and not any("Pharaoh" in label for label in labels)
        after = answer_all(cat, lines, ["Shogun", "Killer", "Shogun"])
        assert (counters_of(after, "SO"), counters_of(after, "KQ")) == (2, 1)
        assert not prompts(after, "counters")  # three answers close it


@case(
    "oops/honor-the-ancestors",
    "monster-smash/dinner-date",
    "monster-smash/headlong",
)
def _one_chosen_minion(cat: Catalogue) -> None:
    for card, amount in (("HA", 1), ("DD", 1), ("HL", 2)):
        owner_turn = CAT if card in ("DD",) else BEN
        mine, name = ("HV", "Heavy Drinker") if card == "DD" else ("SO", "Shogun")
        lines = [*START, *owner_turn, tap(mine, "base-2"), tap(card, "base-2")]
        after = answer_all(cat, lines, ["on " + name])
        assert counters_of(after, mine) == amount, card


@case("oops/ronin")
def _ronin(cat: Catalogue) -> None:
    alone = doc(cat, *START, *BEN, tap("RN", "base-2"))
    assert prompts(alone, "counters")[-1]["options"][0]["line"]["delta"] == 2
    crowded = doc(cat, *START, *BEN, tap("RN", "base-1"))  # Killer Queen is Ben's there
    assert not prompts(crowded, "counters")


@case("oops/ancient-curse")
def _ancient_curse(cat: Catalogue) -> None:
    lines = [*START, inp("counter", tag="KQ", delta=1), tap("AC", "base-1"), tap("KQ", "base-1")]
    document = doc(cat, *lines)
    assert minion(document, "KQ")["power"] == 4 + 1 - 2
    after = answer_all(cat, lines, ["Take 1 counter off Killer Queen"])
    assert (counters_of(after, "KQ"), minion(after, "KQ")["power"]) == (0, 2)


@case("oops/shogun")
def _shogun(cat: Catalogue) -> None:
    # Clarifications: "A minion going to the discard pile from play includes both being
    # discarded after scoring, and being destroyed."
    lines = [*START, *BEN, tap("SO", "base-2"), tap("SA", "base-2"), tap("SA", "discard")]
    assert counters_of(doc(cat, *lines), "SO") == 1
    lines += [tap("BU", "base-1"), inp("score", zone="base-1"), inp("award")]
    assert counters_of(doc(cat, *lines), "SO") == 3  # Killer Queen and Bushi went too: +2


@case("monster-smash/killer-queen")
def _killer_queen(cat: Catalogue) -> None:
    lines = [*START, *BEN, tap("DR", "base-1"), inp("talent", tag="KQ")]
    after = answer_all(cat, lines, ["on Drone"])
    assert (counters_of(after, "KQ"), counters_of(after, "DR")) == (1, 2)


@case("monster-smash/a-kind-of-magic", "monster-smash/under-pressure")
def _move_between_mine(cat: Catalogue) -> None:
    for card in ("KM", "UP"):
        lines = [*START, *BEN, tap("WK", "base-2"), tap(card, "base-2")]
        after = answer_all(cat, lines, ["to Killer Queen", "to Killer Queen"])
        assert (counters_of(after, "WK"), counters_of(after, "KQ")) == (0, 2)


@case(
    "monster-smash/who-wants-to-live-forever",
    "monster-smash/blitzed",
)
def _remove_any_number(cat: Catalogue) -> None:
    for card, turn in (("WL", BEN), ("BZ", [*BEN, inp("end-turn")])):
        mine = "SO" if card == "WL" else "TM"
        lines = [*START, *turn, tap(mine, "base-2"), inp("counter", tag=mine, delta=2)]
        lines.append(tap(card, "base-2"))
        prompt = prompts(doc(cat, *lines), "counters")[-1]
        assert prompt["left"] is None
        after = answer_all(cat, lines, ["Take", "Take"])
        assert counters_of(after, mine) == 0, card


@case("monster-smash/herr-doktor", "monster-smash/lab-assistant")
def _other_minion_of_mine(cat: Catalogue) -> None:
    lines = [*START, *CAT, tap("IG", "base-2"), tap("LA", "base-1")]
    labels = [o["label"] for o in prompts(doc(cat, *lines), "counters")[-1]["options"]]
    assert labels == ["Put 1 counter on Igor", "Ignore"]  # by name, never by tag
    lines = [*START, *CAT, tap("IG", "base-2"), tap("HD", "base-1"), inp("talent", tag="HD")]
    assert counters_of(answer_all(cat, lines, ["Igor"]), "IG") == 1


@case("monster-smash/the-monster")
def _the_monster(cat: Catalogue) -> None:
    lines = [*START, *CAT, tap("TM", "base-2"), inp("counter", tag="TM", delta=1)]
    assert counters_of(doc(cat, *lines, inp("talent", tag="TM")), "TM") == 0


@case("monster-smash/igor")
def _igor(cat: Catalogue) -> None:
    """Igor: "When it is destroyed or discarded, one of your minions gains a +1 power
    counter": discarded with its scored base too (Munchkin rulebook, Back to Your Corners)."""
    lines = [*START, *CAT, tap("IG", "base-2"), tap("HD", "base-1"), tap("IG", "discard")]
    assert counters_of(answer_all(cat, lines, ["Herr Doktor"]), "HD") == 1
    scored = [*START, *CAT, tap("IG", "base-1"), tap("HD", "base-2")]
    scored += [inp("counter", tag="PH", delta=5), inp("score", zone="base-1"), inp("award")]
    assert counters_of(answer_all(cat, scored, ["Herr Doktor"]), "HD") == 1


@case("monster-smash/angry-mob", "monster-smash/body-shop", "monster-smash/cull-the-weak")
def _any_number_on_mine(cat: Catalogue) -> None:
    for card in ("AM", "BS", "CW"):
        lines = [*START, *CAT, tap("HD", "base-2"), tap(card, "base-2")]
        assert counters_of(answer_all(cat, lines, ["Herr", "Herr", "Herr"]), "HD") == 3


@case("monster-smash/german-engineering", "monster-smash/laboratorium")
def _minion_played_here(cat: Catalogue) -> None:
    lines = [*START, *CAT, tap("GE", "base-2"), tap("IG", "base-2")]
    assert counters_of(doc(cat, *lines), "IG") == 1
    theirs = doc(cat, *lines, inp("end-turn"), tap("PA", "base-2"))
    assert counters_of(theirs, "PA") == 0  # only minions Cat plays there
    lab = [tap("LB", "base-1"), tap("PH", "base-1"), tap("GF", "base-1")]
    document = doc(cat, *lab)
    assert (counters_of(document, "PH"), counters_of(document, "GF")) == (1, 0)  # the first


@case("monster-smash/its-alive", "monster-smash/crack-of-dusk")
def _next_minion(cat: Catalogue) -> None:
    for card in ("IA", "CK"):
        document = doc(
            cat, *START, *CAT, tap(card, "base-2"), tap("IG", "base-2"), tap("LA", "base-2")
        )
        assert (counters_of(document, "IG"), counters_of(document, "LA")) == (1, 0), card


@case("monster-smash/jolt", "monster-smash/buffet", "monster-smash/mad-monster-party")
def _each_of_mine(cat: Catalogue) -> None:
    lines = [
        *START,
        *CAT,
        tap("HD", "base-1"),
        tap("IG", "base-2"),
        inp("counter", tag="IG", delta=1),
    ]
    for card, expected in (("JL", (1, 2)), ("BF", (1, 2)), ("MM", (1, 1))):
        document = doc(cat, *lines, tap(card, "base-2"))
        assert (counters_of(document, "HD"), counters_of(document, "IG")) == expected, card
        assert counters_of(document, "PH") == 0


@case("monster-smash/berserum")
def _berserum(cat: Catalogue) -> None:
    lines = [*START, *CAT, tap("HD", "base-2"), tap("BR", "base-2"), tap("HD", "base-2")]
    assert counters_of(doc(cat, *lines), "HD") == 0
    assert counters_of(doc(cat, *lines, *CAT, inp("end-turn")), "HD") == 1  # Cat's next turn


@case("monster-smash/summon-wolves")
def _summon_wolves(cat: Catalogue) -> None:
    """Card: "it collects a +1 power counter at the start of your turn, and those counters
    add to your total there if you have a minion there"."""
    lines = [*START, *CAT, tap("SW", "base-2")]
    sw = doc(cat, *lines)["bases"][1]["actions"][0]
    assert "counters" not in sw
    lines += [*CAT, inp("end-turn")]  # Cat's next turn starts
    base = doc(cat, *lines)["bases"][1]
    assert base["actions"][0]["counters"] == 1 and "Cat" not in base["power"]
    base = doc(cat, *lines, tap("IG", "base-2"))["bases"][1]
    assert base["power"]["Cat"] == 2 + 1


@case("monster-smash/the-count", "monster-smash/opportunist")
def _opponent_destroyed(cat: Catalogue) -> None:
    lines = [
        *START,
        *CAT,
        tap("CO", "base-2"),
        tap("HV", "base-1"),
        tap("OP", "base-1"),
        tap("HV", "base-1"),
    ]
    document = doc(cat, *lines, tap("KQ", "discard"))
    assert (counters_of(document, "CO"), counters_of(document, "HV")) == (1, 1)
    mine = doc(cat, *lines, tap("CO", "discard"))  # Cat's own minion: no counter
    assert counters_of(mine, "HV") == 0


@case("monster-smash/nightstalker", "monster-smash/heavy-drinker")
def _may_on_itself(cat: Catalogue) -> None:
    for card in ("NS", "HV"):
        lines = [*START, *CAT, tap(card, "base-1")]
        assert counters_of(doc(cat, *lines), card) == 0
        assert counters_of(answer_all(cat, lines, ["Put"]), card) == 1


@case("monster-smash/fledgling-vampire", "monster-smash/castle-blood")
def _only_when_behind(cat: Catalogue) -> None:
    behind = doc(cat, *START, *CAT, tap("FV", "base-1"))  # Pharaoh 5 > 2
    ahead = doc(cat, *START, *CAT, tap("FV", "base-2"))
    assert (counters_of(behind, "FV"), counters_of(ahead, "FV")) == (1, 0)
    blood = [tap("CB", "base-3"), tap("PH", "base-3"), *CAT, tap("IG", "base-3")]
    assert counters_of(answer_all(cat, blood, ["Igor"]), "IG") == 1


@case("monster-smash/golem-schlo")
def _golem(cat: Catalogue) -> None:
    lines = [
        tap("GS", "base-1"),
        tap("TP", "base-2"),
        tap("PH", "base-2"),
        *[tap(t, "base-1") for t in ("PA", "PE", "MU", "SH", "PK", "GF", "DP")],
        inp("score", zone="base-1"),
        inp("award"),
    ]
    assert counters_of(doc(cat, *lines), "PH") == 1  # Ann won Golem Schloss


@case("oops/pinkerton")
def _pinkerton(cat: Catalogue) -> None:
    lines = [*START, tap("PK", "base-2"), inp("duel", challenger="PH", challenged="KQ")]
    labels = [o["label"] for o in prompts(doc(cat, *lines), "counters")[-1]["options"]]
    assert labels[0] == "Put 1 counter on Pharaoh"


MUNCHKIN = {
    **tapes.HEADER,
    "tags": {
        **tapes.TAGS,
        "CBU": "munchkin/cat-burglar",
        "STP": "munchkin/star-player",
        "BSK": "munchkin/berserker",
    },
}


@case("munchkin/cat-burglar", "munchkin/star-player", "munchkin/berserker")
def _munchkin(cat: Catalogue) -> None:
    setup = [tap("B1", "base-1"), tap("H1", "base-1"), tap("H2", "base-1"), inp("end-turn")]
    lines = [*setup, tap("CBU", "base-1")]
    game = tapes.run(cat, *lines, header=MUNCHKIN)
    prompt = game.state.prompts[-1]
    for _ in range(2):
        game.apply(inp("answer", prompt=prompt.id, option=0))
    assert game.state.table.locate("CBU")[1].counters == 2  # type: ignore[index]
    game.apply(inp("end-turn"))
    game.apply(tap("STP", "base-1"))
    game.apply(tap("BSK", "base-1"))
    game.apply(inp("answer", prompt=game.state.prompts[-1].id, option=0))
    game.apply(tap("H1", "discard"))
    assert game.state.table.locate("STP")[1].counters == 1  # type: ignore[index]
    assert game.state.table.locate("BSK")[1].counters == 1  # type: ignore[index]


def test_a_minion_leaving_play_drops_its_counters(catalogue: Catalogue) -> None:
    lines = [
        *START,
        inp("counter", tag="KQ", delta=3),
        tap("KQ", "discard"),
        *BEN,
        tap("KQ", "base-2"),
    ]
    assert counters_of(doc(catalogue, *lines), "KQ") == 0


def test_counters_move_with_their_minion_and_transfer(catalogue: Catalogue) -> None:
    lines = [*START, inp("counter", tag="KQ", delta=2), tap("KQ", "base-2")]
    assert counters_of(doc(catalogue, *lines), "KQ") == 2
    moved = doc(catalogue, *lines, inp("move-counters", **{"from": "KQ", "to": "PH", "count": 2}))
    assert (counters_of(moved, "KQ"), minion(moved, "PH")["power"]) == (0, 7)
    with pytest.raises(TapeError, match="cannot move 3"):
        run(catalogue, *lines, inp("move-counters", **{"from": "KQ", "to": "PH", "count": 3}))


COUNTING = sorted(
    card.id
    for card in CATALOGUE
    if any(isinstance(e, CountersEffect | MoveCountersEffect) for e in card.effects)
)


@pytest.mark.parametrize("card_id", COUNTING)
def test_card_places_or_moves_counters(card_id: str, catalogue: Catalogue) -> None:
    assert card_id in CASES, f"{card_id} has counters effects but no scenario"
    CASES[card_id](catalogue)


def test_every_scenario_is_a_counters_card() -> None:
    assert sorted(CASES) == COUNTING
    assert HEADER["players"] == ["Ann", "Ben", "Cat"]
