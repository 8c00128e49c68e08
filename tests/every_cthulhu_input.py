"""One small scenario per Munchkin Cthulhu input (each key of its tracker's inputs table), for
the end-to-end tests in :mod:`tests.test_every_input`."""

from __future__ import annotations

from typing import Any

from tests.cthulhu_more import MORE_HEADER
from tests.every_input import Document, Scenario
from tests.tapes import inp, tap

CTHULHU_HEADER: dict[str, Any] = MORE_HEADER


def _player(document: Document, name: str) -> Document:
    return next(p for p in document["players"] if p["name"] == name)  # type: ignore[no-any-return]


def _fight(document: Document) -> tuple[int, int] | None:
    fight = document["combat"]
    return None if fight is None else (fight["players_strength"], fight["monsters_strength"])


GRAPE = [tap("GO", "combat")]  # Margot (Level 1) against the Grape Old Ones (10 against her)
LOST = [*GRAPE, inp("resolve")]

CTHULHU_SCENARIOS: dict[str, Scenario] = {
    "help": Scenario(
        inp("help", player="Chris"), lambda d: d["combat"]["helper"] == "Chris", GRAPE
    ),
    "resolve": Scenario(inp("resolve"), lambda d: d["running"] is not None, GRAPE),
    "run-away": Scenario(
        inp("run-away", player="Margot", roll=6), lambda d: d["running"] is None, LOST
    ),
    "level": Scenario(
        inp("level", player="Gene", delta=2), lambda d: _player(d, "Gene")["level"] == 3
    ),
    "sell": Scenario(
        inp("sell", player="Margot", tags=["TESLA", "BOW"]),
        lambda d: _player(d, "Margot")["level"] == 2,
        [tap("TESLA", "seat-1")],
    ),
    "end-turn": Scenario(inp("end-turn"), lambda d: d["current_player"] == "Gene"),
    "dismiss": Scenario(inp("dismiss"), lambda d: d["version"] == 1),
    "bind": Scenario(
        inp("bind", tag="NEW1", card="munchkin-cthulhu/bowling-pin"),
        lambda d: _player(d, "Margot")["gear"] == 2,
        after=[tap("NEW1", "seat-1")],
    ),
    "one-shot": Scenario(
        inp("one-shot", tag="CM", side="monsters", target="GO"),
        lambda d: _fight(d) == (1, 13),
        GRAPE,
    ),
    "enhance": Scenario(
        inp("enhance", tag="SPAWN", target="GO"),
        lambda d: [m["strength"] for m in d["combat"]["monsters"]] == [15, 1],
        [*GRAPE, tap("BUGG", "combat")],
    ),
    "fight-card": Scenario(inp("fight-card", tag="STARSR"), lambda d: _fight(d) == (1, 13), GRAPE),
    "modifier": Scenario(
        inp("modifier", side="players", delta=3, label="bribe"),
        lambda d: _fight(d) == (4, 10),
        GRAPE,
    ),
    "declare": Scenario(
        inp("declare", tag="COG", on=True), lambda d: _fight(d) == (1, 11), [tap("COG", "combat")]
    ),
    "die": Scenario(
        inp("die", player="Margot"),
        lambda d: d["looting"] is not None and _player(d, "Margot")["items"] == [],
        [tap("TESLA", "seat-1")],
    ),
    "lose": Scenario(
        inp("lose", player="Margot", tag="CU1"),
        lambda d: _player(d, "Margot")["classes"] == [],
        [tap("CU1", "seat-1"), tap("CU2", "seat-2")],
    ),
    "attach": Scenario(
        inp("attach", player="Margot", tag="GODS", target="BOW"),
        lambda d: _player(d, "Margot")["gear"] == 4 + 2 + 2,
        [tap("BP", "seat-1"), tap("BOW", "seat-1")],
        [tap("GODS", "seat-1")],
    ),
}
