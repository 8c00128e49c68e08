"""What a viewer may see (as boardgame.io's ``playerView``): the game without its tag uids.

A tag's uid is fixed to a physical card, so a uid a viewer saw face up would name that card when
it later lies face down, at this game or the next. A viewer (a tablet without the control token)
is therefore never given a uid: a card in play is given an opaque **handle**, the same for the
whole game (the page points at a card with it: "why this power?"), drawn from a key the table
keeps for that game; a buried card has none (``None``), so nothing a viewer reads links a buried
card to an earlier sighting. Texts that name a uid name its handle instead, or
:data:`~companion.tracker.words.FACE_DOWN`.

The tape contract's state document keeps every uid (``companion replay --json``, the store and
the page of a token holder need them): this is a view of it, never a change to it.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from companion.tracker.words import FACE_DOWN

HANDLE_PREFIX = "card-"


@lru_cache(maxsize=4096)
def handle(key: bytes, uid: str) -> str:
    """The opaque handle of ``uid`` in the game whose key is ``key``."""
    return HANDLE_PREFIX + hmac.new(key, uid.upper().encode(), "sha256").hexdigest()[:12]


def buried_tags(state: Any) -> frozenset[str]:
    """The tags of the cards lying face down (Oops; none in Munchkin Cthulhu)."""
    table = getattr(state, "table", None)
    return frozenset(
        card.tag.upper() for base in getattr(table, "bases", ()) for card in base.buried
    )


def known_tags(state: Any) -> frozenset[str]:
    """Every uid the game's state can name: the bound tags, the tags its prompts ask about
    (an unknown tag is in none of its bindings), the buried ones."""
    bound = {uid.upper() for uid in state.header.tags}
    asked = {p.tag.upper() for p in getattr(state, "prompts", ()) if p.tag}
    return frozenset(bound | asked) | buried_tags(state)


def shown_tags(state: Any, key: bytes) -> dict[str, str | None]:
    """What a viewer is given for each uid of ``state``: its handle, or None if it is buried."""
    hidden = buried_tags(state)
    return {uid: None if uid in hidden else handle(key, uid) for uid in known_tags(state)}


def public_view(value: Any, shown: Mapping[str, str | None]) -> Any:
    """``value`` (a state document, a line, a list of sentences) as a viewer sees it: each
    uid of ``shown`` replaced by what ``shown`` gives, in a text by that or
    :data:`FACE_DOWN`. A new object; ``value`` is untouched."""
    if not shown:
        return value
    return _shown(value, shown, _pattern(frozenset(shown)))


@lru_cache(maxsize=8)
def _pattern(uids: frozenset[str]) -> re.Pattern[str]:
    # a whole word only (a short uid may be part of a card id); the longest first
    ordered = sorted(uids, key=len, reverse=True)
    alternatives = "|".join(re.escape(uid) for uid in ordered)
    return re.compile(f"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])", re.IGNORECASE)


def _shown(value: Any, shown: Mapping[str, str | None], pattern: re.Pattern[str]) -> Any:
    if isinstance(value, str):
        upper = value.upper()
        if upper in shown:
            return shown[upper]
        if pattern.search(value) is None:
            return value
        return pattern.sub(lambda m: shown[m.group().upper()] or FACE_DOWN, value)
    if isinstance(value, dict):
        return {key: _shown(item, shown, pattern) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_shown(item, shown, pattern) for item in value]
    return value
