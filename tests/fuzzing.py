"""Seeded mutations of tapes and request bodies, for the fuzz tests (``test_fuzz.py``).

Each mutation says whether the result must be refused (``must_refuse``): NaN, a huge number, a
non-numeric ``"at"``... are never a state to print. Others (a dropped line, a flipped byte) may
still be a valid tape; those only must not crash.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HUGE_INT = "9" * 5000
DEEP = "[" * 1500 + "]" * 1500
#: JSON texts that are never a valid value of any field
POISON = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    HUGE_INT,
    "-" + HUGE_INT,
    DEEP,
    '"\\ud800"',
    '"a\\udfffb"',
    '{"a": ' * 40 + "1" + "}" * 40,
]
#: JSON values of the wrong type (or out of bounds) for some field
ODD = [
    "true",
    "false",
    "null",
    '"x"',
    '""',
    "[]",
    "{}",
    "-1",
    "0.5",
    "101",
    "-101",
    "1001",
    "1e9",
    '["a", 1]',
    '"' + "A" * 2000 + '"',
    "[" + ",".join(["1"] * 1200) + "]",
]


@dataclass(frozen=True)
class Mutant:
    kind: str
    data: bytes
    must_refuse: bool


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _object(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _set_field(rng: random.Random, line: bytes, text: str) -> bytes | None:
    """``line`` (a JSON object) with one of its fields (or a new one) set to ``text``."""
    value = _object(line)
    if not value:
        return None
    key = rng.choice([*value, "delta", "at", "count", "tags"])
    marker = "\u0000MARK\u0000"
    value[key] = marker
    return json.dumps(value).replace(json.dumps(marker), text).encode()


def _field_mutant(
    rng: random.Random, data: bytes, values: list[str], kind: str, must_refuse: bool
) -> Mutant | None:
    """One field of one line set to one of ``values`` (JSON text, written as is)."""
    lines = _lines(data)
    n = rng.randrange(len(lines))
    changed = _set_field(rng, lines[n], rng.choice(values))
    if changed is None:
        return None
    lines[n] = changed
    return Mutant(kind, b"\n".join(lines), must_refuse)


def poison_field(rng: random.Random, data: bytes) -> Mutant | None:
    return _field_mutant(rng, data, POISON, "poison-field", True)


def odd_field(rng: random.Random, data: bytes) -> Mutant | None:
    return _field_mutant(rng, data, ODD, "odd-field", False)


def bad_at(rng: random.Random, data: bytes) -> Mutant | None:
    lines = _lines(data)
    n = rng.randrange(len(lines))
    value = _object(lines[n])
    if value is None or "tape" in value:
        return None
    value["at"] = rng.choice(["soon", True, None, [], {}, -5, 1e12])
    lines[n] = json.dumps(value).encode()
    return Mutant("bad-at", b"\n".join(lines), True)


def tape_true(rng: random.Random, data: bytes) -> Mutant | None:
    lines = _lines(data)
    first = next((n for n, line in enumerate(lines) if line.startswith(b"{")), None)
    header = _object(lines[first]) if first is not None else None
    if first is None or header is None:
        return None
    header["tape"] = rng.choice([True, 1.0, "1", [1], 2])
    lines[first] = json.dumps(header).encode()
    return Mutant("tape-version", b"\n".join(lines), True)


def bad_bytes(rng: random.Random, data: bytes) -> Mutant | None:
    at = rng.randrange(len(data) + 1)
    junk = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80", b"\xfe\xff"])
    return Mutant("invalid-utf8", data[:at] + junk + data[at:], True)


def flip_byte(rng: random.Random, data: bytes) -> Mutant | None:
    if not data:
        return None
    at = rng.randrange(len(data))
    return Mutant("flip-byte", data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :], False)


def cut(rng: random.Random, data: bytes) -> Mutant | None:
    if not data:
        return None
    at = rng.randrange(len(data))
    return Mutant("truncate", data[:at], False)


def shuffle_lines(rng: random.Random, data: bytes) -> Mutant | None:
    lines = _lines(data)
    if len(lines) < 2:
        return None
    a, b = rng.randrange(1, len(lines)), rng.randrange(1, len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    if rng.random() < 0.5:
        lines.insert(a, lines[b])
    else:
        del lines[a]
    return Mutant("lines", b"\n".join(lines), False)


def splice(rng: random.Random, data: bytes) -> Mutant | None:
    lines = _lines(data)
    n = rng.randrange(len(lines))
    lines[n] = rng.choice(POISON).encode()
    return Mutant("poison-line", b"\n".join(lines), True)


MUTATORS: list[Callable[[random.Random, bytes], Mutant | None]] = [
    poison_field,
    odd_field,
    bad_at,
    tape_true,
    bad_bytes,
    flip_byte,
    cut,
    shuffle_lines,
    splice,
]


def mutants(rng: random.Random, tapes: list[bytes], count: int) -> list[Mutant]:
    """``count`` mutants of ``tapes``, some mutated twice."""
    found: list[Mutant] = []
    while len(found) < count:
        data = rng.choice(tapes)
        mutant = rng.choice(MUTATORS)(rng, data)
        if mutant is None:
            continue
        if rng.random() < 0.2:
            again = rng.choice(MUTATORS)(rng, mutant.data) if mutant.data else None
            if again is not None:
                # the second mutation may undo the first (cut the bad byte off)
                mutant = Mutant(f"{mutant.kind}+{again.kind}", again.data, again.must_refuse)
        found.append(mutant)
    return found


def body_texts(rng: random.Random, bodies: list[dict[str, Any]], count: int) -> list[bytes]:
    """``count`` request bodies: valid ones with a field poisoned or odd, and raw junk."""
    found: list[bytes] = []
    while len(found) < count:
        body = json.dumps(rng.choice(bodies)).encode()
        roll = rng.random()
        if roll < 0.45:
            changed = _set_field(rng, body, rng.choice(POISON + ODD))
        elif roll < 0.75:
            changed = _nested_field(rng, body, rng.choice(POISON + ODD))
        elif roll < 0.9:
            at = rng.randrange(len(body))
            changed = (
                body[:at] + rng.choice([b"\xff", b"\xed\xa0\x80", b"}", b"[", b"\\"]) + body[at:]
            )
        else:
            changed = rng.choice(POISON).encode()
        if changed is not None:
            found.append(changed)
    return found


def _nested_field(rng: random.Random, body: bytes, text: str) -> bytes | None:
    """A body whose ``line`` (or other object field) has a field set to ``text``."""
    value = _object(body)
    if value is None:
        return None
    inner = [k for k, v in value.items() if isinstance(v, dict) and v]
    if not inner:
        return _set_field(rng, body, text)
    key = rng.choice(inner)
    changed = _set_field(rng, json.dumps(value[key]).encode(), text)
    if changed is None:
        return None
    marker = "\u0000INNER\u0000"
    value[key] = marker
    return json.dumps(value).replace(json.dumps(marker), changed.decode()).encode()
