"""Either side of a Munchkin Cthulhu fight (issue 25, part 3): one-shots, enhancers and
wandering monsters per monster, curses at a seat, death and looting, Charity, and each side's
total with every contribution named. Rulebook v1.7 and the cards' words."""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from tests.cthulhu_more import doc, inp, pick, player, run, sides, tap, uses, whys


def test_a_one_shot_for_the_monsters(catalogue: Catalogue) -> None:
    """ "You could help another player by throwing an Ichor against his foe. Of course, you can
    "accidentally" hit your friend with the Ichor, and it will count against *him*"; Canned
    Meat: "Adds 3 to whichever side you choose in a fight"."""
    lines = [tap("GO", "combat"), tap("CM", "combat")]
    assert sides(doc(catalogue, *lines)) == (1 + 3, 10)
    against = doc(catalogue, *lines, pick(doc(catalogue, *lines), "For Grape Old Ones"))
    assert sides(against) == (1, 10 + 3)
    assert (3, "canned-meat", "one-shot for Grape Old Ones") in whys(against, "monsters")


def test_enhancers_go_on_the_monster_chosen(catalogue: Catalogue) -> None:
    """ "If there are multiple monsters in a combat, the person who plays each enhancer must
    choose which monster it applies to"; a Wandering Monster brings another monster in."""
    lines = [tap("GO", "combat"), tap("WAND", "combat"), tap("BUGG", "combat")]
    two = doc(catalogue, *lines)
    assert [m["wandering"] for m in two["combat"]["monsters"]] == [False, True]
    lines.append(tap("SPAWN", "combat"))  # +5 on the last one by default
    spawned = doc(catalogue, *lines)
    assert [m["strength"] for m in spawned["combat"]["monsters"]] == [10, 1 + 5]
    moved = doc(catalogue, *lines, pick(spawned, "For Grape Old Ones"))
    assert [m["strength"] for m in moved["combat"]["monsters"]] == [10 + 5, 1]


def test_every_contribution_is_named(catalogue: Catalogue) -> None:
    """ "Combat strength is the total of Level plus all modifiers": each side lists its parts,
    card and why, and they add up to the side's total."""
    lines = [tap("TESLA", "seat-1"), tap("CU1", "seat-1"), tap("CU2", "seat-2")]
    lines += [tap("GO", "combat"), tap("CM", "combat")]
    document = doc(catalogue, *lines)
    players = whys(document, "players")
    assert (1, None, "Margot's Level") in players
    assert (
        4,
        "professor-teslas-electrical-protective-device-pat-pending",
        "armor in use",
    ) in players
    assert (2, "cultist", "+2 for each other Cultist (1)") in players
    assert (3, "canned-meat", "one-shot for the players") in players
    assert sum(p[0] for p in players) == sides(document)[0] == 1 + 4 + 2 + 3
    monsters = whys(document, "monsters")
    assert (12, "grape-old-ones", "Grape Old Ones's Level") in monsters
    assert (-2, "grape-old-ones", "-2 vs female") in monsters


def test_a_labelled_modifier_on_either_side(catalogue: Catalogue) -> None:
    """For anything done by hand, a +/- with a label on either side, as a level counter
    would."""
    lines = [tap("GO", "combat"), inp("modifier", side="monsters", delta=4, label="Tommy Gun joke")]
    document = doc(catalogue, *lines)
    assert sides(document) == (1, 10 + 4)
    assert (4, None, "Tommy Gun joke") in whys(document, "monsters")


def test_curses_at_a_seat_touch_the_numbers(catalogue: Catalogue) -> None:
    """Change Sex: "Victim suffers -5 in their next fight; the sex swap stays"; Learn Yet
    Another Awful Truth: "Victim drops one level"; Get All Blobby: "Victim discards the Armor
    they wear" (the T-Shirt too: "anything that removes your Armor removes it too")."""
    swapped = doc(catalogue, tap("SEX", "seat-1"))
    assert player(swapped, "Margot")["sex"] == "male"
    fight = doc(catalogue, tap("SEX", "seat-1"), tap("SHOG", "combat"))
    assert sides(fight)[0] == 1 - 5
    assert (-5, "curse-change-sex", "curse on Margot for this fight") in whys(fight, "players")
    later = doc(catalogue, tap("SEX", "seat-1"), tap("BUGG", "combat"), inp("resolve"))
    assert player(later, "Margot")["strength"] == 1  # "no further penalty"
    truth = doc(catalogue, inp("level", player="Gene", delta=2), tap("TRUTH", "seat-2"))
    assert player(truth, "Gene")["level"] == 2
    armor = [tap("TESLA", "seat-3"), tap("TEE", "seat-3"), tap("BOW", "seat-3")]
    blobby = doc(catalogue, *armor, tap("BLOBBY", "seat-3"))
    assert list(uses(blobby, "Chris")) == ["bowling-pin"]


def test_curses_that_take_headgear_or_footgear(catalogue: Catalogue) -> None:
    """Hair Stands On End: "discards the Headgear they wear" (Fake Tentacle: "anything that
    takes your Headgear takes both"); Solestealer with Galoshes: "if your Footgear is hit, only
    the Galoshes are lost"."""
    head = [tap("FEZ", "seat-2"), tap("FAKE", "seat-2"), tap("HAIR", "seat-2")]
    assert uses(doc(catalogue, *head), "Gene") == {}
    feet = [tap("SHOES", "seat-2"), tap("GAL", "seat-2"), tap("SOLE", "seat-2")]
    assert list(uses(doc(catalogue, *feet), "Gene")) == [
        "shoes-of-only-having-to-run-faster-than-you"
    ]


def test_a_curse_on_one_of_several_items_lets_the_victim_choose(catalogue: Catalogue) -> None:
    """ "If a Curse can apply to more than one item, the victim decides which item is lost"
    (Hastur Hastur Hastur: "Victim loses one Item in play")."""
    lines = [tap("BOW", "seat-2"), tap("BUG", "seat-2"), tap("HASTUR", "seat-2")]
    asked = doc(catalogue, *lines)
    assert list(uses(asked, "Gene")) == ["bowling-pin", "bug-spray"]
    chosen = doc(catalogue, *lines, pick(asked, "Bug Spray"))
    assert list(uses(chosen, "Gene")) == ["bowling-pin"]


def test_weapon_becomes_evil_and_flashlight_goes_out(catalogue: Catalogue) -> None:
    """Weapon Becomes Evil: "The victim's best-bonus Item turns into an equal penalty; only
    discarding it (cost: 2 levels) ends it"; Flashlight Goes Out: "-3 in the current fight (or
    the next one), and throws away the Miner's Helmet"."""
    evil = [tap("BOW", "seat-1"), tap("NNC", "seat-1"), tap("EVIL", "seat-1")]
    assert player(doc(catalogue, *evil), "Margot")["gear"] == 2 - 3
    up = inp("level", player="Margot", delta=4)
    gone = doc(catalogue, up, *evil, tap("NNC", "discard"))
    assert player(gone, "Margot")["gear"] == 2 and player(gone, "Margot")["level"] == 5 - 2
    flash = [tap("HELMET", "seat-1"), tap("GO", "combat"), tap("FLASH", "seat-1")]
    document = doc(catalogue, *flash)
    assert sides(document)[0] == 1 - 3 and player(document, "Margot")["items"] == []


def test_death_and_looting(catalogue: Catalogue) -> None:
    """Froggoth: "Bad Stuff: death"; "If you die, you lose all your stuff. You keep your
    Class(es) and Level"; "Starting with the one with the highest Level, each other player
    chooses one card"."""
    lines = [tap("PRO", "seat-1"), tap("TESLA", "seat-1"), tap("BOW", "seat-1")]
    lines += [inp("level", player="Chris", delta=2), tap("FROG", "combat"), inp("resolve")]
    lines.append(inp("run-away", player="Margot", roll=2))
    dead = doc(catalogue, *lines)
    margot = player(dead, "Margot")
    assert margot["items"] == [] and margot["classes"] == ["munchkin-cthulhu/professor"]
    assert dead["looting"]["order"] == ["Chris", "Gene"] and dead["looting"]["next"] == "Chris"
    looted = doc(catalogue, *lines, tap("TESLA", "seat-3"))
    assert looted["looting"]["next"] == "Gene"
    assert [i["card"] for i in player(looted, "Chris")["items"]] == [
        "munchkin-cthulhu/professor-teslas-electrical-protective-device-pat-pending"
    ]


def test_bad_stuff_that_costs_levels_is_computed(catalogue: Catalogue) -> None:
    """Polly Polyp: "Bad Stuff: drop one level"; The Cruller Out Of Space: "lose both your
    Headgear and your Footgear"."""
    lines = [inp("level", player="Margot", delta=3), tap("POLLY", "combat")]
    lines += [tap("SPAWN", "combat"), inp("resolve"), inp("run-away", player="Margot", roll=1)]
    assert player(doc(catalogue, *lines), "Margot")["level"] == 3
    gear = [tap("FEZ", "seat-1"), tap("GAL", "seat-1"), tap("BOW", "seat-1")]
    cruller = [*gear, tap("CRULLER", "combat"), tap("SPAWN", "combat"), inp("resolve")]
    caught = doc(catalogue, *cruller, inp("run-away", player="Margot", roll=1))
    assert list(uses(caught, "Margot")) == ["bowling-pin"]


def test_charity_at_the_end_of_a_turn(catalogue: Catalogue) -> None:
    """Charity: "give the excess to the player with the lowest Level ... If YOU are the lowest
    or tied for lowest, just discard the excess"."""
    game = run(
        catalogue, inp("level", player="Margot", delta=2), inp("level", player="Gene", delta=1)
    )
    outcome = game.apply(inp("end-turn"))
    charity = [e for e in outcome.events if e["event"] == "charity"][0]
    assert charity["text"] == "Charity: Margot must give the excess to Chris (lowest Level)"
    tied = run(catalogue).apply(inp("end-turn"))
    assert any("discard the excess" in e.get("text", "") for e in tied.events)


def test_each_monster_is_run_from_separately(catalogue: Catalogue) -> None:
    """ "If you are fleeing from multiple monsters, you roll separately to escape each one, in
    any order you choose, and suffer Bad Stuff from each one that catches you as soon as it
    catches you" (Polly Polyp: "drop one level"; Joggoth: -2 to Run Away)."""
    lines = [inp("level", player="Margot", delta=3), tap("POLLY", "combat"), tap("JOG", "combat")]
    lines += [tap("SPAWN", "combat"), inp("resolve")]
    running = doc(catalogue, *lines)["running"]
    assert [(r["monster"], r["needs"]) for r in running["rolls"]] == [("POLLY", 5), ("JOG", 7)]
    joggoth_first = [*lines, inp("run-away", player="Margot", roll=6, target="JOG")]
    after_one = doc(catalogue, *joggoth_first)
    assert after_one["running"]["rolls"][0]["monster"] == "POLLY"
    caught = doc(catalogue, *joggoth_first, inp("run-away", player="Margot", roll=1))
    assert caught["running"] is None and player(caught, "Margot")["level"] == 4 - 1


def test_a_curse_played_into_the_fight_curses_the_fighter(catalogue: Catalogue) -> None:
    """ "Curse them, if you have a Curse card" (Interfering With Combat): a curse tapped at the
    combat pad goes on the fighter; with a helper, the tablet asks which of the two."""
    fight = [tap("GEEK", "combat"), tap("SEX", "combat")]
    cursed = doc(catalogue, *fight)
    assert sides(cursed)[0] == 1 - 5 and player(cursed, "Margot")["sex"] == "male"
    helped = [tap("GEEK", "combat"), inp("help", player="Gene"), tap("TRUTH", "combat")]
    asked = doc(catalogue, *helped)
    assert asked["prompts"][-1]["message"].startswith("Who does Curse! Learn")
    gene = doc(catalogue, inp("level", player="Gene", delta=1), *helped)
    answered = doc(catalogue, inp("level", player="Gene", delta=1), *helped, pick(gene, "Gene"))
    assert player(answered, "Gene")["level"] == 1


def test_madness_takes_its_toll_takes_items_until_done(catalogue: Catalogue) -> None:
    """Madness Takes Its Toll: "Victim discards Item(s) whose printed values add up to at least
    1,000 Gold": the victim picks items one by one, until they say it is done."""
    lines = [tap("TESLA", "seat-2"), tap("BOW", "seat-2"), tap("FLAME", "seat-2")]
    lines.append(tap("TOLL", "seat-2"))
    asked = doc(catalogue, *lines)
    first = [*lines, pick(asked, "Professor Tesla")]
    second = doc(catalogue, *first)
    assert list(uses(second, "Gene")) == ["bowling-pin", "flamethrower"]
    done = doc(catalogue, *first, pick(second, "Bowling Pin"))
    assert list(uses(done, "Gene")) == ["flamethrower"]
