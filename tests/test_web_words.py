"""Every event the trackers make has a sentence, written in one place, the core's
(``companion/tracker/words.py``): the names come from the source, the sentences from whole
games (the bundled tapes and seeded plausible ones), and none is a bare word, a zone id, a
hedged plural or a tag's uid."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.simulation.plausible import make_header, plausible_lines
from companion.table.games import DEMO_PLAYERS
from companion.tape.english import plural, unhedged
from companion.tape.examples import example_tape
from companion.tape.lines import parse_header, read_lines
from companion.tracker.game import Game
from companion.tracker.words import QUIET, SENTENCES, Words, in_context, zone_label

PACKAGE = Path(__file__).parent.parent / "companion"
ZONE_ID = re.compile(r"\b(base|seat)-\d")
ONE_MANY = re.compile(r"(?<![\d.])1 (treasures|counters|cards|monsters|Levels|items|times)\b")
MANY_ONE = re.compile(r"(?<![\d.])([02-9]|\d\d+) (treasure|counter|card|monster|Level)\b")


def event_names() -> set[str]:
    """Every event name the package makes: ``event("name", ...)`` calls (a name given in a
    variable counts by the strings assigned to it) and ``{"event": "name"}`` literals."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assigned: dict[str, set[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                strings = {
                    n.value
                    for n in ast.walk(node.value)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                }
                assigned.setdefault(node.targets[0].id, set()).update(strings)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "event":
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names.add(first.value)
                elif isinstance(first, ast.Name):
                    names |= assigned.get(first.id, set())
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "event"
                        and isinstance(value, ast.Constant)
                    ):
                        names.add(str(value.value))
    return names


def test_every_event_the_trackers_make_has_a_sentence_or_is_quiet() -> None:
    names = event_names()
    assert {"played", "vp", "monster-placed", "monster-played", "sold"} <= names  # found
    missing = sorted(names - set(SENTENCES) - QUIET)
    assert missing == [], f"events with no sentence in companion/tracker/words.py: {missing}"


def played_events(catalogue: Catalogue) -> Iterator[tuple[Words, Mapping[str, Any]]]:
    """Each event of the bundled games and of seeded plausible ones, with the names then."""
    games = []
    for name in ("munchkin-3p", "mixed-4p", "oops-2p", "cthulhu-3p"):
        lines = list(read_lines(example_tape(name).splitlines()))
        games.append((lines[0].event, [line.event for line in lines[1:]]))
    factions = {player: list(chosen) for player, chosen in DEMO_PLAYERS.items()}
    for seed in range(4):
        header = make_header(list(DEMO_PLAYERS), factions, catalogue, 3)
        games.append((header, list(plausible_lines(random.Random(seed), header, catalogue))))
    for header, lines in games:
        game = Game(parse_header(header, catalogue), catalogue)
        for line in lines:
            outcome = game.apply(line)  # type: ignore[arg-type]
            state = game.state
            tags = {uid: bound.card for uid, bound in state.header.tags.items()}
            bases = {base.zone: base.card for base in getattr(state.table, "bases", ())}
            words = Words(catalogue, tags, bases)
            for event in in_context(outcome.events):
                yield words, event


def test_every_sentence_of_whole_games_reads_as_words(catalogue: Catalogue) -> None:
    kinds: set[str] = set()
    for words, event in played_events(catalogue):
        text = words.describe(event)
        kind = str(event["event"])
        if kind in QUIET:
            assert text is None
            continue
        kinds.add(kind)
        assert text and " " in text.strip(), f"{kind}: a bare word {text!r}"
        assert "(s)" not in text, f"{kind}: {text!r}"
        assert not ZONE_ID.search(text), f"{kind}: a zone id in {text!r}"
        assert not ONE_MANY.search(text), f"{kind}: {text!r}"
        assert "None" not in text, f"{kind}: {text!r}"
        assert not any(uid in text.upper() for uid in words.tags), f"{kind}: a uid in {text!r}"
    assert {"vp", "talent", "counters", "treasure-draw", "resolved", "turn-ended"} <= kinds


def test_the_texts_the_trackers_write_count_in_words(catalogue: Catalogue) -> None:
    """An event's own ``text`` (the contract's words for other clients) is made by
    ``words.py`` where it has the sentence: counters read "+2 counters", never "+2 counter"."""
    counted = set()
    for _, event in played_events(catalogue):
        text = unhedged(str(event.get("text") or ""))  # "treasure(s)" reads as words.py says
        assert not ONE_MANY.search(text) and not MANY_ONE.search(text), f"{event}: {text!r}"
        if event["event"] == "counters" and text:
            counted.add(text.rsplit(": ", 1)[1])
    assert {"+1 counter", "+2 counters"} <= counted


def test_a_level_change_counts_its_levels(catalogue: Catalogue) -> None:
    """Munchkin Cthulhu's level input words its count as the trackers' counters do."""
    lines = list(read_lines(example_tape("cthulhu-3p").splitlines()))
    game = Game(parse_header(lines[0].event, catalogue), catalogue)
    player = game.state.header.players[0]
    said = [
        str(game.apply({"input": "level", "player": player, "delta": delta}).events[0]["text"])
        for delta in (2, 1, -1)
    ]
    assert said == [f"{player} +2 Levels", f"{player} +1 Level", f"{player} -1 Level"]


@pytest.mark.parametrize(
    ("event", "said"),
    [
        ({"event": "vp", "player": "Ann", "delta": 2}, "Ann gains 2 VP"),
        ({"event": "vp", "player": "Ann", "delta": -1}, "Ann loses 1 VP"),
        ({"event": "counters", "tag": "T1", "delta": 1}, "+1 power counter on Drone"),
        ({"event": "counters", "tag": "T1", "delta": -2}, "-2 power counters on Drone"),
        (
            {"event": "treasure-draw", "player": "Ben", "count": 1, "card": "monster-smash/drone"},
            "Ben draws 1 treasure for Drone",
        ),
        (
            {"event": "left", "card": "monster-smash/drone", "zone": "base-2"},
            "Drone left base zone 2",
        ),
        ({"event": "buried", "player": "Ann", "zone": "base-1"}, "Ann buried a card at Tar Pits"),
        (
            {"event": "buried", "player": "Ann", "zone": "base-1", "madness": True},
            "Ann buried a Madness card at Tar Pits",
        ),
        ({"event": "talent", "tag": "X9"}, "an unknown tag used its Talent"),
        ({"event": "undone"}, "The last change was undone"),
        ({"event": "talent", "tag": "T1"}, "Drone used its Talent"),
        (
            {"event": "resolved", "text": "Ben killed it: +1 Level(s), 4 treasure(s)"},
            "Ben killed it: +1 Level, 4 treasures",
        ),
        ({"event": "brand-new", "text": "A new kind of event"}, "A new kind of event"),
        ({"event": "brand-new"}, "Something changed (brand new)"),
    ],
)
def test_sentences(catalogue: Catalogue, event: dict[str, Any], said: str) -> None:
    words = Words(catalogue, {"T1": "monster-smash/drone"}, {"base-1": "core/tar-pits"})
    assert words.describe(event) == said


def test_the_turn_that_ends_the_game_hands_the_play_to_nobody(catalogue: Catalogue) -> None:
    words = Words(catalogue, {}, {})
    events = [
        {"event": "turn-ended", "player": "Ann", "next": "Ann"},
        {"event": "game-over", "winners": ["Ann"]},
    ]
    said = [words.describe(event) for event in in_context(events)]
    assert said == ["Ann's turn ended, and with it the game", "Game over: Ann won"]


def test_plurals_and_zone_names() -> None:
    assert [plural(n, "card") for n in (0, 1, 2, -1)] == ["0 cards", "1 card", "2 cards", "-1 card"]
    hedged = "+1 Level(s), 3 treasure(s) and 1 item(s)"
    assert unhedged(hedged) == "+1 Level, 3 treasures and 1 item"
    assert [zone_label(z) for z in ("base-3", "seat-1", "discard", "combat")] == [
        "base zone 3",
        "seat 1",
        "the discard pad",
        "the combat pad",
    ]
