"""The generic Talent rule, over every Talent card in the catalogue, and the cards that change it.

The Oops rulebook, Terms: "Talent: This is an ability that the card may use once during the Play
Cards phase of each of your turns. You don't have to use it if you don't want to." (Monster
Smash: "once during each of your turns".) Cards may say otherwise ("when the rulesheet
disagrees with a card, follow the card"): Happy Zapper, Standing Stones.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.catalogue.cards import Card, Catalogue, load_catalogue
from companion.rules import game as rules
from companion.rules.talents import BEFORE_ITS_BASE_SCORES, SECOND_USE_HERE
from companion.tracker.state import Outcome, TrackerState
from companion.tracker.step import step
from tests.round_two_tapes import END, HEADER, TAGS, doc, inp, power, tap
from tests.tapes import run

TALENT_CARDS = sorted(
    card.id
    for card in load_catalogue()
    if card.text and "talent" in card.text.lower() and card.id not in SECOND_USE_HERE
)


def test_every_card_that_changes_the_talent_rule_is_a_talent_card_or_grants_one() -> None:
    """The exceptions are read from the cards' words: every card that speaks of a Talent
    "a second time" or "that talent just before its base scores" is listed, and nothing else."""
    catalogue = load_catalogue()
    second = {c.id for c in catalogue if "talent a second time" in (c.text or "").lower()}
    before = {
        c.id for c in catalogue if "talent just before its base scores" in (c.text or "").lower()
    }
    assert (second, before) == (set(SECOND_USE_HERE), set(BEFORE_ITS_BASE_SCORES))
    assert len(TALENT_CARDS) >= 25


def _in_play(catalogue: Catalogue, card: Card, controller: str) -> TrackerState:
    """Ann's turn 1 on two Jungle Oases; ``card`` in play under ``controller`` as "T" (an action
    on a minion rides a plain 2-power minion "M" of the same controller)."""
    state: TrackerState = run(
        catalogue, tap("JO", "base-1"), tap("J2", "base-2"), header=HEADER
    ).state
    table = state.table
    if card.is_minion:
        table = rules.play_minion(table, catalogue, "base-1", "T", card.id, controller, controller)
    elif card.play == "minion":
        table = rules.play_minion(
            table, catalogue, "base-1", "M", "core/ninja-acolyte", controller, controller
        )
        table = rules.attach_to_minion(table, "M", "T", card.id, controller, controller)
    else:
        table = rules.attach_to_base(table, "base-1", "T", card.id, controller, controller)
    return replace(state, table=table)


TALENT = {"input": "talent", "tag": "T"}


def refused(outcome: Outcome, said: str) -> bool:
    """Not applied: no talent event, nothing changed, a note saying why."""
    notes = [e.get("text", "") for e in outcome.events if e["event"] == "note"]
    talents = [e for e in outcome.events if e["event"] == "talent"]
    return not talents and not outcome.changed and any(said in n for n in notes)


def notes_of(catalogue: Catalogue, *lines: dict, **header: object) -> list[str]:
    """The notes the last line of the tape made."""
    game = run(catalogue, *lines[:-1], header={**HEADER, **header})
    return [e.get("text", "") for e in game.apply(lines[-1]).events if e["event"] == "note"]


@pytest.mark.parametrize("card_id", TALENT_CARDS)
def test_a_talent_is_used_once_during_each_of_its_controllers_turns(
    catalogue: Catalogue, card_id: str
) -> None:
    """ "may use once during the Play Cards phase of each of your turns": once on Ann's turn,
    not applied a second time that turn (a note says why), nor on Ben's turn, and once again
    on her next turn."""
    card = catalogue[card_id]
    state = _in_play(catalogue, card, "Ann")
    once = step(state, TALENT, catalogue)
    assert any(e["event"] == "talent" for e in once.events)
    assert refused(step(once.state, TALENT, catalogue), "already used its Talent this turn")
    bens = step(once.state, {"input": "end-turn"}, catalogue).state
    assert refused(step(bens, TALENT, catalogue), "each of its controller's own turns")
    anns_again = bens
    for _ in range(2):  # Ben's and Cat's turns end
        anns_again = step(anns_again, {"input": "end-turn"}, catalogue).state
    assert any(e["event"] == "talent" for e in step(anns_again, TALENT, catalogue).events)


def test_a_talent_used_twice_is_applied_once(catalogue: Catalogue) -> None:
    """Teenage Wolf: "Talent: +1 power this turn": a second use the same turn is not applied,
    so the wolf stays at 3 + 1 (the tape still replays)."""
    lines = [tap("JO", "base-1"), tap("J2", "base-2"), tap("TW", "base-1")]
    assert power(doc(catalogue, *lines, inp("talent", tag="TW")), "TW") == 4
    twice = [*lines, inp("talent", tag="TW"), inp("talent", tag="TW")]
    assert power(doc(catalogue, *twice), "TW") == 4
    assert any("already used its Talent this turn" in n for n in notes_of(catalogue, *twice))


def test_nobody_uses_an_uncontrolled_monsters_talent(catalogue: Catalogue) -> None:
    """A Talent is its controller's ("the card may use once during ... each of your turns");
    a monster is "controlled by no one unless you explicitly take control of them"."""
    state = run(catalogue, tap("BA", "base-1"), tap("M1", "base-1"), header=HEADER).state
    assert refused(step(state, {"input": "talent", "tag": "M1"}, catalogue), "nobody controls")


def test_happy_zapper_may_also_use_its_talent_just_before_its_base_scores(
    catalogue: Catalogue,
) -> None:
    """Happy Zapper: "Talent: discard a card to give this minion +2 power this turn. Special:
    you may also use that talent just before its base scores." Ben's Zapper, used on his turn,
    is used again when Cat scores its base (once for that scoring); a Teenage Wolf is not."""
    lines = [tap("JO", "base-1"), tap("J2", "base-2"), tap("TW", "base-1"), END]
    lines += [tap("HZ", "base-1"), inp("talent", tag="HZ"), END]
    lines += [inp("counter", tag="TW", delta=6), inp("score", zone="base-1")]
    scoring = doc(catalogue, *lines)
    assert power(scoring, "HZ") == 3
    zapped = doc(catalogue, *lines, inp("talent", tag="HZ"))
    assert power(zapped, "HZ") == 3 + 2
    again = [*lines, inp("talent", tag="HZ"), inp("talent", tag="HZ")]
    assert power(doc(catalogue, *again), "HZ") == 3 + 2
    assert any("a base is scoring now" in n for n in notes_of(catalogue, *again))
    wolf = [*lines, inp("talent", tag="TW")]  # Ann's wolf, on Cat's turn
    assert power(doc(catalogue, *wolf), "TW") == 3 + 6
    assert any("a base is scoring now" in n for n in notes_of(catalogue, *wolf))


def test_happy_zappers_extra_use_waits_for_its_own_base_to_score(catalogue: Catalogue) -> None:
    """ "just before *its* base scores": another base scoring gives it nothing."""
    lines = [tap("JO", "base-1"), tap("J2", "base-2"), tap("TW", "base-2"), END]
    lines += [tap("HZ", "base-1"), END, inp("counter", tag="TW", delta=9)]
    lines += [inp("score", zone="base-2"), inp("talent", tag="HZ")]
    assert power(doc(catalogue, *lines), "HZ") == 3
    assert any("a base is scoring now" in n for n in notes_of(catalogue, *lines))


def test_talents_belong_to_the_play_cards_phase(catalogue: Catalogue) -> None:
    """ "An ability labeled "Talent" can only be used once during this phase of your turn" (the
    Play Cards phase): not once a base is chosen to score."""
    lines = [tap("JO", "base-1"), tap("J2", "base-2"), tap("TW", "base-1")]
    lines += [inp("counter", tag="TW", delta=9), inp("score", zone="base-1")]
    scoring = [*lines, inp("talent", tag="TW")]
    assert power(doc(catalogue, *scoring), "TW") == 3 + 9
    assert any("a base is scoring now" in n for n in notes_of(catalogue, *scoring))


def test_standing_stones_give_one_minion_here_a_second_use(catalogue: Catalogue) -> None:
    """Standing Stones: "On your turn, one minion of yours here gets to use its Talent a second
    time": one minion, once a turn; a minion elsewhere gets none."""
    more = {"SS": "monster-smash/standing-stones", "T3": "monster-smash/teenage-wolf"}
    header = {"tags": {**TAGS, **more}}
    lines = [tap("SS", "base-1"), tap("JO", "base-2"), tap("TW", "base-1"), tap("T2", "base-1")]
    lines += [tap("T3", "base-2"), inp("talent", tag="TW"), inp("talent", tag="T2")]
    lines += [inp("talent", tag="T3"), inp("talent", tag="TW")]
    document = doc(catalogue, *lines, **header)
    assert power(document, "TW") == 3 + 2
    for tag, was in (("T2", 3 + 1), ("T3", 3 + 1)):
        later = [*lines, inp("talent", tag=tag)]
        assert power(doc(catalogue, *later, **header), tag) == was
        assert any("already used its Talent" in n for n in notes_of(catalogue, *later, **header))


def test_the_first_minion_played_here_may_be_a_monster(catalogue: Catalogue) -> None:
    """Moot Site: "The first minion played here each turn gets +2 power for the rest of that
    turn"; the Smash Up: Munchkin rulebook: "Monsters are minions, and their abilities trigger
    just as with normal minions". A monster played there first (Big Hero's Talent: "play a
    monster onto it") takes the +2, and the minion played after it gets none."""
    lines = [tap("MS", "base-1"), tap("M3", "base-1"), tap("TW", "base-1")]
    document = doc(catalogue, *lines)
    assert (power(document, "M3"), power(document, "TW")) == (3 + 2, 3)
