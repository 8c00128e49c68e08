"""Munchkin Cthulhu cards whose words change a number, computed (issue 25, part 4): conditional
bonuses, class powers, monster restrictions and fight-wide cards. Each test quotes the card."""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from tests.cthulhu_more import doc, inp, pick, player, sides, tap, whys

LEVEL = inp("level", player="Margot", delta=8)  # Level 9, to tell bonuses apart from losing


def test_prehistoric_axe_against_big_monsters(catalogue: Catalogue) -> None:
    """Prehistoric Axe: "+5 instead of +2 against monsters of Level 15 or more"."""
    assert sides(doc(catalogue, tap("AXE", "seat-1"), tap("GO", "combat")))[0] == 1 + 2
    assert sides(doc(catalogue, tap("AXE", "seat-1"), tap("SHOGGOTH", "combat")))[0] == 1 + 5


def test_monster_whacker_power(catalogue: Catalogue) -> None:
    """Monster Whacker: "+2 against monsters of Level 10 or lower; -2 against monsters of Level
    16 or higher"."""
    whacker = [tap("MW", "seat-1")]
    assert sides(doc(catalogue, *whacker, tap("BUGG", "combat")))[0] == 1  # Buggoth: no powers
    assert sides(doc(catalogue, *whacker, tap("GEEK", "combat")))[0] == 1 + 2
    assert sides(doc(catalogue, *whacker, tap("GO", "combat")))[0] == 1
    assert sides(doc(catalogue, *whacker, tap("SHOGGOTH", "combat")))[0] == 1 - 2


def test_buggoth_forbids_class_powers(catalogue: Catalogue) -> None:
    """Buggoth: "Once revealed, nobody may use Class powers for the rest of the fight" (the
    Cultist's "+2 in combat for each other Cultist")."""
    cultists = [tap("CU1", "seat-1"), tap("CU2", "seat-2")]
    assert sides(doc(catalogue, *cultists, tap("GEEK", "combat")))[0] == 1 + 2
    buggoth = doc(catalogue, *cultists, tap("GEEK", "combat"), tap("BUGG", "combat"))
    assert sides(buggoth)[0] == 1
    assert (0, "buggoth", "Buggoth: no Class powers in this fight") in whys(buggoth, "players")


def test_joggoth_makes_footgear_worthless_and_kicker_ichor_triples_it(
    catalogue: Catalogue,
) -> None:
    """Joggoth: "Footgear gives no bonus in this fight"; Kicker Ichor: "Triples the bonus of
    every piece of Footgear in the combat"."""
    feet = [tap("GAL", "seat-1")]
    assert sides(doc(catalogue, *feet, tap("GEEK", "combat")))[0] == 1 + 1
    assert sides(doc(catalogue, *feet, tap("JOG", "combat")))[0] == 1
    kicked = doc(catalogue, *feet, tap("GEEK", "combat"), tap("KICK", "combat"))
    assert sides(kicked)[0] == 1 + 3


def test_foggoth_ignores_items_but_fire_counts_double(catalogue: Catalogue) -> None:
    """Foggoth: "Items give no bonus against it, except Ichor cards (normal) and fire/flame
    Items (double)"; Flamethrower: "Counts as fire/flame"."""
    items = [tap("TESLA", "seat-1"), tap("FLAME", "seat-1"), tap("FOG", "combat")]
    assert sides(doc(catalogue, *items))[0] == 1 + 0 + 2 * 4
    assert sides(doc(catalogue, *items, tap("LIQUOR", "combat")))[0] == 1 + 8 + 3


def test_the_stars(catalogue: Catalogue) -> None:
    """The Stars Are Right: "all monsters in the fight are boosted by 3 (The Dunwich Snorer by
    10)"; The Stars Are Wrong: "either remove one monster outright or lower every monster's
    strength by 2"; The Stars Are Confused: "ignore the bonuses/penalties printed on the
    monster cards"."""
    two = [tap("GO", "combat"), tap("DUN", "combat")]
    assert sides(doc(catalogue, *two, tap("STARSR", "combat")))[1] == (10 + 3) + (1 + 10)
    wrong = [*two, tap("STARSW", "combat")]
    assert sides(doc(catalogue, *wrong))[1] == (10 - 2) + (1 - 2)
    removed = doc(catalogue, *wrong, pick(doc(catalogue, *wrong), "Remove Grape"))
    assert sides(removed)[1] == 1 and len(removed["combat"]["monsters"]) == 1
    assert sides(doc(catalogue, *two, tap("STARSC", "combat")))[1] == 12 + 1


def test_monsters_with_conditions_in_words(catalogue: Catalogue) -> None:
    """Great Cthulhu: "+4 if any non-Cultist is fighting him"; Nyukhees: "+4 vs the
    lowest-Level player (ties included)"; Gnarlythotep: "-4 if facing both a Professor and an
    Investigator"."""
    assert sides(doc(catalogue, tap("GREAT", "combat")))[1] == 20 + 4
    cultist = [tap("CU1", "seat-1"), tap("CU2", "seat-2"), tap("GREAT", "combat")]
    assert sides(doc(catalogue, *cultist))[1] == 20
    assert sides(doc(catalogue, tap("NYUK", "combat")))[1] == 8 + 4
    higher = doc(catalogue, inp("level", player="Margot", delta=1), tap("NYUK", "combat"))
    assert sides(higher)[1] == 8
    prof = [tap("PRO", "seat-1"), tap("INV", "seat-2"), tap("GNARLY", "combat")]
    assert sides(doc(catalogue, *prof))[1] == 14 - 2
    assert sides(doc(catalogue, *prof, inp("help", player="Gene")))[1] == 14 - 4


def test_unnameable_and_elder_globs(catalogue: Catalogue) -> None:
    """Unnameable: "+10 instead of +5 when a Professor is in the fight"; Elder Globs: "Ichor
    cards cannot harm them, but Ichor used to strengthen them counts twice"."""
    assert sides(doc(catalogue, tap("GEEK", "combat"), tap("UNNAME", "combat")))[1] == 2 + 5
    prof = doc(catalogue, tap("PRO", "seat-1"), tap("GEEK", "combat"), tap("UNNAME", "combat"))
    assert sides(prof)[1] == 2 + 10
    globs = [tap("GLOBS", "combat"), tap("LIQUOR", "combat")]
    harmless = doc(catalogue, *globs)
    assert sides(harmless)[0] == 1
    stronger = doc(catalogue, *globs, pick(harmless, "For Elder Globs"))
    assert sides(stronger)[1] == 10 + 2 * 3


def test_shogulator(catalogue: Catalogue) -> None:
    """Shogulator: "+10 vs Shoggoth or Shog Goth; +5 if any other -goth is in the combat; +2
    otherwise"."""
    gun = [tap("SHOGUL", "seat-1")]
    assert sides(doc(catalogue, *gun, tap("SHOGGOTH", "combat")))[0] == 1 + 10
    assert sides(doc(catalogue, *gun, tap("BUGG", "combat")))[0] == 1 + 5
    assert sides(doc(catalogue, *gun, tap("GO", "combat")))[0] == 1 + 2


def test_coggoth_asks_about_the_fighters_hand(catalogue: Catalogue) -> None:
    """Coggoth: "+3 if the fighter holds an even number of hand cards when it appears"."""
    asked = doc(catalogue, tap("COG", "combat"))
    assert sides(asked)[1] == 8
    assert sides(doc(catalogue, tap("COG", "combat"), pick(asked, "Even")))[1] == 8 + 3


def test_bicker_and_quicker_ichor(catalogue: Catalogue) -> None:
    """Bicker Ichor: "the lower-Level one is discarded and gives no levels or Treasure";
    Quicker Ichor: "+2 or -2 to everyone's attempt in that combat"."""
    bicker = doc(catalogue, tap("GO", "combat"), tap("BUGG", "combat"), tap("BICKER", "combat"))
    assert [m["card"] for m in bicker["combat"]["monsters"]] == ["munchkin-cthulhu/grape-old-ones"]
    quick = [tap("GO", "combat"), tap("QUICK", "combat")]
    ran = doc(catalogue, *quick, inp("resolve"))
    assert ran["running"]["needs"]["Margot"] == 5 - 2
    minus = doc(catalogue, *quick, pick(doc(catalogue, *quick), "-2"), inp("resolve"))
    assert minus["running"]["needs"]["Margot"] == 5 + 2


def test_non_euclidean_map_and_shoes(catalogue: Catalogue) -> None:
    """Non-Euclidean Map: "Draw one extra Treasure whenever you kill a monster on your own
    turn"; Shoes of Only Having to Run Faster Than You: "If you and another player are both
    trying to Run Away, you escape automatically and they take -2 on their roll"."""
    won = doc(
        catalogue, tap("MAP", "seat-1"), tap("BUGG", "combat"), tap("CM", "combat"), inp("resolve")
    )
    assert won["last_combat"]["treasures"] == 1 + 1
    shoes = [tap("SHOES", "seat-2"), tap("GO", "combat"), inp("help", player="Gene")]
    shoes.append(inp("resolve"))
    running = doc(catalogue, *shoes)
    assert running["running"]["needs"]["Margot"] == 5 + 2
    escaped = doc(catalogue, *shoes, inp("run-away", player="Gene", roll=1))
    assert escaped["running"]["players"] == ["Margot"]


def test_the_professor_escaping_death_gains_a_level(catalogue: Catalogue) -> None:
    """Professor: "gain a level on escaping a monster whose Bad Stuff includes death"
    (Froggoth: "Bad Stuff: death")."""
    lines = [tap("PRO", "seat-1"), tap("FROG", "combat"), inp("resolve")]
    escaped = doc(catalogue, *lines, inp("run-away", player="Margot", roll=6))
    assert player(escaped, "Margot")["level"] == 2


def test_levels_from_cards_played_on_a_player(catalogue: Catalogue) -> None:
    """Sole Survivor: "gain two levels"; Wishing Ring: "Negate a Curse at any moment"."""
    assert player(doc(catalogue, tap("SOLE2", "seat-2")), "Gene")["level"] == 3
    cursed = [tap("SEX", "seat-1"), tap("RING", "seat-1"), tap("GEEK", "combat")]
    assert sides(doc(catalogue, *cursed))[0] == 1
