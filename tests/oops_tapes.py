"""A table for the Oops and Monster Smash tracker scenarios (burying, duels, counters):
Ann plays Ancient Egyptians and Cowboys, Ben Samurai and Giant Ants, Cat Mad Scientists and
Vampires. Tags are short names for the cards."""

from __future__ import annotations

from typing import Any

from companion.catalogue.cards import Catalogue
from companion.tracker.game import Game
from tests import tapes

TAGS = {
    # bases
    "JO": "core/jungle-oasis",  # 12, VP 2/0/0
    "TP": "core/tar-pits",  # 16, VP 4/3/2
    "PY": "oops/pyramids",  # 21
    "SP": "oops/star-portal",  # 17
    "SC": "oops/so-so-corral",  # 19
    "SG": "oops/shoguns-palace",  # 23
    "GS": "monster-smash/golem-schlo",  # 22
    "LB": "monster-smash/laboratorium",  # 25
    "CB": "monster-smash/castle-blood",  # 18
    "CR": "monster-smash/crypt",  # 20
    # Ann: Ancient Egyptians
    "PH": "oops/pharaoh",  # 5
    "PA": "oops/priest-of-anubis",  # 4
    "PE": "oops/pyramid-engineer",  # 3
    "MU": "oops/mummy",  # 2
    "BA": "oops/blessing-of-anubis",
    "LK": "oops/lost-knowledge",
    "ST": "oops/seal-the-tomb",
    "TT": "oops/tomb-trap",
    "YC": "oops/you-can-take-it-with-you",
    "MS": "oops/mummy-strength",
    "AC": "oops/ancient-curse",
    # Ann: Cowboys
    "SH": "oops/sheriff",  # 5
    "PK": "oops/pinkerton",  # 4
    "GF": "oops/gunfighter",  # 3
    "DP": "oops/deputy",  # 2
    "HN": "oops/high-noon",
    "QD": "oops/quick-draw",
    "RO": "oops/run-em-off",
    "FP": "oops/form-a-posse",
    # Ben: Samurai
    "SO": "oops/shogun",  # 5
    "BU": "oops/bushi",  # 4
    "RN": "oops/ronin",  # 3
    "SA": "oops/samurai-chan",  # 2
    "CD": "oops/code-of-bushido",
    "HB": "oops/heart-of-the-battle",
    "HA": "oops/honor-the-ancestors",
    "HC": "oops/honorable-combat",
    "WW": "oops/way-of-the-warrior",
    # Ben: Giant Ants
    "KQ": "monster-smash/killer-queen",  # 4
    "DR": "monster-smash/drone",  # 3
    "SL": "monster-smash/soldier",  # 1
    "WK": "monster-smash/worker",  # 0
    "KM": "monster-smash/a-kind-of-magic",
    "GP": "monster-smash/gimme-the-prize",
    "HL": "monster-smash/headlong",
    "UP": "monster-smash/under-pressure",
    "WL": "monster-smash/who-wants-to-live-forever",
    "WR": "monster-smash/we-will-rock-you",
    "WC": "monster-smash/we-are-the-champions",
    # Cat: Mad Scientists
    "HD": "monster-smash/herr-doktor",  # 5
    "TM": "monster-smash/the-monster",  # 4
    "LA": "monster-smash/lab-assistant",  # 3
    "IG": "monster-smash/igor",  # 2
    "AM": "monster-smash/angry-mob",
    "BZ": "monster-smash/blitzed",
    "BS": "monster-smash/body-shop",
    "GE": "monster-smash/german-engineering",
    "IA": "monster-smash/its-alive",
    "JL": "monster-smash/jolt",
    "BR": "monster-smash/berserum",
    # Cat: Vampires
    "CO": "monster-smash/the-count",  # 5
    "NS": "monster-smash/nightstalker",  # 4
    "HV": "monster-smash/heavy-drinker",  # 3
    "FV": "monster-smash/fledgling-vampire",  # 2
    "BF": "monster-smash/buffet",
    "CK": "monster-smash/crack-of-dusk",
    "CW": "monster-smash/cull-the-weak",
    "DD": "monster-smash/dinner-date",
    "MM": "monster-smash/mad-monster-party",
    "OP": "monster-smash/opportunist",
    "SW": "monster-smash/summon-wolves",
}
HEADER: dict[str, Any] = {
    "tape": 1,
    "game": "smashup",
    "players": ["Ann", "Ben", "Cat"],
    "factions": {
        "Ann": ["oops/ancient-egyptians", "oops/cowboys"],
        "Ben": ["oops/samurai", "monster-smash/giant-ants"],
        "Cat": ["monster-smash/mad-scientists", "monster-smash/vampires"],
    },
    "zones": ["base-1", "base-2", "base-3", "discard"],
    "tags": TAGS,
}
tap, inp = tapes.tap, tapes.inp


def run(catalogue: Catalogue, *lines: dict[str, Any]) -> Game:
    return tapes.run(catalogue, *lines, header=HEADER)


def doc(catalogue: Catalogue, *lines: dict[str, Any]) -> dict[str, Any]:
    return tapes.doc(catalogue, *lines, header=HEADER)


def base_at(document: dict[str, Any], zone: str) -> dict[str, Any]:
    return next(b for b in document["bases"] if b["zone"] == zone)


def minion(document: dict[str, Any], tag: str) -> dict[str, Any]:
    for base in document["bases"]:
        for entry in base["minions"]:
            if entry["tag"] == tag:
                return dict(entry)
    raise KeyError(tag)


def prompts(document: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [p for p in document["prompts"] if p["kind"] == kind]


def answer(document: dict[str, Any], kind: str, label_part: str) -> dict[str, Any]:
    """The answer line picking the option whose label contains ``label_part`` in the last
    open prompt of ``kind``."""
    prompt = prompts(document, kind)[-1]
    index = next(i for i, o in enumerate(prompt["options"]) if label_part in o["label"])
    return inp("answer", prompt=prompt["id"], option=index)


def texts(game: Game, lines: list[dict[str, Any]]) -> list[str]:
    """Every event text (notes included) that applying ``lines`` to ``game`` says."""
    said = []
    for line in lines:
        for event in game.apply(line).events:
            said.append(str(event.get("text", "")))
    return said
