"""Small Munchkin Cthulhu tapes written inline in tests."""

from __future__ import annotations

import json
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.tape.lines import parse_header, read_lines
from companion.tracker.document import state_document
from companion.tracker.game import Game, replay_lines

SET = "munchkin-cthulhu"
TAGS = {
    "CU1": "cultist",
    "CU2": "cultist",
    "CU3": "cultist",
    "CU4": "cultist",
    "PRO": "professor",
    "INV": "investigator",
    "MW": "monster-whacker",
    "FR": "frothing",
    "GO": "grape-old-ones",
    "CM": "canned-meat",
    "MS": "in-a-million-year-sleep",
    "SPAWN": "and-its-spawn",
    "BP": "bagpipes",  # 2 hands, +4, 500 gold
    "BOW": "bowling-pin",  # 1 hand, +2, 200
    "BUG": "bug-spray",  # 1 hand, +2, 300
    "NNC": "necronookiecon",  # 1 hand, +3, 300
    "TESLA": "professor-teslas-electrical-protective-device-pat-pending",  # armor +4, 900
    "TEE": "miskatonic-university-t-shirt",  # armor +1, 100
    "ELDER": "elder-sign",  # Investigator only, 1 hand +3
    "SCRIB": "mystic-scribble",  # not for Cultists, 1 hand +2
    "FLAME": "flamethrower",  # 2 hands +4, 800
    "AXE": "prehistoric-axe",  # 1 hand +2, 500
    "COWL": "cowl-of-cthulhu",  # nothing confirmed
    "ARMY": "call-the-army",  # go up a level
    "NEWS": "interviewed-for-evening-news",
    "CHIBI": "chibithulhu",  # +4 vs females
    "GEEK": "geek-ones",  # -2 vs females
    "SHOG": "shoggoth",  # -2 vs Investigators
    "SHALLOW": "shallow-ones",  # +2 vs Professors
    "JOG": "joggoth",  # -2 to Run Away
    "BUGG": "buggoth",
    "AMNESIA": "curse-amnesia",
}
HEADER: dict[str, Any] = {
    "tape": 1,
    "game": SET,
    "players": ["Margot", "Gene", "Chris"],
    "sex": {"Margot": "female", "Gene": "male", "Chris": "male"},
    "zones": ["seat-1", "seat-2", "seat-3", "combat", "discard"],
    "tags": {uid: f"{SET}/{card}" for uid, card in TAGS.items()},
}


def tap(uid: str, zone: str) -> dict[str, Any]:
    return {"tap": uid, "zone": zone}


def inp(kind: str, **fields: Any) -> dict[str, Any]:
    return {"input": kind, **fields}


def run(catalogue: Catalogue, *lines: dict[str, Any], header: dict[str, Any] | None = None) -> Game:
    text = [json.dumps(header or HEADER)] + [json.dumps(line) for line in lines]
    numbered = iter(read_lines(text))
    first = next(numbered)
    return replay_lines(parse_header(first.event, catalogue), numbered, catalogue)


def doc(catalogue: Catalogue, *lines: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return state_document(run(catalogue, *lines, **kw).state, catalogue)


def player(document: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in document["players"] if p["name"] == name)
