"""One small scenario per documented Smash Up input (each key of the tracker's handlers' table):
the lines before it, the input itself, the lines after it, and what the state document must show.

Shared by the end-to-end tests through ``companion replay`` and through ``POST /api/input``
(:mod:`tests.test_every_input`), so both paths are held to the same expectations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.tapes import HEADER, TAGS, inp, tap

Document = dict[str, Any]

#: the shared test table, with a Teenage Wolf of Ann's (a second box) for a Talent that shows
EVERY_INPUT_HEADER: dict[str, Any] = {
    **HEADER,
    "tags": {
        **TAGS,
        "TW": {"card": "monster-smash/teenage-wolf", "owner": "Ann"},
        "TX": "monster-smash/teenage-wolf",
    },
}


@dataclass(frozen=True)
class Scenario:
    line: dict[str, Any]
    check: Callable[[Document], bool]
    before: list[dict[str, Any]] = field(default_factory=list)
    after: list[dict[str, Any]] = field(default_factory=list)


def _minion(document: Document, tag: str) -> Document | None:
    for base in document["bases"]:
        for entry in base["minions"] + base["monsters"]:
            if entry["tag"] == tag:
                return entry  # type: ignore[no-any-return]
    return None


def _power(document: Document, tag: str) -> int | None:
    found = _minion(document, tag)
    return None if found is None else int(found["power"])


def _prompt_kinds(document: Document) -> list[str]:
    return [p["kind"] for p in document["prompts"]]


BASES = [tap("B1", "base-1"), tap("H1", "base-1"), tap("B2", "base-2")]
TOPPER = [*BASES, tap("TC", "base-1")]  # Ann's Topper Chopper, 5 power, at base-1
READY = [*TOPPER, inp("counter", tag="TC", delta=20)]  # Treehouse (18 with its monster) ready
DRAW = [*TOPPER, tap("H1", "discard")]  # the Hippogriff destroyed: a treasure draw for Ann
DUEL = [*TOPPER, tap("SL", "base-1")]  # two of Ann's minions at base-1

SCENARIOS: dict[str, Scenario] = {
    "score": Scenario(inp("score", zone="base-1"), lambda d: d["bases"][0]["scoring"], READY),
    "award": Scenario(
        inp("award"),
        lambda d: d["players"][0]["vp"] > 0,
        [*READY, inp("score", zone="base-1")],
    ),
    "end-turn": Scenario(inp("end-turn"), lambda d: d["current_player"] == "Ben", BASES),
    "dealt": Scenario(inp("dealt", all=True), lambda d: d["deals"] == [], DRAW),
    "counter": Scenario(inp("counter", tag="TC", delta=2), lambda d: _power(d, "TC") == 7, TOPPER),
    "move-counters": Scenario(
        inp("move-counters", **{"from": "TC", "to": "SL", "count": 1}),
        lambda d: (_minion(d, "TC")["counters"], _minion(d, "SL")["counters"]) == (0, 1),  # type: ignore[index]
        [*DUEL, inp("counter", tag="TC", delta=1)],
    ),
    "talent": Scenario(
        inp("talent", tag="TW"),  # Teenage Wolf: "Talent: +1 power this turn"
        lambda d: _power(d, "TW") == 3 + 1,
        [*BASES, tap("TW", "base-2")],
    ),
    "duel": Scenario(
        inp("duel", challenger="TC", challenged="SL"),
        lambda d: d["duel"] is not None and d["duel"]["status"] == "open",
        DUEL,
    ),
    "dueling-card": Scenario(
        inp("dueling-card", tag="SS", side="challenged"),
        lambda d: d["duel"]["challenged"]["dueling_card"] is not None,
        [*DUEL, inp("duel", challenger="TC", challenged="SL")],
    ),
    "resolve-duel": Scenario(
        inp("resolve-duel"),
        lambda d: d["duel"]["status"] == "resolved" and d["duel"]["winner"] == "TC",
        [*DUEL, inp("duel", challenger="TC", challenged="SL")],
    ),
    "control": Scenario(
        inp("control", tag="H1", player="Ann"),
        lambda d: _minion(d, "H1")["controller"] == "Ann",  # type: ignore[index]
        BASES,
    ),
    "madness": Scenario(
        inp("madness", player="Ben", delta=2), lambda d: d["players"][1]["madness"] == 2, BASES
    ),
    "bury": Scenario(
        inp("bury", zone="base-1", player="Ann", madness=True),
        lambda d: d["players"][0]["buried_madness"] == 1,
        BASES,
    ),
    "uncover": Scenario(
        inp("uncover", tag="SL"),
        lambda d: _power(d, "SL") is not None,
        [*BASES, inp("bury", zone="base-1", tag="SL", player="Ann")],
    ),
    "dismiss": Scenario(inp("dismiss"), lambda d: d["version"] == len(BASES) + 1, BASES),
    "owner": Scenario(
        inp("owner", tag="TX", player="Ben", zone="base-1"),
        lambda d: _minion(d, "TX") is not None and _minion(d, "TX")["owner"] == "Ben",  # type: ignore[index]
        [*BASES, tap("TX", "base-1")],  # a Werewolves minion nobody plays: whose is it?
    ),
    "bind": Scenario(
        inp("bind", tag="NEW1", card="munchkin/sword-lord", owner="Ann"),
        lambda d: (
            _minion(d, "NEW1") is not None and _minion(d, "NEW1")["card"] == "munchkin/sword-lord"
        ),  # type: ignore[index]
        BASES,
        [tap("NEW1", "base-2")],
    ),
    "attach": Scenario(
        inp("attach", tag="CH", target="TC"),
        lambda d: [a["tag"] for a in _minion(d, "TC")["actions"]] == ["CH"],  # type: ignore[index]
        TOPPER,
    ),
    "remove": Scenario(inp("remove", tag="TC"), lambda d: _minion(d, "TC") is None, TOPPER),
    "remove-base": Scenario(
        inp("remove-base", zone="base-2"),
        lambda d: [b["zone"] for b in d["bases"]] == ["base-1"],
        BASES,
    ),
    "replace-base": Scenario(
        inp("replace-base", zone="base-2", tag="B3"),
        lambda d: d["bases"][1]["card"] == "core/the-central-brain",
        BASES,
    ),
    "target": Scenario(
        inp("target", card="munchkin/pumping-iron", effect=0, target="TC", player="Ann"),
        lambda d: _power(d, "TC") == 5 + 3,
        TOPPER,
    ),
    "declare": Scenario(
        inp("declare", tag="TC", effect=0, on=True),
        lambda d: d["declared"] == [{"tag": "TC", "effect": 0}],
        TOPPER,
    ),
    "crosstalk": Scenario(
        inp("crosstalk", tag="TC", zones=["base-1", "base-2"]),
        lambda d: "crosstalk" in _prompt_kinds(d),
        TOPPER,
    ),
}
