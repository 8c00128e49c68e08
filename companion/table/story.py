"""What happened, as the table screen tells it: the last events in words, without the ones an
undo took back; what Undo would take back now; and, right after an undo, what Redo puts back.

The grouping is the tracker's own (:meth:`companion.tracker.game.Game.told`: the lines an undo
would take back together), so the story and Undo never disagree; this module only words it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.tape.documents import Line
from companion.tracker.game import Game, Told
from companion.tracker.words import Words, in_context

#: the table screen lists this many events
RECENT_EVENTS = 8


@dataclass(frozen=True, slots=True)
class Redo:
    """Right after an undo: the line Redo submits again, and what it does in words."""

    line: Line
    text: str


@dataclass(frozen=True, slots=True)
class Story:
    #: the last events in words, newest first: ``{"seq", "event", "text"}`` (``seq``: the
    #: version the line made, which is its place in the game's log)
    recent: tuple[Mapping[str, Any], ...]
    #: what Undo would take back now, in words (``None``: nothing to undo)
    undo: str | None
    redo: Redo | None


def story(game: Game, words: Words, count: int = RECENT_EVENTS) -> Story:
    """The story of ``game`` now, in ``words`` (whose bases are the ones lying there now)."""
    undoable, undone = game.undoable, game.undone
    undo = None
    if undoable is not None:
        undo = said(undoable, words) or "the last change"
    redo = None
    if undone is not None:
        redo = Redo(undone.line, said(undone, words) or "the last change")
    # last: walking back in time renames the zones to the bases that lay there then
    return Story(sentences(game, words, count), undo, redo)


def said(told: Told, words: Words) -> str | None:
    """The first thing a line did, in words (the change it made)."""
    return next((t for e in in_context(told.events) if (t := words.describe(e)) is not None), None)


def sentences(game: Game, words: Words, count: int) -> tuple[Mapping[str, Any], ...]:
    """The last ``count`` sentences, newest first, each with the version its line made.

    Walking back in time, a zone names the base that lay there then: before a ``scored``
    event it held the scored base; before a ``base-entered`` nothing known. Several prompts
    withdrawn by one line are said once."""
    found: list[Mapping[str, Any]] = []
    for told in game.told():
        events = in_context(told.events)
        lapsed = [e for e in events if e.get("event") == "lapsed"]
        kept: list[Mapping[str, Any]] = [e for e in events if e.get("event") != "lapsed"]
        if len(lapsed) > 1:
            kept.append({"event": "lapsed", "text": withdrawn(lapsed)})
        else:
            kept += lapsed
        for event in reversed(kept):
            text = words.describe(event)
            if text is not None:
                found.append({"seq": told.version, "event": event.get("event"), "text": text})
                if len(found) == count:
                    return tuple(found)
            kind, zone = event.get("event"), str(event.get("zone"))
            if kind == "scored":
                words.bases[zone] = str(event.get("card"))
            elif kind in ("base-entered", "base-removed"):
                words.bases.pop(zone, None)
    return tuple(found)


def withdrawn(lapsed: list[Mapping[str, Any]]) -> str:
    prompts = sum(1 for e in lapsed if "prompt" in e)
    deals = len(lapsed) - prompts
    parts = [f"{prompts} question{'s' if prompts != 1 else ''}"] if prompts else []
    parts += [f"{deals} treasure deal{'s' if deals != 1 else ''}"] if deals else []
    why = {e.get("why") for e in lapsed}
    reason = "the game is over" if "game-over" in why else "their moment passed"
    return f"No longer asked ({reason}): {' and '.join(parts)}"
