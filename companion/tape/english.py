"""Words the core writes for people: counted nouns ("1 treasure", "2 treasures", never
"treasure(s)") and zones by name ("base zone 2", never ``base-2``)."""

from __future__ import annotations

import re

#: plurals that are not the noun plus "s"
IRREGULAR = {"it": "them"}
_HEDGED = re.compile(r"([+\-−]?)(\d+) ([A-Za-z]+)\(s\)")


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one: ``plural(1, "card")``
    is "1 card", ``plural(3, "card")`` "3 cards"."""
    return f"{count} {noun if abs(count) == 1 else many or IRREGULAR.get(noun, noun + 's')}"


def signed_count(delta: int, noun: str) -> str:
    """A signed count of ``noun``: "+1 power counter", "-2 power counters", "+2 Levels"."""
    return ("+" if delta > 0 else "-" if delta < 0 else "") + plural(abs(delta), noun)


def unhedged(text: str) -> str:
    """``text`` with every "3 card(s)" written as the count says ("3 cards", "+1 Level")."""
    return _HEDGED.sub(lambda m: m.group(1) + plural(int(m.group(2)), m.group(3)), text)


def zone_label(zone: str) -> str:
    """A zone in a player's words, for a zone with no base on it: "base zone 2", "seat 1",
    "the discard pad" (the page shows names, never ids like ``base-2``)."""
    kind, _, number = zone.partition("-")
    if number.isdigit():
        return f"{'base zone' if kind == 'base' else kind} {number}"
    return {"discard": "the discard pad", "combat": "the combat pad"}.get(zone, zone)
