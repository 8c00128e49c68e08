"""Strict JSON for everything that comes from outside (tape lines, request bodies, stored rows).

Python's :func:`json.loads` accepts more than JSON: ``NaN`` and ``Infinity``, ``1e999`` (read as
infinity), integers of any length (converting 100,000 digits costs seconds, and ``int`` refuses
more than 4,300), nesting until the interpreter's recursion limit, and ``"\\ud800"`` escapes that
make strings no UTF-8 encoder can write. :func:`loads` refuses all of them with a
:class:`StrictJSONError` saying what is wrong, so no input reaches a traceback later.

Pure: text or bytes in, plain JSON values out.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 16
"""Objects and lists nested deeper than this are refused (our lines nest three deep)."""
MAX_DIGITS = 15
"""Integers with more digits than this are refused before they are converted."""
MAX_NUMBER_TEXT = 40
"""Numbers written with more characters than this are refused before they are converted."""

SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate, which no UTF-8 encoder can write."""


class StrictJSONError(ValueError):
    """The text is not strict JSON within our limits; the message says what is wrong where."""


def _refuse_constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not a JSON number: write a plain number")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise StrictJSONError(f"the number {text[:12]}... is too long ({len(text)} digits)")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_NUMBER_TEXT:
        raise StrictJSONError(f"the number {text[:12]}... is too long ({len(text)} characters)")
    value = float(text)
    if not math.isfinite(value):
        raise StrictJSONError(f"the number {text} is too large")
    return value


def decode(data: bytes) -> str:
    """UTF-8 text (a leading byte-order mark is dropped). :raises StrictJSONError:"""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StrictJSONError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at column {exc.start + 1}); "
            "save the file as UTF-8"
        ) from None


def loads(text: str | bytes) -> Any:
    """The JSON value in ``text``. :raises StrictJSONError: for anything outside strict JSON
    and our limits (see the module docstring)."""
    if isinstance(text, bytes):
        text = decode(text)
    try:
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_bounded_int,
            parse_float=_bounded_float,
        )
    except json.JSONDecodeError as exc:
        raise StrictJSONError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise StrictJSONError(f"nested more than {MAX_DEPTH} levels deep") from None
    check_value(value)
    return value


def check_value(value: Any, depth: int = 0) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and strings no UTF-8 encoder can write.
    :raises StrictJSONError:"""
    if isinstance(value, str):
        if SURROGATE.search(value):
            raise StrictJSONError(
                f"the text {_shown(value)} has a lone surrogate (\\ud800-\\udfff)"
            )
        return
    if not isinstance(value, dict | list):
        return
    if depth >= MAX_DEPTH:
        raise StrictJSONError(f"nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, dict):
        for key, item in value.items():
            check_value(key, depth + 1)
            check_value(item, depth + 1)
    else:
        for item in value:
            check_value(item, depth + 1)


def _shown(text: str) -> str:
    """A short, printable rendering of text that may hold surrogates."""
    return ascii(text[:40] + ("..." if len(text) > 40 else ""))
