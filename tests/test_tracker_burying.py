"""Burying and uncovering at the table, as small tapes. Rulebook: Oops, You Did It Again
(2018), "New Rules: Burying" (p. 10) and the Clarifications; cited as "Burying: <paragraph>"."""

from __future__ import annotations

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import TapeError
from tests.oops_tapes import answer, base_at, doc, inp, minion, prompts, run, tap, texts

# Ann has Pharaoh (5) at Jungle Oasis (12, VP 2/0/0) and Ben has Killer Queen (4) there;
# Cat has nothing yet. Tar Pits (16) is at base-2.
START = [tap("JO", "base-1"), tap("TP", "base-2"), tap("PH", "base-1"), tap("KQ", "base-1")]


def test_a_buried_card_has_no_power_and_no_presence(catalogue: Catalogue) -> None:
    # Burying: Scoring: "Buried cards do not themselves have power, nor the presence to help
    # break or win a base."
    document = doc(catalogue, *START, inp("bury", tag="HD", zone="base-1"))
    base = base_at(document, "base-1")
    assert base["buried"] == [{"tag": "HD", "controller": "Cat"}]  # the contract's shape
    assert base["buried_count"] == {"Cat": 1}
    assert base["power"] == {"Ann": 5, "Ben": 4} and base["total"] == 9
    assert all(p["player"] != "Cat" for p in base["preview"]["ranking"])


def test_buried_cards_are_counted_per_player_not_named(catalogue: Catalogue) -> None:
    document = doc(
        catalogue,
        *START,
        inp("bury", tag="PA", zone="base-1"),
        inp("bury", tag="PE", zone="base-1"),
        inp("bury", tag="SO", zone="base-1"),
        inp("bury", tag="MU", zone="base-2"),
    )
    assert base_at(document, "base-1")["buried_count"] == {"Ann": 2, "Ben": 1}
    assert base_at(document, "base-2")["buried_count"] == {"Ann": 1}
    assert all(
        set(entry) == {"tag", "controller"} for entry in base_at(document, "base-1")["buried"]
    )


def test_abilities_that_target_minions_do_not_reach_buried_cards(catalogue: Catalogue) -> None:
    # Burying: Status: "A buried card is not affected by abilities that target minions,
    # actions, or any other card type."
    lines = [*START, inp("bury", tag="PA", zone="base-1")]
    for line in (inp("counter", tag="PA", delta=1), inp("control", tag="PA", player="Ben")):
        with pytest.raises(TapeError, match="not"):
            run(catalogue, *lines, line)
    # An action played on a minion there lists only the minions, never the buried card.
    document = doc(catalogue, *lines, tap("AC", "base-2"))
    assert prompts(document, "needs-target")  # nothing to attach to at base-2
    document = doc(catalogue, *lines, inp("attach", tag="AC", target="KQ"))
    assert minion(document, "KQ")["power"] == 4 - 2


def test_the_burier_controls_it_and_plays_it_when_uncovered(catalogue: Catalogue) -> None:
    # Burying: Status: "A buried card is controlled by the player who buried it"; Uncovering:
    # "its controller immediately plays it as an extra card ... on the same base".
    lines = [*START, inp("bury", tag="HD", zone="base-1", player="Ann")]
    assert base_at(doc(catalogue, *lines), "base-1")["buried_count"] == {"Ann": 1}
    document = doc(catalogue, *lines, tap("HD", "base-1"))
    herr = minion(document, "HD")
    assert (herr["controller"], herr["owner"], herr["power"]) == ("Ann", "Cat", 5)
    assert base_at(document, "base-1")["power"] == {"Ann": 10, "Ben": 4}


def test_one_uncover_at_the_start_of_the_turn_more_is_noted(catalogue: Catalogue) -> None:
    # Uncovering: "Each player may uncover one of their buried cards at the start of their
    # turn. A player may also uncover a card when an ability allows it."
    game = run(
        catalogue,
        *START,
        inp("bury", tag="PA", zone="base-1"),
        inp("bury", tag="MU", zone="base-2"),
        inp("end-turn"),
        inp("end-turn"),
        inp("end-turn"),
    )
    first = texts(game, [tap("PA", "base-1")])
    assert not any("beyond" in text for text in first)
    second = texts(game, [inp("uncover", tag="MU")])
    assert any("beyond the start-of-turn uncover" in text for text in second)
    assert game.state.table.locate("MU") is not None  # uncovered and played


def test_uncovering_after_playing_a_card_is_noted(catalogue: Catalogue) -> None:
    game = run(catalogue, *START, inp("bury", tag="PA", zone="base-2"))
    said = texts(game, [tap("PE", "base-2"), inp("dismiss"), tap("PA", "base-2")])
    assert not any("beyond" in text for text in said)  # Pyramid Engineer allowed it
    game = run(catalogue, *START, inp("bury", tag="PA", zone="base-2"), tap("GF", "base-2"))
    said = texts(game, [tap("PA", "base-2")])
    assert any("beyond the start-of-turn uncover" in text for text in said)


def test_the_next_player_is_asked_to_uncover_without_naming_the_card(
    catalogue: Catalogue,
) -> None:
    lines = [*START, inp("bury", tag="SO", zone="base-2"), inp("end-turn")]
    document = doc(catalogue, *lines)
    prompt = prompts(document, "uncover")[-1]
    assert "Ben" in prompt["message"]
    labels = [option["label"] for option in prompt["options"]]
    assert labels[0] == "Uncover buried card 1 of 1 at Tar Pits"
    assert not any("Shogun" in label for label in labels)
    after = doc(catalogue, *lines, answer(document, "uncover", "Uncover"))
    assert minion(after, "SO")["controller"] == "Ben"
    assert base_at(after, "base-2")["buried"] == []
    assert not prompts(doc(catalogue, *START, inp("end-turn")), "uncover")  # nothing buried


def test_an_uncovered_card_is_an_extra_card(catalogue: Catalogue) -> None:
    game = run(catalogue, *START, inp("bury", tag="PA", zone="base-1"), tap("GF", "base-2"))
    said = texts(game, [tap("PA", "base-1")])
    assert not any("minions this turn" in text for text in said)
    assert game.state.minions_played == 2  # Pharaoh and Gunfighter, not the Priest


def test_an_uncovered_card_that_cannot_be_played_is_discarded(catalogue: Catalogue) -> None:
    # Uncovering: "If circumstances make playing it impossible (e.g. it's a card that is only
    # played before a base scores), it is discarded instead."
    lines = [*START, inp("bury", tag="HB", zone="base-1"), inp("bury", tag="AC", zone="base-2")]
    game = run(catalogue, *lines)
    said = texts(game, [tap("HB", "base-1"), tap("AC", "base-2")])
    assert any("Heart of the Battle is discarded" in text for text in said)
    assert any("Ancient Curse is discarded" in text for text in said)  # no minion there
    assert game.state.prompts == ()
    # During the before-scoring window it can be played there.
    scoring = [*START, tap("SH", "base-1"), inp("bury", tag="HB", zone="base-1")]
    said = texts(run(catalogue, *scoring, inp("score", zone="base-1")), [tap("HB", "base-1")])
    assert not any("discarded" in text for text in said)


def test_an_uncovered_card_may_not_be_reburied_at_once(catalogue: Catalogue) -> None:
    # Uncovering: "Uncovered cards may not be immediately reburied." Noted, never refused.
    game = run(catalogue, *START, inp("bury", tag="PA", zone="base-1"), tap("PA", "base-1"))
    said = texts(game, [inp("bury", tag="PA", zone="base-2")])
    assert any("may not be reburied at once" in text for text in said)
    assert [b.tag for b in game.state.table.base_at("base-2").buried] == ["PA"]


def test_burying_a_card_in_play_discards_its_counters_and_cards(catalogue: Catalogue) -> None:
    # Uncovering: "When a card is uncovered or re-buried (as Mummies do), any counters or
    # cards on it are discarded first."
    lines = [
        *START,
        tap("MU", "base-1"),
        inp("counter", tag="MU", delta=2),
        tap("AC", "base-1"),
        tap("MU", "base-1"),
        inp("bury", tag="MU", zone="base-2"),
    ]
    game = run(catalogue, *lines)
    assert game.state.table.locate("MU") is None and game.state.table.locate("AC") is None
    assert base_at(doc(catalogue, *lines), "base-1")["power"] == {"Ann": 5, "Ben": 4}
    document = doc(catalogue, *lines, tap("MU", "base-2"))
    assert (minion(document, "MU")["counters"], minion(document, "MU")["power"]) == (0, 2)
    assert minion(document, "MU")["actions"] == []


def test_buried_cards_go_to_their_owners_discard_after_scoring(catalogue: Catalogue) -> None:
    # Burying: Scoring: "After a base scores or leaves play for any reason, buried cards still
    # on it go to their owners' discard piles."
    lines = [
        *START,
        inp("bury", tag="PA", zone="base-1"),
        inp("bury", tag="HD", zone="base-1", player="Ann"),  # Ann controls Cat's card
        inp("bury", tag="SO", zone="base-1"),
        tap("PE", "base-1"),
        inp("dismiss"),
        inp("score", zone="base-1"),
    ]
    game = run(catalogue, *lines)
    events = game.apply(inp("award")).events
    discarded = next(e for e in events if e["event"] == "buried-discarded")
    assert discarded["counts"] == {"Ann": 1, "Cat": 1, "Ben": 1}
    assert game.state.table.base_at("base-1") is None
    removed = run(catalogue, *START, inp("bury", tag="PA", zone="base-2"))
    events = removed.apply(inp("remove-base", zone="base-2")).events
    assert any(e["event"] == "buried-discarded" for e in events)


def test_buried_madness_counts_against_its_controller(catalogue: Catalogue) -> None:
    # Burying: Scoring: "Madness cards that are buried at the end of the game still count
    # against their controller."
    lines = [
        *START,
        inp("madness", player="Ben", delta=3),
        inp("bury", zone="base-2", player="Ben", madness=True),
    ]
    document = doc(catalogue, *lines)
    ben = next(p for p in document["players"] if p["name"] == "Ben")
    assert (ben["madness"], ben["buried_madness"]) == (2, 1)
    assert base_at(document, "base-2")["buried_count"] == {"Ben": 1}
    game = run(catalogue, *lines)
    assert game.state.table.madness_in_game
    from companion.rules.game import final_vp, madness_counted

    assert madness_counted(game.state.table)[1] == 3  # 1 VP off per 2: 0 - 1
    assert final_vp(game.state.table)[1] == -1
    tag = game.state.table.base_at("base-2").buried[0].tag  # type: ignore[union-attr]
    uncovered = run(catalogue, *lines, inp("uncover", tag=tag))
    assert (uncovered.state.table.madness[1], final_vp(uncovered.state.table)[1]) == (3, -1)
    # When the base leaves play, the Madness card goes back to Ben's discard: still his.
    game.apply(inp("remove-base", zone="base-2"))
    assert game.state.table.madness[1] == 3 and final_vp(game.state.table)[1] == -1


def test_bury_from_hand_takes_the_next_taps(catalogue: Catalogue) -> None:
    lines = [*START, inp("bury", zone="base-2", count=2)]
    document = doc(catalogue, *lines)
    assert document["burying"]["bury_next"] == {"zone": "base-2", "player": "Ann", "left": 2}
    document = doc(catalogue, *lines, tap("PA", "base-2"), tap("MS", "base-2"), tap("GF", "base-2"))
    assert base_at(document, "base-2")["buried_count"] == {"Ann": 2}
    assert [m["tag"] for m in base_at(document, "base-2")["minions"]] == ["GF"]
    assert document["burying"]["bury_next"] is None


def test_a_card_that_buries_itself_resolves_when_uncovered(catalogue: Catalogue) -> None:
    # Clarifications, Blessing of Anubis, Tomb Trap, You Can Take It With You: "If you use
    # this card's ability to bury itself, you reveal it and place it face down on the base. If
    # you uncover it you play it again but ignore the first part".
    lines = [*START, tap("PA", "base-2"), tap("BA", "base-2")]
    document = doc(catalogue, *lines)
    assert base_at(document, "base-2")["buried_count"] == {"Ann": 1}
    assert minion(document, "PA")["power"] == 4 + 2  # Priest: a card of Ann's buried there
    uncovered = doc(catalogue, *lines, tap("BA", "base-2"))
    assert minion(uncovered, "PA")["power"] == 4 + 2  # Blessing's +2, no longer buried
    assert base_at(uncovered, "base-2")["buried"] == []
    assert minion(doc(catalogue, *lines, tap("BA", "base-2"), inp("end-turn")), "PA")["power"] == 4


def test_tomb_trap_destroys_a_small_minion_when_uncovered(catalogue: Catalogue) -> None:
    lines = [*START, tap("TT", "base-1")]
    assert not prompts(doc(catalogue, *lines), "destroy")  # buried: nothing yet
    document = doc(catalogue, *lines, tap("TT", "base-1"))
    options = [o["label"] for o in prompts(document, "destroy")[0]["options"]]
    assert options == ["Destroy Killer Queen (4 power)", "Ignore"]  # Pharaoh has 5
    after = doc(catalogue, *lines, tap("TT", "base-1"), answer(document, "destroy", "Killer"))
    assert base_at(after, "base-1")["power"] == {"Ann": 5}


def test_you_can_take_it_with_you_buries_itself(catalogue: Catalogue) -> None:
    game = run(catalogue, *START, tap("YC", "base-2"))
    assert [b.tag for b in game.state.table.base_at("base-2").buried] == ["YC"]
    events = game.apply(tap("YC", "base-2")).events
    assert [e["event"] for e in events if e["event"] != "note"] == ["uncovered", "action-played"]


def test_pyramid_engineer_may_uncover_one_at_its_base(catalogue: Catalogue) -> None:
    lines = [
        *START,
        inp("bury", tag="PA", zone="base-2"),
        inp("bury", tag="MU", zone="base-1"),
        tap("PE", "base-2"),
    ]
    document = doc(catalogue, *lines)
    labels = [o["label"] for o in prompts(document, "uncover")[-1]["options"]]
    assert labels == ["Uncover buried card 1 of 1 at Tar Pits", "Ignore"]  # only its base
    assert document["burying"]["uncovers"] == {"Ann": 1}
    after = doc(catalogue, *lines, answer(document, "uncover", "Tar Pits"))
    assert minion(after, "PA")["power"] == 4 and after["burying"]["uncovers"] == {}


def test_pharaoh_may_uncover_before_its_base_scores(catalogue: Catalogue) -> None:
    lines = [
        *START,
        inp("bury", tag="PA", zone="base-1"),
        tap("SH", "base-1"),
        inp("score", zone="base-1"),
    ]
    document = doc(catalogue, *lines)
    assert prompts(document, "uncover")[-1]["message"].startswith("Pharaoh: Ann may uncover")
    game = run(catalogue, *lines)
    said = texts(game, [answer(document, "uncover", "Jungle Oasis")])
    assert any("Pharaoh: Ann draws 1" in text for text in said)


def test_mummy_may_be_buried_at_another_base_after_scoring(catalogue: Catalogue) -> None:
    lines = [
        *START,
        tap("MU", "base-1"),
        tap("SH", "base-1"),
        inp("score", zone="base-1"),
        inp("award"),
    ]
    document = doc(catalogue, *lines)
    prompt = prompts(document, "bury")[-1]
    assert [o["label"] for o in prompt["options"]] == ["Bury it at Tar Pits", "Ignore"]
    after = doc(catalogue, *lines, answer(document, "bury", "Tar Pits"))
    assert base_at(after, "base-2")["buried"] == [{"tag": "MU", "controller": "Ann"}]


@pytest.mark.parametrize(("tag", "count"), [("LK", 1), ("ST", 2)])
def test_lost_knowledge_and_seal_the_tomb_bury_or_uncover(
    catalogue: Catalogue, tag: str, count: int
) -> None:
    lines = [*START, inp("bury", tag="PA", zone="base-2"), tap(tag, "base-1")]
    document = doc(catalogue, *lines)
    labels = [o["label"] for o in prompts(document, "uncover")[-1]["options"]]
    plural = "s" if count > 1 else ""
    assert labels == [
        "Uncover buried card 1 of 1 at Tar Pits",
        f"Bury {count} card{plural} from hand at Jungle Oasis",
        f"Bury {count} card{plural} from hand at Tar Pits",
        "Ignore",
    ]
    assert document["burying"]["uncovers"] == {"Ann": count}
    bury = doc(catalogue, *lines, answer(document, "uncover", "at Jungle Oasis"))
    assert bury["burying"]["bury_next"] == {"zone": "base-1", "player": "Ann", "left": count}


def test_star_portal_draws_for_a_burial_there(catalogue: Catalogue) -> None:
    game = run(catalogue, tap("SP", "base-1"))
    said = texts(game, [inp("bury", tag="PA", zone="base-1")])
    assert any("Star Portal: Ann draws 1" in text for text in said)


def test_every_card_that_buries_or_uncovers_has_a_scenario_here(catalogue: Catalogue) -> None:
    from companion.catalogue.table_effects import BuryEffect, DestroyEffect

    kinds = (BuryEffect, DestroyEffect)
    cards = {c.id for c in catalogue if any(isinstance(e, kinds) for e in c.effects)}
    assert cards == {
        "oops/pharaoh",  # test_pharaoh_may_uncover_before_its_base_scores
        "oops/pyramid-engineer",  # test_pyramid_engineer_may_uncover_one_at_its_base
        "oops/mummy",  # test_mummy_may_be_buried_at_another_base_after_scoring
        "oops/blessing-of-anubis",  # test_a_card_that_buries_itself_resolves_when_uncovered
        "oops/lost-knowledge",  # test_lost_knowledge_and_seal_the_tomb_bury_or_uncover
        "oops/seal-the-tomb",  # test_lost_knowledge_and_seal_the_tomb_bury_or_uncover
        "oops/tomb-trap",  # test_tomb_trap_destroys_a_small_minion_when_uncovered
        "oops/you-can-take-it-with-you",  # test_you_can_take_it_with_you_buries_itself
    }


def test_pyramid_engineer_talent_buries_a_card_from_hand(catalogue: Catalogue) -> None:
    lines = [*START, tap("PE", "base-2"), inp("dismiss"), inp("talent", tag="PE")]
    document = doc(catalogue, *lines)
    lines.append(answer(document, "uncover", "Bury 1 card from hand at Tar Pits"))
    after = doc(catalogue, *lines, tap("MU", "base-2"))
    assert base_at(after, "base-2")["buried_count"] == {"Ann": 1}
