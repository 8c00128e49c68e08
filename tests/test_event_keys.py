"""Every event the trackers make carries only keys its type declares, each with its declared
JSON type: the bundled tapes, every input's scenario (both games) and simulated games are
replayed and every event is held to :class:`companion.tape.events.Event`."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.errors import Rejected
from companion.simulation.cthulhu_play import cthulhu_lines
from companion.simulation.plausible import plausible_lines, random_header, random_lines
from companion.tape.documents import Event, as_line
from companion.tape.events import EventFields
from companion.tape.limits import check_line
from companion.tape.lines import parse_header, read_tape
from companion.tape.shapes import ShapeError, check
from companion.tracker.document import state_document
from companion.tracker.game import Game
from tests.every_cthulhu_input import CTHULHU_HEADER, CTHULHU_SCENARIOS
from tests.every_input import EVERY_INPUT_HEADER, SCENARIOS

CATALOGUE = load_catalogue()
BUNDLED = sorted((Path(__file__).parents[1] / "companion/tape/bundled").glob("*.jsonl"))
DECLARED = set(get_type_hints(Event))


def _played(
    header: dict[str, Any], lines: Iterable[Mapping[str, Any]], catalogue: Catalogue
) -> Iterator[Event]:
    game = Game(parse_header(header, catalogue), catalogue)
    for line in lines:
        try:
            yield from game.apply(as_line(line)).events
        except Rejected:
            continue  # a scenario's line may be refused on purpose: it made no events


def _cthulhu_game(seed: int) -> Iterator[Event]:
    game = Game(parse_header(CTHULHU_HEADER, CATALOGUE), CATALOGUE)
    tags = {uid: binding.card for uid, binding in game.state.header.tags.items()}
    moves = cthulhu_lines(
        random.Random(seed), tags, CATALOGUE.cthulhu, lambda: state_document(game.state, CATALOGUE)
    )
    for line in moves:
        try:
            yield from game.apply(as_line(line)).events
        except Rejected:
            continue


def _sources() -> Iterator[tuple[str, Iterator[Event]]]:
    for path in BUNDLED:
        first, *rest = read_tape(path.read_bytes())
        yield path.name, _played(first.event, [check_line(n.event) for n in rest], CATALOGUE)
    for name, scenario in SCENARIOS.items():
        lines = [*scenario.before, scenario.line, *scenario.after]
        yield f"smashup:{name}", _played(EVERY_INPUT_HEADER, lines, CATALOGUE)
    for name, scenario in CTHULHU_SCENARIOS.items():
        lines = [*scenario.before, scenario.line, *scenario.after]
        yield f"cthulhu:{name}", _played(CTHULHU_HEADER, lines, CATALOGUE)
    for seed in range(3):
        header = random_header(random.Random(seed), CATALOGUE)
        yield (
            f"random {seed}",
            _played(header, random_lines(random.Random(seed), header, CATALOGUE, 300), CATALOGUE),
        )
        header = random_header(random.Random(seed + 100), CATALOGUE)
        yield (
            f"plausible {seed}",
            _played(header, plausible_lines(random.Random(seed), header, CATALOGUE), CATALOGUE),
        )
        yield f"cthulhu game {seed}", _cthulhu_game(seed)


def test_every_event_has_only_declared_keys_of_their_declared_types() -> None:
    kinds: set[str] = set()
    keys: set[str] = set()
    for source, events in _sources():
        for said in events:
            undeclared = set(said) - DECLARED
            assert not undeclared, f"{source}: {said['event']} carries {sorted(undeclared)}"
            try:
                check(said, Event)
            except ShapeError as exc:
                pytest.fail(f"{source}: {said['event']}: {exc} ({said})")
            kinds.add(said["event"])
            keys |= set(said)
    # the sources reach far enough to mean something: most kinds, and most declared keys
    assert len(kinds) > 50 and len(keys) >= len(DECLARED) - 3, sorted(DECLARED - keys)


def test_a_wrong_event_is_caught() -> None:
    """The check above can fail: a key of the wrong JSON type is named."""
    with pytest.raises(ShapeError, match='"zone"'):
        check({"event": "moved", "zone": 3}, Event)
    assert "origin" in get_type_hints(EventFields)
