"""A table for the issue-14 tracker scenarios: Ann plays Werewolves and Munchkin Clerics, Ben
Samurai and Munchkin Mages, Cat Vikings and Munchkin Elves. Tags are short names."""

from __future__ import annotations

from typing import Any

from companion.catalogue.cards import Catalogue
from tests import tapes

TAGS: dict[str, Any] = {
    # bases
    "JO": "core/jungle-oasis",  # 12, no ability
    "J2": "core/jungle-oasis",
    "MS": "monster-smash/moot-site",  # 15
    "BA": "munchkin/bastion",  # 11, 3 monsters
    "TB": "munchkin/treasure-bath",  # 12, 1 monster
    "WG": "munchkin/whack-a-ghoul",
    "FA": "core/factory-436-1337",  # 25
    # monsters
    "M1": "munchkin/web-troll",  # 1, no treasure
    "M2": "munchkin/hippogriff",  # 3, 1 treasure
    "M3": "munchkin/ghoul",  # 3, 1 treasure
    # Ann: Werewolves
    "HW": "monster-smash/howler",  # 2
    "TW": "monster-smash/teenage-wolf",  # 3
    "T2": "monster-smash/teenage-wolf",
    "LG": "monster-smash/loup-garou",  # 4
    "PA": "monster-smash/pack-alpha",  # 5
    "MT": "monster-smash/marking-territory",
    "FR": "monster-smash/frenzy",
    # Ann: Clerics
    "CI": "munchkin/curse-of-imprisonment",
    "GH": "munchkin/good-habits",
    # Ben: Samurai
    "BU": "oops/bushi",  # 4
    "SA": "oops/samurai-chan",  # 2
    "FH": "oops/final-haiku",
    # Ben: Mages
    "HZ": "munchkin/happy-zapper",  # 3
    "CH": "munchkin/charm",
    # Cat: Vikings
    "HU": "oops/huscarl",  # 2
    "VF": "oops/viking-funeral",
    # Cat: Elves
    "EG": "munchkin/elf-help-guru",  # 2
    # treasure
    "PP": "munchkin/potion-of-paralysis",
    # a core Dinosaurs action Ann owns (a second box)
    "RP": {"card": "core/rampage", "owner": "Ann"},
}
HEADER: dict[str, Any] = {
    "tape": 1,
    "game": "smashup",
    "players": ["Ann", "Ben", "Cat"],
    "factions": {
        "Ann": ["monster-smash/werewolves", "munchkin/clerics"],
        "Ben": ["oops/samurai", "munchkin/mages"],
        "Cat": ["oops/vikings", "munchkin/elves"],
    },
    "zones": ["base-1", "base-2", "base-3", "discard"],
    "tags": TAGS,
}
tap, inp = tapes.tap, tapes.inp


def doc(catalogue: Catalogue, *lines: dict[str, Any], **header: Any) -> dict[str, Any]:
    return tapes.doc(catalogue, *lines, header={**HEADER, **header})


def power(document: dict[str, Any], tag: str) -> int:
    for base in document["bases"]:
        for entry in base["minions"] + base["monsters"]:
            if entry["tag"] == tag:
                return int(entry["power"])
    raise KeyError(tag)


def base(document: dict[str, Any], zone: str) -> dict[str, Any]:
    return next(b for b in document["bases"] if b["zone"] == zone)


def prompt(document: dict[str, Any], kind: str) -> dict[str, Any]:
    return [p for p in document["prompts"] if p["kind"] == kind][-1]


def pick(document: dict[str, Any], kind: str, label_part: str) -> dict[str, Any]:
    found = prompt(document, kind)
    index = next(i for i, o in enumerate(found["options"]) if label_part in o["label"])
    return inp("answer", prompt=found["id"], option=index)


END = inp("end-turn")
