"""Convert shared/reference/cards/munchkin_cthulhu.json into cards/munchkin-cthulhu.json.

Facts are copied; `null` stays `null` (unconfirmed). Printed monster modifiers are parsed into
what the rules compute (`{"amount", "vs_class" | "vs_sex"}`, `{"run_away"}`); any other wording
is kept as `{"text"}` for people to apply. Usage: python cards/tools/import_cthulhu.py SRC DEST
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.catalogue.cards import slug

CLASSES = {
    "Cultists": "Cultist",
    "Cultist": "Cultist",
    "Professors": "Professor",
    "Professor": "Professor",
    "Investigators": "Investigator",
    "Investigator": "Investigator",
    "Monster Whackers": "Monster Whacker",
    "Monster Whacker": "Monster Whacker",
}
SEXES = {"females": "female", "males": "male"}


def modifier(text: str) -> dict[str, Any]:
    found = re.fullmatch(r"([+-]\d+) vs (.+)", text)
    if found:
        amount, against = int(found.group(1)), found.group(2)
        if against in SEXES:
            return {"amount": amount, "vs_sex": SEXES[against]}
        names = [n.strip() for n in against.split(" or ")]
        if all(n in CLASSES for n in names):
            return {"amount": amount, "vs_class": [CLASSES[n] for n in names]}
    found = re.fullmatch(r"([+-]\d+) to Run Away(?: for the fighter)?", text)
    if found:
        return {"run_away": int(found.group(1))}
    return {"text": text}


def restriction(text: str | None) -> dict[str, list[str]]:
    if text is None:
        return {}
    found = re.fullmatch(r"Not usable by (.+)", text)
    if found:
        return {"not_for": [CLASSES[found.group(1)]]}
    found = re.fullmatch(r"(.+) only", text)
    if found:
        return {"only_for": [CLASSES[found.group(1)]]}
    raise ValueError(f"unknown usage restriction {text!r}")


def run_away(note: str | None) -> dict[str, int]:
    """An item's printed Run Away bonus ("+1 to Run Away ...")."""
    found = re.match(r"([+-]\d+) to Run Away", note or "")
    return {"run_away": int(found.group(1))} if found else {}


def convert(entry: dict[str, Any]) -> dict[str, Any]:
    card: dict[str, Any] = {
        "id": f"munchkin-cthulhu/{slug(entry['name'])}",
        "name": entry["name"],
        "deck": entry["deck"],
        "kind": entry["kind"],
        "copies": entry["copies"],
    }
    kind = entry["kind"]
    if kind == "monster":
        card |= {
            "level": entry["level"],
            "treasures": entry["treasures"],
            "levels_gained": entry["levels_gained"],
            "undead": "Undead" in (entry.get("tags") or []),
            "modifiers": [modifier(m) for m in entry.get("modifiers") or []],
        }
    elif kind == "monster enhancer":
        card |= {
            "modifier": entry["modifier"],
            "treasure_change": entry["treasure_change"],
            "cultist_bonus": bool(entry["cultist_permanent_bonus_alternative"]),
        }
    elif kind == "item":
        card |= {
            "bonus": entry["bonus"],
            "bonus_note": entry.get("bonus_note"),
            "slot": entry["slot"],
            "gold": entry["gold_value"],
            **restriction(entry.get("usage_restriction")),
            **run_away(entry.get("bonus_note")),
        }
    elif kind == "one-shot item":
        card |= {"bonus": entry["bonus"], "gold": entry["gold_value"]}
    elif kind == "class":
        card["class_name"] = entry["class_name"]
    elif kind == "other" and entry.get("bonus") is not None:
        card["bonus"] = entry["bonus"]
    card["text"] = entry["effect_paraphrase"]
    card["confidence"] = entry["confidence"]
    return card


def main(source: Path, dest: Path) -> None:
    entries = json.loads(source.read_text(encoding="utf-8"))
    cards = [convert(entry) for entry in entries]
    ids = [c["id"] for c in cards]
    assert len(set(ids)) == len(ids), "two cards share an id"
    document = {
        "set": "munchkin-cthulhu",
        "game": "munchkin-cthulhu",
        "name": "Munchkin Cthulhu",
        "sources": "shared/reference/cards/munchkin_cthulhu.json (see its per-card sources)",
        "cards": cards,
    }
    dest.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
