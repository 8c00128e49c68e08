"""What the table sees, computed (issue 14, part 2), as small tapes: triggers the tracker sees,
Talents through the ``talent`` input, going to the discard pile, tracked state, cancelling
at the table, and taking control for a turn."""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from tests.round_two_tapes import END, base, doc, inp, pick, power, prompt, tap

START = [tap("JO", "base-1"), tap("J2", "base-2")]  # Ann's turn 1


def test_howler_gets_its_two_when_played(catalogue: Catalogue) -> None:
    """Howler: "On play, +2 power this turn" (the tracker sees the play)."""
    document = doc(catalogue, *START, tap("HW", "base-1"))
    assert power(document, "HW") == 4
    assert power(doc(catalogue, *START, tap("HW", "base-1"), END), "HW") == 2


def test_moot_site_boosts_the_first_minion_played_there_each_turn(catalogue: Catalogue) -> None:
    """Moot Site: "The first minion played here each turn gets +2 power for the rest of that
    turn"."""
    lines = [tap("MS", "base-1"), tap("TW", "base-1"), tap("LG", "base-1")]
    document = doc(catalogue, *lines)
    assert (power(document, "TW"), power(document, "LG")) == (3 + 2, 4)
    later = doc(catalogue, *lines, END, tap("HZ", "base-1"))  # Ben's turn: his first there
    assert (power(later, "TW"), power(later, "HZ")) == (3, 3 + 2)


def test_talents_resolve_through_the_talent_input(catalogue: Catalogue) -> None:
    """Teenage Wolf "+1 power this turn", Happy Zapper "+2 this turn", Huscarl "+2 this turn",
    Elf Help Guru "opponents' minions on this base each get +1 power this turn"."""
    wolf = doc(catalogue, *START, tap("TW", "base-1"), inp("talent", tag="TW"))
    assert power(wolf, "TW") == 4
    ben = [*START, tap("TW", "base-1"), END, tap("HZ", "base-1"), inp("talent", tag="HZ")]
    assert power(doc(catalogue, *ben), "HZ") == 5
    cat = [*ben, END, tap("HU", "base-1"), inp("talent", tag="HU")]
    assert power(doc(catalogue, *cat), "HU") == 4
    guru = doc(catalogue, *ben, END, tap("EG", "base-1"), inp("talent", tag="EG"))
    # Happy Zapper's +2 ended with Ben's turn; the Guru's +1 reaches both opponents' minions
    assert (power(guru, "TW"), power(guru, "HZ"), power(guru, "EG")) == (3 + 1, 3 + 1, 2)


def test_marking_territory_resets_the_breakpoint_when_its_controller_is_ahead(
    catalogue: Catalogue,
) -> None:
    """Marking Territory at the start of your turn, ahead there: the breakpoint becomes 0
    for the turn, and "Monster power and other effects add to or subtract from that value"
    (Smash Up: Munchkin rulebook, Void Where Prohibited)."""
    lines = [tap("BA", "base-1"), tap("M1", "base-1"), tap("M2", "base-1"), tap("M3", "base-1")]
    lines += [tap("J2", "base-2"), tap("PA", "base-1"), tap("MT", "base-1")]
    assert base(doc(catalogue, *lines), "base-1")["breakpoint"] == 11 + 1 + 3 + 3
    lines += [END, END, END]  # Ann's next turn starts: Ann 5 there, nobody else
    reset = base(doc(catalogue, *lines), "base-1")
    assert (reset["breakpoint"], reset["ready"]) == (0 + 1 + 3 + 3, False)
    assert base(doc(catalogue, *lines, END), "base-1")["breakpoint"] == 18  # Ben's turn


def test_final_haiku_boosts_when_its_minion_goes_to_the_discard_pile(
    catalogue: Catalogue,
) -> None:
    """Final Haiku: "when it goes from play to the discard pile, all your minions get +2
    power this turn"."""
    lines = [*START, END, tap("BU", "base-1"), tap("SA", "base-2"), tap("FH", "base-1")]
    lines += [tap("BU", "base-1")]  # its target
    document = doc(catalogue, *lines, tap("BU", "discard"))
    assert power(document, "SA") == 2 + 2


def test_bushi_and_viking_funeral_score_when_discarded_with_their_base(
    catalogue: Catalogue,
) -> None:
    """Bushi: "If it leaves play to the discard pile while at power 5+, you score 1 VP";
    Viking Funeral: "when it goes to the discard pile gain 1 VP" (its minion). Scoring
    discards everything on the base (Munchkin rulebook, Back to Your Corners)."""
    lines = [*START, END, tap("BU", "base-1"), inp("counter", tag="BU", delta=1), END]
    lines += [tap("HU", "base-1"), tap("VF", "base-1"), tap("HU", "base-1")]
    lines += [inp("counter", tag="HU", delta=6)]  # 2 + 6 = 8: Jungle Oasis (12) breaks
    document = doc(catalogue, *lines, inp("score", zone="base-1"), inp("award"))
    vp = {p["name"]: p["vp"] for p in document["players"]}
    # Huscarl 8 wins (2 VP) +1 Viking Funeral; Bushi 5 is second (0 VP) +1 Bushi
    assert vp == {"Ann": 0, "Ben": 1, "Cat": 2 + 1}


def test_bastion_draws_one_more_treasure_for_a_monster_destroyed_there(
    catalogue: Catalogue,
) -> None:
    """Bastion: every time you destroy a monster here you also draw 1 treasure."""
    lines = [tap("BA", "base-1"), tap("M1", "base-1"), tap("M2", "base-1"), tap("M3", "base-1")]
    document = doc(catalogue, *lines, tap("M2", "discard"), tap("M1", "discard"))
    draws = [(d["card"], d["count"], d["player"]) for d in document["treasure_draws"]]
    assert draws == [("munchkin/hippogriff", 1 + 1, "Ann"), ("munchkin/web-troll", 0 + 1, "Ann")]


def test_charm_takes_a_monster_until_the_end_of_the_turn(catalogue: Catalogue) -> None:
    """Charm: "Take control of a monster until the end of the turn and treat it as one of
    your minions"; a controlled monster "acts as a normal minion of that player"."""
    lines = [tap("BA", "base-1"), tap("M1", "base-1"), tap("M2", "base-1"), tap("M3", "base-1")]
    lines += [tap("J2", "base-2"), END, tap("HZ", "base-1"), tap("CH", "base-1")]
    asked = doc(catalogue, *lines)
    assert prompt(asked, "control")["options"][0]["line"]["until"] == "end-of-turn"
    lines.append(pick(asked, "control", "Hippogriff"))
    taken = doc(catalogue, *lines)
    assert base(taken, "base-1")["power"]["Ben"] == 3 + 3
    assert base(taken, "base-1")["breakpoint"] == 11 + 1 + 3
    back = doc(catalogue, *lines, END)
    assert base(back, "base-1")["breakpoint"] == 11 + 1 + 3 + 3
    hippogriff = next(m for m in base(back, "base-1")["monsters"] if m["tag"] == "M2")
    assert hippogriff["controller"] is None


def test_curse_of_imprisonment_cancels_triggered_abilities_too(catalogue: Catalogue) -> None:
    """Curse of Imprisonment: the bearer's abilities stop working, every one (Terms: "Cancel:
    This means the ability is treated as if it does not exist"): a cursed Teenage Wolf's
    Talent gives nothing."""
    lines = [*START, tap("TW", "base-1"), END, END, END, tap("CI", "base-1"), tap("TW", "base-1")]
    document = doc(catalogue, *lines, inp("talent", tag="TW"))
    assert power(document, "TW") == 3


def test_potion_of_paralysis_cancels_cards_played_there_afterwards(catalogue: Catalogue) -> None:
    """Potion of Paralysis (rulebook clarification): "It does cancel those of cards played to
    its base after it is played": Howler's on-play +2 does not happen there."""
    document = doc(catalogue, *START, tap("PP", "base-1"), tap("HW", "base-1"))
    assert power(document, "HW") == 2
    elsewhere = doc(catalogue, *START, tap("PP", "base-1"), tap("HW", "base-2"))
    assert power(elsewhere, "HW") == 4


def test_a_current_treasure_bath_gives_a_treasure_for_the_first_minion(
    catalogue: Catalogue,
) -> None:
    """Treasure Bath as printed today: "First minion you play here each turn -> gain 1
    treasure" (the header chooses the printing)."""
    current = {"printings": {"munchkin": "current"}}
    lines = [tap("TB", "base-1"), tap("M1", "base-1"), tap("TW", "base-1"), tap("LG", "base-1")]
    document = doc(catalogue, *lines, **current)
    assert [(d["player"], d["count"]) for d in document["treasure_draws"]] == [("Ann", 1)]
    assert doc(catalogue, *lines)["treasure_draws"] == []  # the 2015 print: unknown text


def test_a_current_whack_a_ghoul_places_one_monster_per_player(catalogue: Catalogue) -> None:
    """Whack-A-Ghoul as printed today: "Monsters: 1 undead per player" (two here)."""
    two = {"players": ["Ann", "Ben"], "factions": {"Ann": ["munchkin/clerics"], "Ben": []}}
    current = doc(catalogue, tap("WG", "base-1"), printings={"munchkin": "current"}, **two)
    assert base(current, "base-1")["monsters_to_place"] == 2
    assert base(current, "base-1")["breakpoint"] == 13
    first = base(doc(catalogue, tap("WG", "base-1"), **two), "base-1")
    assert (first["monsters_to_place"], first["breakpoint"]) == (3, 12)


def test_rampage_asks_which_minion_and_lowers_the_breakpoint_by_its_power(
    catalogue: Catalogue,
) -> None:
    """Rampage: "Lower a base's breakpoint this turn by the power of one of your minions on
    it": the tablet asks which minion; its power then is what the breakpoint loses."""
    lines = [*START, tap("LG", "base-1"), tap("RP", "base-1")]
    asked = doc(catalogue, *lines)
    lines.append(pick(asked, "choose-target", "Loup-Garou"))
    assert base(doc(catalogue, *lines), "base-1")["breakpoint"] == 12 - 4
    assert base(doc(catalogue, *lines, END), "base-1")["breakpoint"] == 12
