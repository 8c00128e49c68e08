"""More Munchkin Cthulhu cards on the test table (issue 25), and small helpers."""

from __future__ import annotations

from typing import Any

from companion.catalogue.cards import Catalogue
from tests import cthulhu_tapes
from tests.cthulhu_tapes import HEADER, SET, inp, player, tap

MORE = {
    "SM": "super-munchkin",
    "SM2": "super-munchkin",
    "CINE": "created-using-cinematic-rules",
    "TENT": "tentacle",  # Cultist only: one extra Hand
    "FAKE": "fake-tentacle",  # headgear, worn on top of other Headgear
    "FEZ": "fez-of-fazooli",  # headgear +3
    "GAL": "galoshes",  # footgear +1, worn over other Footgear
    "SHOES": "shoes-of-only-having-to-run-faster-than-you",
    "GODS": "of-the-middle-aged-gods",
    "CHEAT": "cheat",
    "GRAM": "gram-smoker",
    "RUG": "ruggoth",
    "POLLY": "polly-polyp",
    "FROG": "froggoth",
    "WAND": "wandering-monster",
    "SEX": "curse-change-sex",
    "TRUTH": "curse-learn-yet-another-awful-truth",
    "BLOBBY": "curse-get-all-blobby",
    "HAIR": "curse-hair-stands-on-end",
    "SOLE": "curse-solestealer",
    "HASTUR": "curse-hastur-hastur-hastur",
    "EVIL": "curse-weapon-becomes-evil",
    "FLASH": "curse-flashlight-goes-out",
    "HELMET": "miners-helmet",
    "STARSR": "the-stars-are-right",
    "STARSW": "the-stars-are-wrong",
    "STARSC": "the-stars-are-confused",
    "DUN": "the-dunwich-snorer",
    "GREAT": "great-cthulhu",
    "NYUK": "nyukhees",
    "GNARLY": "gnarlythotep",
    "UNNAME": "unnameable",
    "GLOBS": "elder-globs",
    "LIQUOR": "ichor-liquor",
    "SHOGUL": "shogulator",
    "SHOGGOTH": "shoggoth",
    "COG": "coggoth",
    "BICKER": "bicker-ichor",
    "QUICK": "quicker-ichor",
    "MAP": "non-euclidean-map",
    "KICK": "kicker-ichor",
    "STOMP": "monster-stompers",
    "FOG": "foggoth",
    "CRULLER": "the-cruller-out-of-space",
    "SOLE2": "sole-survivor",
    "HEADBLOW": "sudden-head-blow",
    "RING": "wishing-ring",
    "NECRO": "necronomicon",  # Professor only, 2 hands +5
    "TOLL": "curse-madness-takes-its-toll",
}
MORE_HEADER: dict[str, Any] = {
    **HEADER,
    "tags": {**HEADER["tags"], **{uid: f"{SET}/{card}" for uid, card in MORE.items()}},
}


def doc(catalogue: Catalogue, *lines: dict[str, Any]) -> dict[str, Any]:
    return cthulhu_tapes.doc(catalogue, *lines, header=MORE_HEADER)


def run(catalogue: Catalogue, *lines: dict[str, Any]) -> Any:
    return cthulhu_tapes.run(catalogue, *lines, header=MORE_HEADER)


def pick(document: dict[str, Any], label_part: str) -> dict[str, Any]:
    """The answer choosing the open prompt option whose label holds ``label_part``."""
    for prompt in reversed(document["prompts"]):
        for index, option in enumerate(prompt["options"]):
            if label_part in option["label"]:
                return inp("answer", prompt=prompt["id"], option=index)
    raise KeyError(label_part)


def uses(document: dict[str, Any], name: str) -> dict[str, tuple[bool, str | None]]:
    return {
        i["card"].split("/")[1]: (i["in_use"], i["why_not"])
        for i in player(document, name)["items"]
    }


def sides(document: dict[str, Any]) -> tuple[int, int]:
    fight = document["combat"]
    return fight["players_strength"], fight["monsters_strength"]


def whys(document: dict[str, Any], side: str) -> list[tuple[int, str | None, str]]:
    return [
        (p["amount"], (p["card"] or "").removeprefix(SET + "/") or None, p["why"])
        for p in document["combat"][f"{side}_side"]
    ]


__all__ = ["inp", "tap", "player"]
