"""Fuzzing, seeded: thousands of mutated tapes and request bodies, and never a traceback.

Tapes are the bundled games with bytes flipped, lines dropped, swapped or cut, fields set to
NaN, 5,000-digit numbers, 1,500-deep nesting, lone surrogates, invalid UTF-8, wrong types.
Replay either prints a state document that is strict JSON, or refuses naming the line; a
mutation that is never valid (NaN, a non-numeric "at", "tape": true...) must be refused.
Request bodies get the same treatment at every state-changing endpoint: a 4xx, never a 5xx.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.cli.tapes import _replay
from companion.errors import TapeError
from companion.table.service import TableService
from companion.tape.examples import example_tape
from companion.web.app import create_app
from tests.conftest import AUTH, TOKEN
from tests.fuzzing import Mutant, body_texts, mutants

TAPES = ["munchkin-3p", "mixed-4p", "oops-2p", "cthulhu-3p"]
#: mutated tapes replayed in-process (their first 60 lines, so thousands run in seconds) ...
TAPE_CASES = 2500
#: ... and whole tapes, for the tracker's deeper states
WHOLE_TAPE_CASES = 300
BODY_CASES = 3000


def bundled(lines: int | None = None) -> list[bytes]:
    return ["\n".join(example_tape(name).splitlines()[:lines]).encode("utf-8") for name in TAPES]


def outcome(mutant: Mutant, catalogue: Catalogue) -> str:
    """``printed``, ``refused`` or ``crashed: <exception>``."""
    try:
        document = _replay(mutant.data.split(b"\n"), catalogue)
        json.dumps(document, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except TapeError as exc:
        assert exc.line is not None, f"a refusal that names no line: {exc}"
        assert "tracker failed" not in str(exc), f"{mutant.kind}: {exc}"
        return "refused"
    except Exception as exc:  # the count is the assertion
        return f"crashed: {type(exc).__name__}: {exc}"
    return "printed"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "lines", "count"), [(15, 60, TAPE_CASES), (16, None, WHOLE_TAPE_CASES)]
)
def test_mutated_tapes_never_crash_and_broken_ones_are_refused(
    catalogue: Catalogue, seed: int, lines: int | None, count: int
) -> None:
    found = mutants(random.Random(seed), bundled(lines), count)
    results = Counter()
    wrongly_printed = Counter()
    for mutant in found:
        result = outcome(mutant, catalogue)
        results["crashed" if result.startswith("crashed") else result] += 1
        assert not result.startswith("crashed"), f"{mutant.kind}: {result}"
        if mutant.must_refuse and result == "printed":
            wrongly_printed[mutant.kind] += 1
    assert not wrongly_printed, f"broken tapes printed a state: {dict(wrongly_printed)}"
    assert results["printed"] > 0 and results["refused"] > count // 2  # both paths were run


def test_the_command_refuses_mutated_tapes_in_words(tmp_path: Path) -> None:
    """Through the real command (a sample: each run loads the catalogue): exit 1, one line on
    stderr naming the line, nothing on stdout, never a traceback."""
    runner = CliRunner()
    for n, mutant in enumerate(mutants(random.Random(17), bundled(30), 60)):
        path = tmp_path / f"tape-{n}.jsonl"
        path.write_bytes(mutant.data)
        result = runner.invoke(main, ["replay", str(path), "--json"])
        assert result.exception is None or isinstance(result.exception, SystemExit), mutant.kind
        assert "Traceback" not in result.output
        if result.exit_code != 0:
            assert result.stdout == "" and result.stderr.startswith("error: ")
            assert "line " in result.stderr


ENDPOINT_BODIES = {
    "/api/input": [
        {"line": {"tap": "04A1B2C3D4E5F6", "zone": "base-1", "at": 1.5}, "version": 0},
        {"line": {"input": "madness", "player": "Ann", "delta": 1}, "version": 0},
        {"line": {"input": "counter", "tag": "04A1B2C3D4E5F6", "delta": 2}, "version": 0},
        {"line": {"input": "bury", "tag": "04A1B2C3D4E5F6", "zone": "base-1"}, "version": 0},
        {"line": {"input": "answer", "prompt": 1, "option": 0}, "version": 0},
        {"line": {"input": "sell", "player": "Ann", "tags": ["04A1"]}, "version": 0},
    ],
    "/api/games": [
        {
            "players": [
                {"name": "Ann", "colour": "#112233", "factions": ["core/aliens", "core/ninjas"]},
                {"name": "Ben", "colour": "#445566", "factions": ["core/pirates", "core/robots"]},
            ],
            "zones": 3,
        },
        {
            "game": "munchkin-cthulhu",
            "players": [{"name": n, "sex": "female"} for n in ("Ann", "Ben", "Cat")],
        },
    ],
    "/api/bindings": [{"uid": "04A1B2C3D4E5F6", "card": "core/pirate-king", "owner": "Ann"}],
    "/api/enrol/start": [{"zone": "base-1", "faction": "core/aliens", "owner": "Ann"}],
    "/api/readers/base-1/reopen": [{}],
}


@pytest.fixture
def fuzz_client(service: TableService) -> Iterator[FlaskClient]:
    yield create_app(service=service, token=TOKEN).test_client()


def test_mutated_request_bodies_get_a_4xx_never_a_5xx(fuzz_client: FlaskClient) -> None:
    rng = random.Random(18)
    statuses: Counter[int] = Counter()
    per_endpoint = BODY_CASES // len(ENDPOINT_BODIES)
    for path, bodies in ENDPOINT_BODIES.items():
        for body in body_texts(rng, bodies, per_endpoint):
            answer = fuzz_client.post(
                path, data=body, headers={**AUTH, "Content-Type": "application/json"}
            )
            statuses[answer.status_code] += 1
            assert answer.status_code < 500, (path, body[:200], answer.get_data()[:300])
            if answer.status_code >= 400:
                assert answer.is_json and answer.get_json()["error"]
    assert sum(statuses.values()) == per_endpoint * len(ENDPOINT_BODIES)
    assert statuses[400] > per_endpoint  # most mutants are refused as bad requests
