"""Munchkin Cthulhu's slot, hand and class rules (issue 25, part 2), each from the rulebook's
(v1.7, ``shared/seeds/004_...txt``) or the card's words."""

from __future__ import annotations

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import TapeError
from tests.cthulhu_more import MORE_HEADER, doc, inp, pick, player, run, sides, tap, uses
from tests.cthulhu_tapes import doc as plain

CLASSES = "munchkin-cthulhu/"


def classes(document: dict, name: str) -> list[str]:
    return [c.removeprefix(CLASSES) for c in player(document, name)["classes"]]


def test_one_class_at_a_time(catalogue: Catalogue) -> None:
    """ "You may not belong to more than one class at once unless you play the Super Munchkin
    card": a second class replaces the first (it is discarded)."""
    document = doc(catalogue, tap("PRO", "seat-1"), tap("INV", "seat-1"))
    assert classes(document, "Margot") == ["investigator"]


def test_super_munchkin_allows_two_classes(catalogue: Catalogue) -> None:
    """Super Munchkin: "Hold two Classes"; "you must have a Class to play it"."""
    lines = [tap("PRO", "seat-1"), tap("SM", "seat-1"), tap("INV", "seat-1")]
    assert classes(doc(catalogue, *lines), "Margot") == ["professor", "investigator"]
    third = doc(catalogue, *lines, tap("MW", "seat-1"))
    assert classes(third, "Margot") == ["investigator", "monster-whacker"]
    classless = doc(catalogue, tap("SM2", "seat-2"))
    assert player(classless, "Gene")["boons"] == []


def test_a_cultist_cannot_take_another_class_without_super_munchkin(catalogue: Catalogue) -> None:
    """ "you *cannot* discard the Cultist card voluntarily", so a Cultist who plays an
    Investigator stays a Cultist only (the tablet says why); with Super Munchkin, both."""
    refused = doc(catalogue, tap("CU1", "seat-1"), tap("INV", "seat-1"))
    assert classes(refused, "Margot") == ["cultist"]
    assert refused["prompts"][-1]["kind"] == "not-allowed"
    assert "cannot discard the Cultist card voluntarily" in refused["prompts"][-1]["message"]
    both = doc(catalogue, tap("CU1", "seat-1"), tap("SM", "seat-1"), tap("INV", "seat-1"))
    assert classes(both, "Margot") == ["cultist", "investigator"]


def test_the_cultist_card_is_kept_unless_a_card_takes_it(catalogue: Catalogue) -> None:
    """Cultist: "You cannot voluntarily discard this class! You can still lose it because of
    cards played by yourself or others"; it goes "in a separate discard pile"; and "If there
    is only ONE Cultist, then nothing can make him lose his Class except Divine Intervention"."""
    two = [tap("CU1", "seat-1"), tap("CU2", "seat-2")]
    tapped = doc(catalogue, *two, tap("CU1", "discard"))
    assert classes(tapped, "Margot") == ["cultist"]
    taken = doc(catalogue, *two, tap("CU1", "discard"), pick(tapped, "A card took it"))
    assert classes(taken, "Margot") == []
    assert [c["tag"] for c in taken["cultist_pile"]] == ["CU1"]
    alone = [tap("CU1", "seat-1"), tap("CU1", "discard")]
    only = doc(catalogue, *alone, pick(doc(catalogue, *alone), "A card took it"))
    assert classes(only, "Margot") == ["cultist"]
    assert (
        doc(catalogue, tap("PRO", "seat-1"), tap("PRO", "discard"))["players"][0]["classes"] == []
    )


def test_become_a_cultist_takes_the_waiting_card_or_escapes(catalogue: Catalogue) -> None:
    """ "If any card tells you "Become a Cultist," and there is a discarded Cultist card waiting
    for you, then you *must* take it. If there is no Cultist card, you escaped" (Ruggoth: "Bad
    Stuff: you become a Cultist")."""
    caught = [tap("RUG", "combat"), tap("GO", "combat"), inp("resolve")]
    escaped = doc(catalogue, *caught, inp("run-away", player="Margot", roll=1))
    assert classes(escaped, "Margot") == []
    pile = [tap("CU1", "seat-1"), tap("CU2", "seat-2"), tap("CU1", "discard")]
    pile.append(pick(doc(catalogue, *pile), "A card took it"))
    joined = doc(catalogue, *pile, *caught, inp("run-away", player="Margot", roll=1))
    assert classes(joined, "Margot") == ["cultist"] and joined["cultist_pile"] == []


def test_items_worn_alongside_or_over_others(catalogue: Catalogue) -> None:
    """Fake Tentacle: "can be worn on top of other Headgear"; Galoshes: "Worn over other
    Footgear"; a second Headgear without such words is carried, not in use."""
    lines = [tap("FEZ", "seat-2"), tap("FAKE", "seat-2"), tap("HELMET", "seat-2")]
    lines += [tap("SHOES", "seat-2"), tap("GAL", "seat-2")]
    gene = uses(doc(catalogue, *lines), "Gene")
    assert gene["fez-of-fazooli"] == (True, None)
    assert gene["fake-tentacle"][0] and gene["galoshes"][0]
    assert gene["shoes-of-only-having-to-run-faster-than-you"][0]
    assert gene["miners-helmet"] == (False, "already wearing headgear")


def test_extra_hands(catalogue: Catalogue) -> None:
    """Tentacle: "Its owner gets one extra Hand" (a Cultist's item); Created Using Cinematic
    Rules: "you may use one extra Hand's worth of Items": Bagpipes (2 Hands) and a 1-Hand
    Necronookiecon fit together."""
    items = [tap("BP", "seat-1"), tap("NNC", "seat-1")]
    assert uses(doc(catalogue, *items), "Margot")["necronookiecon"] == (False, "no free hand")
    tentacle = doc(catalogue, tap("CU1", "seat-1"), tap("TENT", "seat-1"), *items)
    assert uses(tentacle, "Margot")["necronookiecon"][0] and uses(tentacle, "Margot")["bagpipes"][0]
    assert player(tentacle, "Margot")["gear"] == 4 + 3
    no_cultist = doc(catalogue, tap("TENT", "seat-1"), *items)
    assert uses(no_cultist, "Margot")["tentacle"] == (False, "Cultist only")
    cinema = doc(catalogue, tap("CINE", "seat-1"), *items)
    assert player(cinema, "Margot")["gear"] == 4 + 3


def test_item_enhancers_and_cheat(catalogue: Catalogue) -> None:
    """Of the Middle-Aged Gods: "Attach to a bonus-giving Item: it gets +2 and needs one Hand
    fewer"; Cheat!: "you may use it despite any restriction"."""
    lines = [tap("BP", "seat-1"), tap("BOW", "seat-1"), tap("GODS", "seat-1")]
    gods = doc(catalogue, *lines, pick(doc(catalogue, *lines), "Bagpipes"))
    assert player(gods, "Margot")["gear"] == 4 + 2 + 2  # Bagpipes on one Hand, the Pin on the other
    elder = [tap("ELDER", "seat-1")]
    assert uses(doc(catalogue, *elder), "Margot")["elder-sign"] == (False, "Investigator only")
    cheated = doc(catalogue, *elder, tap("CHEAT", "seat-1"))
    assert uses(cheated, "Margot")["elder-sign"] == (True, None)


def test_no_equipping_during_a_fight(catalogue: Catalogue) -> None:
    """ "While you are in combat, you cannot ... equip ... or play items (except for one-shots)
    from your hand. Once you expose a monster card, you must resolve the fight with your
    equipment as it stands, plus any one-shot items you choose to play"."""
    lines = [tap("GEEK", "combat"), tap("TESLA", "seat-1")]
    fight = doc(catalogue, *lines)
    assert sides(fight) == (1, 4 - 2)
    assert uses(fight, "Margot")["professor-teslas-electrical-protective-device-pat-pending"] == (
        False,
        "put into play during the fight: no equipping in combat",
    )
    assert sides(doc(catalogue, *lines, tap("CM", "combat"))) == (1 + 3, 2)
    after = doc(catalogue, *lines, tap("CM", "combat"), inp("resolve"))
    assert player(after, "Margot")["gear"] == 4  # it counts from the next fight


def test_selling_from_the_hand(catalogue: Catalogue) -> None:
    """ "You may sell items from your hand as well as those you are carrying"."""
    sold = doc(
        catalogue, tap("TESLA", "seat-1"), inp("sell", player="Margot", tags=["TESLA", "BOW"])
    )
    assert player(sold, "Margot")["level"] == 2  # 900 carried + 200 from the hand
    assert player(sold, "Margot")["items"] == []
    with pytest.raises(TapeError, match="only items sell"):
        run(catalogue, inp("sell", player="Margot", tags=["GO"]))


def test_a_monster_that_forbids_help_by_males(catalogue: Catalogue) -> None:
    """Gram Smoker: "Male munchkins cannot help against her"."""
    with pytest.raises(TapeError, match="male munchkins cannot help against her"):
        run(catalogue, tap("GRAM", "combat"), inp("help", player="Gene"))
    female = {"sex": {"Margot": "female", "Gene": "female", "Chris": "male"}}
    helped = plain(
        catalogue,
        tap("GRAM", "combat"),
        inp("help", player="Gene"),
        header={**MORE_HEADER, **female},
    )
    assert helped["combat"]["helper"] == "Gene"


def test_only_one_player_can_help(catalogue: Catalogue) -> None:
    """ "Only one player can help you, adding his combat strength to yours"."""
    with pytest.raises(TapeError, match="only one player can help: Gene already does"):
        run(catalogue, tap("GO", "combat"), inp("help", player="Gene"), inp("help", player="Chris"))


def test_bad_stuff_that_forbids_helping_or_asking_until_a_level(catalogue: Catalogue) -> None:
    """Geek Ones: "Bad Stuff: you may not help in any fight until you next gain a level"; The
    Unpronounceable Evil: "Bad Stuff: you may not ask for help until you have gained a level"."""
    caught = [tap("GEEK", "combat"), tap("SPAWN", "combat"), inp("resolve")]
    caught.append(inp("run-away", player="Margot", roll=1))
    later = [inp("end-turn"), tap("BUGG", "combat"), inp("help", player="Margot")]
    with pytest.raises(TapeError, match="Margot may not help in any fight until"):
        run(catalogue, *caught, *later)
    levelled = [*caught, inp("level", player="Margot", delta=1), *later]
    assert doc(catalogue, *levelled)["combat"]["helper"] == "Margot"
