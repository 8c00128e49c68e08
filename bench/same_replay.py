"""Whether a change to the tracker left what it says alone: every line's outcome (its events,
whether it changed the game, the version, or the refusal) and state documents, written for
the bundled tapes and for generated ones (random, plausible, noisy with corrections and
refusals, Munchkin Cthulhu), one file a tape. Run it on two trees and compare the folders::

    python bench/same_replay.py --out /tmp/before     # on main
    python bench/same_replay.py --out /tmp/after      # on the branch
    diff -r /tmp/before /tmp/after && echo identical

The tapes are generated through the tracker itself (the simulator applies each line), so a
behaviour change shows in the tapes too. About a minute of CPU; not a test (no golden files
to keep), a tool for performance work, which must not change a byte of this.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.errors import InvalidLine, Rejected
from companion.simulation.cthulhu_play import cthulhu_lines
from companion.simulation.plausible import plausible_lines, random_header, random_lines
from companion.tape.examples import EXAMPLES, example_tape
from companion.tape.limits import check_line
from companion.tape.lines import TapeLine, parse_header, read_lines
from companion.tracker.document import render_text, state_document
from companion.tracker.game import Game, replay_lines

Tape = tuple[dict[str, Any], list[dict[str, Any]]]


def bundled() -> dict[str, Tape]:
    found = {}
    for name in sorted(EXAMPLES):
        numbered = list(read_lines(example_tape(name).splitlines()))
        found[name] = (numbered[0].event, [line.event for line in numbered[1:]])
    return found


def tapes(catalogue: Catalogue) -> Iterator[tuple[str, Tape]]:
    examples = bundled()
    yield from examples.items()
    rng = random.Random(1)
    header = random_header(rng, catalogue)
    yield "bench-20000", (header, list(random_lines(rng, header, catalogue, 20_000)))
    for seed in range(2, 8):
        rng = random.Random(seed)
        header = random_header(rng, catalogue, players=2 + seed % 3, zones=3 + seed % 3)
        yield f"random-{seed}", (header, list(random_lines(rng, header, catalogue, 4000)))
    for seed in range(1, 6):
        rng = random.Random(seed)
        header = random_header(rng, catalogue)
        yield f"plausible-{seed}", (header, list(plausible_lines(rng, header, catalogue)))
    for seed in range(1, 5):
        yield f"noisy-{seed}", noisy(catalogue, seed)
    cthulhu = examples["cthulhu-3p"][0]
    for seed in range(1, 5):
        yield f"cthulhu-{seed}", (cthulhu, cthulhu_game(catalogue, cthulhu, seed))


def noisy(catalogue: Catalogue, seed: int) -> Tape:
    """Random lines with taps moved (tap-moved), stray taps, crosstalk, answers to prompts
    that may not be open and undos between them: many are refused, and the refusals count."""
    rng = random.Random(100 + seed)
    header = random_header(rng, catalogue)
    uids, zones = sorted(header["tags"]), header["zones"]
    lines: list[dict[str, Any]] = []
    recent: list[dict[str, Any]] = []
    for line in random_lines(random.Random(seed), header, catalogue, 3000):
        lines.append(line)
        if "tap" in line:
            recent.append(line)
        roll = rng.random()
        if roll < 0.08 and recent:
            t = rng.choice(recent[-80:])
            moved = {"input": "tap-moved", "tag": t["tap"], "from": t["zone"]}
            lines.append(moved | {"zone": rng.choice(zones)})
        elif roll < 0.12:
            lines.append({"tap": rng.choice(uids), "zone": rng.choice(zones)})
        elif roll < 0.14 and recent:
            t = recent[-1]
            pair = [t["zone"], rng.choice(zones)]
            lines.append({"input": "crosstalk", "tag": t["tap"], "zones": pair})
        elif roll < 0.16:
            answer = {"input": "answer", "prompt": rng.randrange(1, 400)}
            lines.append(answer | {"option": rng.randrange(3)})
        elif roll < 0.17:
            lines.append({"input": "undo"})
    return header, lines


def cthulhu_game(catalogue: Catalogue, header: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    game = Game(parse_header(header, catalogue), catalogue)
    lines = []
    now = lambda: state_document(game.state, game.catalogue)  # noqa: E731
    for line in cthulhu_lines(random.Random(seed), header["tags"], catalogue.cthulhu, now):
        with contextlib.suppress(Rejected):  # a refused move is part of the tape too
            game.apply(line)
        lines.append(line)
    return lines


def outcomes(catalogue: Catalogue, header: dict[str, Any], lines: list[dict[str, Any]]) -> str:
    """Each line's outcome, the document after each (every 25th on a long tape), the last
    document and its text, and the whole tape through replay_lines (checked and not)."""
    parsed = parse_header(header, catalogue)
    game = Game(parsed, catalogue)
    every = 1 if len(lines) < 5000 else 25
    rows = []
    for n, line in enumerate(lines):
        try:
            outcome = game.apply(check_line(line))
            said = {"events": list(outcome.events), "changed": outcome.changed}
            rows.append(_json(said | {"version": outcome.state.version, "undo": game.can_undo}))
        except (Rejected, InvalidLine) as exc:
            rows.append(f"{n} refused {type(exc).__name__}: {exc}")
        if n % every == 0:
            rows.append(_json(state_document(game.state, game.catalogue)))
    document = state_document(game.state, game.catalogue)
    rows += [_json(document), render_text(document, game.catalogue)]
    numbered = [TapeLine(n, line) for n, line in enumerate(lines, start=2)]
    try:
        for checked in (False, True):
            replayed = replay_lines(parsed, numbered, catalogue, checked=checked)
            rows.append(_json(state_document(replayed.state, replayed.catalogue)))
    except Exception as exc:  # a tape with refused lines stops replay_lines: say where
        rows.append(f"replay_lines stopped: {exc}")
    return "\n".join(rows) + "\n"


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True, help="a folder for the outcomes")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    catalogue = load_catalogue()
    for name, (header, lines) in tapes(catalogue):
        text = outcomes(catalogue, header, lines)
        (args.out / f"{name}.out").write_text(text, encoding="utf-8")
        print(name, len(lines), hashlib.sha256(text.encode()).hexdigest()[:16])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
