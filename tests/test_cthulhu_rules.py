"""Munchkin Cthulhu's rules through small tapes. Citations: shared/seeds/004_4333ef4b9454fdb3.txt
(Munchkin Cthulhu rules v1.7), by line."""

from __future__ import annotations

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import TapeError
from tests.cthulhu_tapes import HEADER, doc, inp, player, run, tap

MARGOT_SETUP = [
    inp("level", player="Margot", delta=3),  # "Margot is a 4th-Level Cultist"
    tap("CU2", "seat-2"),  # Gene, the other Cultist
    tap("CU1", "seat-1"),
    tap("FR", "seat-1"),  # the Frothing enhancer, kept by a Cultist: +3
]


def escapes(catalogue: Catalogue, lines: list, name: str, roll: int, **kw: dict) -> bool:
    """Whether ``name`` got away with ``roll`` after ``lines`` (the event says)."""
    game = run(catalogue, *lines, **kw)
    events = game.apply(inp("run-away", player=name, roll=roll)).events
    return bool(next(e["escaped"] for e in events if e["event"] == "ran"))


def combat(document: dict) -> tuple[int, int]:
    fight = document["combat"]
    return fight["players_strength"], fight["monsters_strength"]


def test_the_rulebooks_combat_example_step_by_step(catalogue: Catalogue) -> None:
    """Lines 168-202: Margot, Gene and the Grape Old Ones."""
    lines = [*MARGOT_SETUP, tap("GO", "combat")]
    # "Margot's at a 9 and the Grape Old Ones are at a 10 (Level 12, -2 vs females)"
    assert combat(doc(catalogue, *lines)) == (9, 10)
    assert doc(catalogue, *lines)["combat"]["winning"] is False
    lines.append(tap("CM", "combat"))  # Canned Meat: +3 for this fight
    assert combat(doc(catalogue, *lines)) == (12, 10)
    # Gene plays Curse! Amnesia on her: "Victim discards their Class"; with it goes the Frothing
    # she played on it ("Enhancer cards played on a Cultist are discarded")
    lines.append(tap("AMNESIA", "seat-1"))
    after_amnesia = doc(catalogue, *lines)
    assert player(after_amnesia, "Margot")["classes"] == []
    assert player(after_amnesia, "Margot")["kept"] == []
    # The printed "10 to 4" leaves out the Canned Meat played earlier in this same fight;
    # a one-shot lasts the fight (its card: "Adds 3 ... in a fight"), so we count 4 + 3.
    assert combat(after_amnesia) == (7, 10)
    chris_before = player(after_amnesia, "Chris")["level"]
    lines.append(tap("CU3", "seat-1"))  # another Cultist card: +2 for Gene again
    regained = doc(catalogue, *lines)
    assert combat(regained) == (9, 10)  # printed: "still losing, 10 to 6" (+3 meat, as above)
    # "Chris: Hey, I'm the only non-Cultist! I get a level!" (line 190, rule line 238)
    assert player(regained, "Chris")["level"] == chris_before + 1
    lines.append(tap("MS", "combat"))  # In A Million-Year Sleep: -5 to the monster
    slept = doc(catalogue, *lines)
    assert combat(slept)[1] == 5 and slept["combat"]["winning"] is True
    lines.append(inp("resolve"))
    done = doc(catalogue, *lines)
    # "Margot goes up a level and claims ... three ... minus one" (line 202)
    assert player(done, "Margot")["level"] == 5
    assert done["last_combat"] == {
        "won": True,
        "levels": 1,
        "treasures": 2,
        "fighter": "Margot",
        "helper": None,
    }
    assert done["combat"] is None


def test_levels_never_below_one_and_the_tenth_only_by_a_kill(catalogue: Catalogue) -> None:
    """Line 34: "You must kill a monster to reach Level 10"; Levels never below 1."""
    assert player(doc(catalogue, inp("level", player="Gene", delta=-3)), "Gene")["level"] == 1
    high = doc(catalogue, inp("level", player="Gene", delta=20))
    assert player(high, "Gene")["level"] == 9 and high["winner"] is None
    nine = [inp("level", player="Gene", delta=8), tap("ARMY", "seat-2")]
    assert player(doc(catalogue, *nine), "Gene")["level"] == 9  # Go Up a Level: never the 10th
    # it is Margot's turn: Gene fights on his own turn
    kill = [*nine, inp("end-turn"), tap("BUGG", "combat"), inp("resolve")]
    won = doc(catalogue, *kill)
    assert player(won, "Gene")["level"] == 10
    assert won["winner"] == "Gene" and won["winners"] == ["Gene"]


def test_selling_gives_a_level_per_full_thousand_and_never_the_tenth(catalogue: Catalogue) -> None:
    """Line 258: 1,100 gold buys one level, no change; never to Level 10."""
    carried = [tap("TESLA", "seat-1"), tap("BOW", "seat-1"), tap("FLAME", "seat-1")]
    sold = doc(catalogue, *carried, inp("sell", player="Margot", tags=["TESLA", "BOW"]))
    assert player(sold, "Margot")["level"] == 2  # 900 + 200 = 1,100
    assert [i["card"] for i in player(sold, "Margot")["items"]] == ["munchkin-cthulhu/flamethrower"]
    rich = doc(
        catalogue,
        *carried,
        inp("level", player="Margot", delta=7),
        inp("sell", player="Margot", tags=["TESLA", "BOW", "FLAME"]),
    )
    assert player(rich, "Margot")["level"] == 9  # 1,900 gold would make 9 -> 9, never 10
    with pytest.raises(TapeError, match="is Gene's: sell your own items"):
        run(catalogue, tap("BOW", "seat-2"), inp("sell", player="Margot", tags=["BOW"]))
    at_nine = [*carried, inp("level", player="Margot", delta=8)]
    with pytest.raises(TapeError, match="at Level 9: items never buy Level 10"):
        run(catalogue, *at_nine, inp("sell", player="Margot", tags=["TESLA"]))


def test_items_sell_only_on_the_sellers_own_turn_and_never_in_combat(
    catalogue: Catalogue,
) -> None:
    """Line 258: "During your turn, you may discard items worth at least 1,000 Gold Pieces
    and immediately go up one level"; line 92: "While you are in combat, you cannot sell,
    steal, equip, unequip, or trade items"."""
    gene = [tap("TESLA", "seat-2"), tap("BUG", "seat-2")]
    with pytest.raises(TapeError, match="Gene can sell only during their own turn"):
        run(catalogue, *gene, inp("sell", player="Gene", tags=["TESLA", "BUG"]))
    turn = doc(catalogue, *gene, inp("end-turn"), inp("sell", player="Gene", tags=["TESLA", "BUG"]))
    assert player(turn, "Gene")["level"] == 2
    fight = [*gene, inp("end-turn"), tap("BUGG", "combat")]
    with pytest.raises(TapeError, match="Gene is in combat"):
        run(catalogue, *fight, inp("sell", player="Gene", tags=["TESLA", "BUG"]))


def test_plus_at_level_nine_is_refused_with_the_reason(catalogue: Catalogue) -> None:
    """Line 34: "You must kill a monster to reach Level 10": "+" at Level 9 changes nothing,
    so the tablet refuses it and says why instead of noting "+1 Level"."""
    nine = [inp("level", player="Gene", delta=8)]
    with pytest.raises(TapeError, match="Gene is at Level 9: the 10th Level comes only from"):
        run(catalogue, *nine, inp("level", player="Gene", delta=1))
    assert (
        player(doc(catalogue, *nine, inp("level", player="Gene", delta=-1)), "Gene")["level"] == 8
    )
    with pytest.raises(TapeError, match="unknown"):
        run(catalogue, tap("COWL", "seat-1"), inp("sell", player="Margot", tags=["COWL"]))


def test_slots_and_class_restrictions_decide_what_is_in_use(catalogue: Catalogue) -> None:
    """Lines 244-250: one armor; two hands; items a class may not use are carried only. The
    Miskatonic University T-Shirt says "Worn alongside other Armor": it is worn too."""
    lines = [
        tap("TEE", "seat-3"),
        tap("TESLA", "seat-3"),  # the better armor is worn
        tap("BOW", "seat-3"),
        tap("NNC", "seat-3"),
        tap("BP", "seat-3"),  # +4 on two hands beats 2 + 3? no: 5 > 4, the 1-hand pair stays
        tap("ELDER", "seat-3"),  # Investigator only
    ]
    chris = player(doc(catalogue, *lines), "Chris")
    in_use = {i["card"].split("/")[1]: (i["in_use"], i["why_not"]) for i in chris["items"]}
    assert in_use["professor-teslas-electrical-protective-device-pat-pending"] == (True, None)
    assert in_use["miskatonic-university-t-shirt"] == (True, "Worn alongside other Armor")
    assert in_use["necronookiecon"][0] and in_use["bowling-pin"][0]
    assert in_use["bagpipes"] == (False, "no free hand")
    assert in_use["elder-sign"] == (False, "Investigator only")
    assert chris["gear"] == 4 + 1 + 3 + 2
    assert chris["strength"] == 1 + 10
    investigator = player(doc(catalogue, *lines, tap("INV", "seat-3")), "Chris")
    assert investigator["gear"] == 4 + 1 + 3 + 3  # the Elder Sign now beats the Bowling Pin


def test_modifiers_against_fighter_or_helper_count_once_and_monsters_add_up(
    catalogue: Catalogue,
) -> None:
    """Lines 100 and 108: combined strengths; a helper's class or sex counts, never twice."""
    # Chibithulhu: Level 2, +4 vs females
    assert doc(catalogue, tap("CHIBI", "combat"))["combat"]["monsters_strength"] == 6
    gene_fights = [inp("end-turn"), tap("CHIBI", "combat")]
    assert doc(catalogue, *gene_fights)["combat"]["monsters_strength"] == 2
    helped = doc(catalogue, *gene_fights, inp("help", player="Margot"))["combat"]
    assert helped["monsters_strength"] == 6
    both_female = {**HEADER, "sex": {"Margot": "female", "Gene": "female", "Chris": "male"}}
    once = doc(catalogue, *gene_fights, inp("help", player="Margot"), header=both_female)
    assert once["combat"]["monsters_strength"] == 6  # not +8: a modifier counts once
    two = doc(catalogue, *gene_fights, tap("BUGG", "combat"))["combat"]
    assert two["monsters_strength"] == 2 + 1 and len(two["monsters"]) == 2


def test_only_strictly_stronger_players_win_and_the_helper_gains_no_level(
    catalogue: Catalogue,
) -> None:
    """Line 82: "equal ... you lose"; the fighter gains the levels (line 104ff)."""
    tie = doc(catalogue, tap("BUGG", "combat"))  # Buggoth is Level 1, so is Margot
    assert tie["combat"]["players_strength"] == tie["combat"]["monsters_strength"] == 1
    assert tie["combat"]["winning"] is False and tie["combat"]["margin"] == 0
    lost = doc(catalogue, tap("BUGG", "combat"), inp("resolve"))
    assert lost["last_combat"]["won"] is False and lost["running"]["players"] == ["Margot"]
    helped = doc(
        catalogue,
        tap("TESLA", "seat-2"),
        tap("FLAME", "seat-2"),
        tap("BUGG", "combat"),
        tap("SPAWN", "combat"),  # +5 to the monster, +1 treasure
        inp("help", player="Gene"),
        inp("resolve"),
    )
    assert helped["last_combat"]["won"] is True
    assert helped["last_combat"]["treasures"] == 1 + 1
    assert player(helped, "Margot")["level"] == 2 and player(helped, "Gene")["level"] == 1


def test_running_away_needs_five_with_the_monsters_modifiers(catalogue: Catalogue) -> None:
    """Line 166: escape on a 5 or better; Joggoth gives -2 to Run Away."""
    caught = [tap("GO", "combat"), inp("help", player="Gene"), inp("resolve")]
    running = doc(catalogue, *caught)["running"]
    assert [(r["player"], r["monster"], r["needs"]) for r in running.pop("rolls")] == [
        ("Margot", "GO", 5),
        ("Gene", "GO", 5),
    ]
    assert running == {
        "players": ["Margot", "Gene"],
        "needs": {"Margot": 5, "Gene": 5},
        "bad_stuff": [
            {"card": "munchkin-cthulhu/grape-old-ones", "text": "throw away your entire hand."}
        ],
    }
    assert escapes(catalogue, caught, "Margot", 5) is True
    assert escapes(catalogue, caught, "Margot", 4) is False
    after = doc(catalogue, *caught, inp("run-away", player="Margot", roll=4))
    assert after["running"]["players"] == ["Gene"]
    said = run(catalogue, *caught).apply(inp("run-away", player="Margot", roll=4)).events
    assert said[0]["text"] == (  # the Bad Stuff to resolve, in the card's words
        "Margot rolled 4: caught. Bad Stuff, resolve it by hand: "
        "Grape Old Ones: throw away your entire hand."
    )
    slow = [tap("JOG", "combat"), tap("SPAWN", "combat"), inp("resolve")]
    assert doc(catalogue, *slow)["running"]["needs"] == {"Margot": 7}
    with pytest.raises(TapeError, match="1 to 6"):
        run(catalogue, *caught, inp("run-away", player="Margot", roll=7))
    with pytest.raises(TapeError, match="not running away"):
        run(catalogue, *caught, inp("run-away", player="Chris", roll=6))


def test_all_but_one_cultist_gives_that_one_a_level_that_can_win(catalogue: Catalogue) -> None:
    """Line 238."""
    two = doc(catalogue, tap("CU1", "seat-1"), tap("CU2", "seat-2"))
    assert player(two, "Chris")["level"] == 2
    nine = [inp("level", player="Chris", delta=8), tap("CU1", "seat-1"), tap("CU2", "seat-2")]
    won = doc(catalogue, *nine)
    assert player(won, "Chris")["level"] == 10 and won["winner"] == "Chris"


def test_all_cultists_end_the_game_and_the_highest_levels_win(catalogue: Catalogue) -> None:
    """Line 240."""
    lines = [
        inp("level", player="Gene", delta=3),
        inp("level", player="Chris", delta=2),  # +1 more as the last non-Cultist: a tie
        tap("CU1", "seat-1"),
        tap("CU2", "seat-2"),
        tap("CU3", "seat-3"),
    ]
    over = doc(catalogue, *lines)
    assert over["winners"] == ["Gene", "Chris"] and over["winner"] == "Gene"
    with pytest.raises(TapeError, match="over"):
        run(catalogue, *lines, inp("end-turn"))


def test_class_bonus_counts_other_cultists(catalogue: Catalogue) -> None:
    """Cultist card: "+2 in combat for each other Cultist in play"."""
    one = doc(catalogue, tap("CU1", "seat-1"))
    assert player(one, "Margot")["strength"] == 1
    both = doc(catalogue, tap("CU1", "seat-1"), tap("CU2", "seat-2"))
    assert player(both, "Margot")["strength"] == 3 and player(both, "Gene")["strength"] == 3


def test_bad_taps_are_prompts_and_bad_inputs_are_refused(catalogue: Catalogue) -> None:
    unknown = doc(catalogue, tap("FFFF", "seat-1"))
    assert [p["kind"] for p in unknown["prompts"]] == ["unknown-tag"]
    wrong = doc(catalogue, tap("GO", "seat-2"))
    assert [p["kind"] for p in wrong["prompts"]] == ["wrong-zone"] and wrong["combat"] is None
    gone = doc(catalogue, tap("BOW", "discard"))
    assert [p["kind"] for p in gone["prompts"]] == ["not-in-play"]
    four_seats = {**HEADER, "zones": ["seat-1", "seat-2", "seat-3", "seat-4", "combat", "discard"]}
    with pytest.raises(TapeError, match="nobody sits at seat-4"):
        run(catalogue, tap("BOW", "seat-4"), header=four_seats)
    with pytest.raises(TapeError, match="no combat to resolve"):
        run(catalogue, inp("resolve"))
    with pytest.raises(TapeError, match="is the one fighting"):
        run(catalogue, tap("BUGG", "combat"), inp("help", player="Margot"))
    with pytest.raises(TapeError, match="resolve it first"):
        run(catalogue, tap("BUGG", "combat"), inp("end-turn"))


def test_an_item_tapped_at_another_seat_is_given_and_undo_is_exact(catalogue: Catalogue) -> None:
    given = doc(catalogue, tap("BOW", "seat-1"), tap("BOW", "seat-2"))
    assert player(given, "Margot")["items"] == []
    assert [i["card"] for i in player(given, "Gene")["items"]] == ["munchkin-cthulhu/bowling-pin"]
    game = run(catalogue, tap("BOW", "seat-1"))
    before = doc(catalogue, tap("BOW", "seat-1"))
    game.apply({"tap": "BOW", "zone": "seat-2"})
    game.apply({"input": "undo"})
    from companion.tracker.document import state_document

    after = state_document(game.state, catalogue)
    assert {**after, "version": 0} == {**before, "version": 0}


def test_a_shared_pad_asks_where_the_card_went(catalogue: Catalogue) -> None:
    """A table with fewer readers: one pad, and the tablet chooses the seat."""
    pad = {**HEADER, "zones": [*HEADER["zones"], "pad"]}
    asked = doc(catalogue, tap("GO", "pad"), header=pad)
    prompt = asked["prompts"][0]
    assert prompt["kind"] == "choose-zone" and prompt["message"] == "Where does Grape Old Ones go?"
    assert [o["label"] for o in prompt["options"]] == [
        "The fight",
        "Margot's",
        "Gene's",
        "Chris's",
        "Discarded",
        "Ignore",
    ]
    fought = doc(catalogue, tap("GO", "pad"), inp("answer", prompt=1, option=0), header=pad)
    assert fought["combat"]["monsters"][0]["card"] == "munchkin-cthulhu/grape-old-ones"
    item = doc(catalogue, inp("end-turn"), tap("BOW", "pad"), header=pad)["prompts"][0]
    assert [o["label"] for o in item["options"]][:2] == ["Gene's", "Chris's"]


def test_items_that_help_running_away_count(catalogue: Catalogue) -> None:
    """Line 166: "Some items or abilities make it easier" (Fake Tentacle: +1 to Run Away)."""
    pad = {**HEADER, "tags": {**HEADER["tags"], "TENT": "munchkin-cthulhu/fake-tentacle"}}
    lines = [tap("TENT", "seat-2"), tap("GO", "combat"), inp("help", player="Gene")]
    running = doc(catalogue, *lines, inp("resolve"), header=pad)["running"]
    assert running["needs"] == {"Margot": 5, "Gene": 4}
    lost = [*lines, inp("resolve")]
    assert escapes(catalogue, lost, "Gene", 4, header=pad) is True
    assert escapes(catalogue, lost, "Margot", 4, header=pad) is False
