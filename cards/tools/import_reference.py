"""Convert the reference card data into the catalogue files in ``cards/``.

Usage (from the repository root)::

    python3 cards/tools/import_reference.py ../shared/reference/cards cards

Reads ``core.json``, ``monster_smash.json``, ``oops.json`` and ``munchkin.json`` from the reference
folder (see its ``SOURCES.md``) and writes ``core.json``, ``monster-smash.json``, ``oops.json`` and
``munchkin.json`` to the output folder. Ids follow the tape contract: ``<set>/<slug(name)>``.

Facts are copied as they are: a ``null`` in the reference stays ``null`` (never guessed). Keys
this tool does not produce (``effects``, ``manual``, ``input``, ``traits``: written by hand) are
carried over by card id from the existing output file, so re-running the import never loses
them; so is a ``text`` the reference leaves ``null`` that we wrote from a rulebook (Potion of
Paralysis, from the Smash Up: Munchkin rulebook's clarifications).

Printings: a Smash Up: Munchkin base whose current print (the reference's ``aeg_current_version``:
breakpoint, VP, text) differs from the 2015 print gets ``printings.current`` with those facts and
its monster number ("Monsters: N" in the text; "1 undead per player" is ``"per-player"``). Other
printings (``first``) are written by hand and carried over, as are the hand-written ``effects`` and
``manual`` of a generated printing.

Stdlib only. Exits non-zero, naming the card, on any problem (e.g. two cards with one id).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class SetSpec:
    id: str
    name: str
    reference_file: str


SETS: Final = (
    SetSpec("core", "Smash Up", "core.json"),
    SetSpec("monster-smash", "Smash Up: Monster Smash", "monster_smash.json"),
    SetSpec("oops", "Smash Up: Oops, You Did It Again", "oops.json"),
    SetSpec("munchkin", "Smash Up: Munchkin", "munchkin.json"),
)

SOURCES_NOTE: Final = "see cards/README.md and the per-card 'sources' field"
CARD_TYPES: Final = ("minion", "action", "base", "monster", "treasure")
FACTION_TYPES: Final = ("minion", "action")
TREASURE_PLAY: Final = {
    "play on a minion": "minion",
    "play on a base": "base",
    "standard (not attached)": "standard",
}
#: hand-written keys kept from an existing output file when the import is run again
PRESERVED_KEYS: Final = ("effects", "manual", "input", "traits")
#: hand-written keys of a generated printing, kept the same way
PRINTING_KEYS: Final = ("effects", "manual", "input")
_MONSTERS = re.compile(r"Monsters: (\d+)( undead per player)?")

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


class DataProblem(Exception):
    """A problem in the reference data that the import must not paper over."""


def slug(name: str) -> str:
    """The tape contract's slug: ``"Helper's Hollow"`` -> ``"helpers-hollow"``.

    >>> slug("Helper's Hollow"), slug("Whack-A-Ghoul"), slug("It's Alive!"), slug("Golem Schloß")
    ('helpers-hollow', 'whack-a-ghoul', 'its-alive', 'golem-schlo')
    """
    lowered = name.lower().replace("'", "").replace("\u2019", "")
    return _NOT_SLUG.sub("-", lowered).strip("-")


def _require(raw: JsonObject, key: str, where: str) -> Any:
    if key not in raw:
        raise DataProblem(f"{where}: reference field {key!r} is missing")
    return raw[key]


def _int_or_none(raw: JsonObject, key: str, where: str) -> int | None:
    value = _require(raw, key, where)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise DataProblem(f"{where}: reference field {key!r} must be an integer, got {value!r}")
    return value


def _action_play(keywords: list[str]) -> str:
    if "play on a minion" in keywords:
        return "minion"
    if "play on a base" in keywords:
        return "base"
    return "standard"


def convert_card(raw: JsonObject, set_id: str) -> JsonObject:
    """One reference card object -> one catalogue card object (keys in contract order)."""
    name = _require(raw, "name", f"{set_id}: card ?")
    if not isinstance(name, str) or not name:
        raise DataProblem(f"{set_id}: card with bad name {name!r}")
    where = f"{set_id}: card {name!r}"
    card_type = _require(raw, "card_type", where)
    if card_type not in CARD_TYPES:
        raise DataProblem(f"{where}: unknown card_type {card_type!r}")
    faction_name = _require(raw, "faction", where)
    if card_type in ("minion", "action", "base"):
        if not isinstance(faction_name, str) or not faction_name:
            raise DataProblem(f"{where}: a {card_type} needs a faction")
        faction: str | None = f"{set_id}/{slug(faction_name)}"
    else:
        if faction_name is not None:
            raise DataProblem(f"{where}: a {card_type} has no faction, got {faction_name!r}")
        faction = None
    copies = _int_or_none(raw, "copies", where)
    if copies is None or copies < 1:
        raise DataProblem(f"{where}: copies must be a positive integer, got {copies!r}")
    keywords = _require(raw, "keywords", where)
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise DataProblem(f"{where}: keywords must be a list of strings")

    card: JsonObject = {
        "id": f"{set_id}/{slug(name)}",
        "name": name,
        "type": card_type,
        "faction": faction,
        "copies": copies,
    }
    if card_type == "minion":
        card["power"] = _int_or_none(raw, "power", where)
    elif card_type == "action":
        card["play"] = _action_play(keywords)
    elif card_type == "base":
        if copies != 1:
            raise DataProblem(f"{where}: a base has 1 copy, got {copies}")
        card["breakpoint"] = _int_or_none(raw, "breakpoint", where)
        card["vp"] = [
            _int_or_none(raw, "vp_winner", where),
            _int_or_none(raw, "vp_runner_up", where),
            _int_or_none(raw, "vp_third", where),
        ]
        if set_id == "munchkin":
            card["monsters"] = _int_or_none(raw, "monster_number", where)
            card["monsters_note"] = _require(raw, "monster_number_note", where)
    elif card_type == "monster":
        card["power"] = _int_or_none(raw, "power", where)
        card["treasures"] = _int_or_none(raw, "treasure_number", where)
        undead = _require(raw, "undead", where)
        if undead is not None and not isinstance(undead, bool):
            raise DataProblem(f"{where}: undead must be true or false, got {undead!r}")
        card["undead"] = undead
    else:  # treasure
        subtype = _require(raw, "treasure_subtype", where)
        if subtype == "minion":
            card["subtype"] = "minion"
            card["power"] = _int_or_none(raw, "power", where)
            card["play"] = None
        elif subtype == "action":
            target = _require(raw, "play_target", where)
            if target not in TREASURE_PLAY:
                raise DataProblem(f"{where}: unknown play_target {target!r}")
            card["subtype"] = "action"
            card["power"] = None
            card["play"] = TREASURE_PLAY[target]
        else:
            raise DataProblem(f"{where}: unknown treasure_subtype {subtype!r}")
    card["text"] = _require(raw, "ability_paraphrase", where)
    current = current_printing(raw, card, set_id)
    if current is not None:
        card["printings"] = {"current": current}
    card["keywords"] = keywords
    card["confidence"] = _require(raw, "confidence", where)
    card["notes"] = _require(raw, "notes", where)
    card["sources"] = _require(raw, "source", where)
    return card


def current_printing(raw: JsonObject, card: JsonObject, set_id: str) -> JsonObject | None:
    """A Munchkin base's current print, if the reference gives it and it differs."""
    aeg = raw.get("aeg_current_version")
    if set_id != "munchkin" or card["type"] != "base" or not isinstance(aeg, dict):
        return None
    text = aeg.get("ability_paraphrase")
    if not isinstance(text, str) or "breakpoint" not in aeg or "vp" not in aeg:
        return None
    found = _MONSTERS.match(text)
    monsters: int | str | None = None
    if found is not None:
        monsters = "per-player" if found.group(2) else int(found.group(1))
    printing: JsonObject = {
        "breakpoint": aeg["breakpoint"],
        "vp": list(aeg["vp"]),
        "monsters": monsters,
        "monsters_note": f"current print: {text.split('.')[0]}",
        "text": text,
        "effects": [],
        "keywords": ["monster number"],
        "confidence": "current print (AEG rulebook wiki today): numbers and text as shown there",
        "notes": f"AEG errata field: {aeg.get('errata_field', 'not stated')}.",
    }
    same = (
        printing["breakpoint"] == card["breakpoint"]
        and printing["vp"] == card["vp"]
        and printing["monsters"] == card.get("monsters")
        and text == card.get("text")
    )
    return None if same else printing


def convert_set(spec: SetSpec, reference: list[JsonObject]) -> JsonObject:
    """A reference card list -> one catalogue set document (cards in reference order)."""
    cards: list[JsonObject] = []
    seen: dict[str, str] = {}
    factions: dict[str, JsonObject] = {}
    finished: set[str] = set()
    current: str | None = None
    for raw in reference:
        card = convert_card(raw, spec.id)
        if card["id"] in seen:
            raise DataProblem(
                f"{spec.id}: id collision: {seen[card['id']]!r} and {card['name']!r} "
                f"both slug to {card['id']}"
            )
        seen[card["id"]] = card["name"]
        faction = card["faction"]
        # a faction's minions and actions come in one run (bases may be listed apart)
        if card["type"] in FACTION_TYPES and faction != current:
            if current is not None:
                finished.add(current)
            if faction in finished:
                raise DataProblem(f"{spec.id}: cards of faction {faction} are not grouped")
            current = faction
        if faction is not None:
            entry = factions.setdefault(
                faction, {"id": faction, "name": raw["faction"], "bases": []}
            )
            if entry["name"] != raw["faction"]:
                raise DataProblem(
                    f"{spec.id}: faction names {entry['name']!r} and "
                    f"{raw['faction']!r} share the id {faction}"
                )
            if card["type"] == "base":
                entry["bases"].append(card["id"])
        cards.append(card)
    return {
        "set": spec.id,
        "name": spec.name,
        "sources": SOURCES_NOTE,
        "factions": list(factions.values()),
        "cards": cards,
    }


def carry_over(document: JsonObject, previous: JsonObject | None) -> None:
    """Copy hand-written keys (``effects``, ``manual``) from the previous output, by card id."""
    if previous is None:
        return
    old = {c.get("id"): c for c in previous.get("cards", []) if isinstance(c, dict)}
    for index, card in enumerate(document["cards"]):
        before = old.get(card["id"])
        if before is None:
            continue
        for key in PRESERVED_KEYS:
            if key in before:
                card[key] = before[key]
        if card["text"] is None and isinstance(before.get("text"), str):
            card["text"] = before["text"]  # our wording from a rulebook the reference lacks
        _carry_printings(card, before.get("printings"))
        document["cards"][index] = _ordered(card)


def _ordered(card: JsonObject) -> JsonObject:
    """Hand-written keys right after ``text``, where people read them."""
    after_text = ("effects", "manual", "input", "traits", "printings")
    ordered: JsonObject = {}
    for key, value in card.items():
        if key in after_text:
            continue
        ordered[key] = value
        if key == "text":
            ordered.update({k: card[k] for k in after_text if k in card})
    return ordered


def _carry_printings(card: JsonObject, previous: Any) -> None:
    """Hand-written printings stay; a generated one keeps its hand-written keys."""
    if not isinstance(previous, dict):
        return
    printings = card.setdefault("printings", {})
    for name, fields in previous.items():
        if name not in printings:
            printings[name] = fields
        elif isinstance(fields, dict):
            for key in PRINTING_KEYS:
                if key in fields:
                    printings[name][key] = fields[key]
    if not printings:
        del card["printings"]


def check_set(document: JsonObject) -> list[str]:
    """Consistency checks; returns a list of problems (empty if none)."""
    problems: list[str] = []
    set_id = document["set"]
    per_faction: Counter[str] = Counter()
    for card in document["cards"]:
        if card["type"] in FACTION_TYPES:
            per_faction[card["faction"]] += card["copies"]
    for faction in document["factions"]:
        if per_faction[faction["id"]] != 20:
            problems.append(f"{faction['id']}: {per_faction[faction['id']]} faction cards, not 20")
        if len(faction["bases"]) != 2:
            problems.append(f"{faction['id']}: {len(faction['bases'])} bases, not 2")
    if set_id == "munchkin":
        totals: Counter[str] = Counter()
        distinct: Counter[str] = Counter()
        for card in document["cards"]:
            kind = "faction" if card["type"] in FACTION_TYPES else card["type"]
            totals[kind] += card["copies"]
            distinct[kind] += 1
        wanted = {"faction": 160, "monster": 20, "treasure": 22, "base": 16}
        for kind, count in wanted.items():
            if totals[kind] != count:
                problems.append(f"munchkin: {totals[kind]} {kind} cards, not {count}")
        if distinct["monster"] != 8:
            problems.append(f"munchkin: {distinct['monster']} distinct monsters, not 8")
        if len(document["factions"]) != 8:
            problems.append(f"munchkin: {len(document['factions'])} factions, not 8")
        if len(document["cards"]) != 142 or sum(totals.values()) != 218:
            problems.append(
                f"munchkin: {len(document['cards'])} distinct / {sum(totals.values())} physical "
                "cards, not 142 / 218"
            )
    return problems


def summary(document: JsonObject) -> str:
    distinct: Counter[str] = Counter()
    physical: Counter[str] = Counter()
    for card in document["cards"]:
        distinct[card["type"]] += 1
        physical[card["type"]] += card["copies"]
    parts = [f"{t} {distinct[t]}/{physical[t]}" for t in CARD_TYPES if distinct[t]]
    return (
        f"{document['set']}: {len(document['factions'])} factions; distinct/physical: "
        f"{', '.join(parts)}; total {sum(distinct.values())}/{sum(physical.values())}"
    )


def dump(document: JsonObject) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("reference", type=Path, help="folder with the reference card JSON files")
    parser.add_argument("output", type=Path, help="folder to write the catalogue files to")
    args = parser.parse_args(argv)
    reference_dir: Path = args.reference
    output_dir: Path = args.output

    documents: list[tuple[Path, JsonObject]] = []
    try:
        for spec in SETS:
            source = reference_dir / spec.reference_file
            reference = json.loads(source.read_text(encoding="utf-8"))
            if not isinstance(reference, list):
                raise DataProblem(f"{source}: expected a list of card objects")
            document = convert_set(spec, reference)
            target = output_dir / f"{spec.id}.json"
            previous = json.loads(target.read_text(encoding="utf-8")) if target.exists() else None
            carry_over(document, previous)
            problems = check_set(document)
            if problems:
                raise DataProblem("; ".join(problems))
            documents.append((target, document))
    except (DataProblem, OSError, json.JSONDecodeError) as exc:
        print(f"import_reference: {exc}", file=sys.stderr)
        return 1

    for target, document in documents:
        target.write_text(dump(document), encoding="utf-8")
        print(f"{target}: {summary(document)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
