"""Face-down cards stay face down on the dashboard.

A buried card's tag is its identity: whoever has it can look the card up. The state document of
the tape contract names each buried card's tag (``companion replay --json`` keeps the truth, and
so do the store and ``companion export``), so what the dashboard serves to viewers is a public
view: every buried tag, wherever it appears (the base's ``buried`` list, a prompt's option, an
event in words), is replaced by ``null``, or by ``a face-down card`` inside a text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

FACE_DOWN = "a face-down card"


def buried_tags(document: Mapping[str, Any]) -> frozenset[str]:
    """The tags of every card buried in a state document (none in Munchkin Cthulhu)."""
    found: set[str] = set()
    for base in document.get("bases", ()):
        for card in base.get("buried", ()):
            tag = card.get("tag")
            if isinstance(tag, str) and tag:
                found.add(tag.upper())
    return frozenset(found)


def public_view(value: Any, hidden: Iterable[str]) -> Any:
    """``value`` with every ``hidden`` tag redacted (a new object; ``value`` is untouched)."""
    tags = frozenset(hidden)
    return _redact(value, tags) if tags else value


def _redact(value: Any, hidden: frozenset[str]) -> Any:
    if isinstance(value, str):
        if value.upper() in hidden:
            return None
        for tag in hidden:
            if tag in value.upper():
                value = _replace_folded(value, tag)
        return value
    if isinstance(value, dict):
        return {key: _redact(item, hidden) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(item, hidden) for item in value]
    return value


def _replace_folded(text: str, tag: str) -> str:
    """``text`` with ``tag`` (in any case) replaced by :data:`FACE_DOWN`."""
    upper = text.upper()
    while (at := upper.find(tag)) >= 0:
        text = text[:at] + FACE_DOWN + text[at + len(tag) :]
        upper = text.upper()
    return text
