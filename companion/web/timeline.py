"""What happened, as the table screen tells it: the last events in words, without the ones an
undo took back; what Undo would take back now; and, right after an undo, what Redo puts back.

The log is the source of truth. Undo (:class:`companion.tracker.game.Game`) pops the last line
that changed the game together with the lines after it that changed nothing, so the log is
walked forward with a stack of such groups: a change pushes one, an undo pops one."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.storage.records import LogEntry
from companion.web.words import Words, in_context

Group = list[LogEntry]


@dataclass(frozen=True)
class Timeline:
    #: the last events in words, newest first: ``{"seq", "event", "text"}``
    recent: list[dict[str, Any]]
    #: what Undo would take back now, in words (``None``: nothing to undo)
    undo: str | None
    #: right after an undo: ``{"line", "text"}``, the line that Redo submits again
    redo: dict[str, Any] | None


def walk(entries: Iterable[LogEntry]) -> tuple[list[Group], Group | None] | None:
    """The groups still in force (oldest first; the first may be lines from before the first
    change in ``entries``, never undoable here) and the group the last undo took back if
    nothing changed since; ``None`` if an undo reaches back before ``entries``."""
    loose: Group = []
    stack: list[Group] = []
    undone: Group | None = None
    for entry in entries:
        if entry.line.get("input") == "undo":
            if not stack:
                return None
            undone = stack.pop()
        elif entry.changed:
            stack.append([entry])
            undone = None
        elif stack:
            stack[-1].append(entry)
        else:
            loose.append(entry)
    return ([loose, *stack] if loose else stack), undone


def timeline(
    read: Callable[[int], list[LogEntry]], words: Words, count: int, lines: int
) -> Timeline:
    """From the last ``lines`` log lines (``read(n)``), more if an undo reaches further back."""
    entries = read(lines)
    walked = walk(entries)
    while walked is None and len(entries) == lines:
        lines *= 4
        entries = read(lines)
        walked = walk(entries)
    groups, undone = walked if walked is not None else ([], None)
    undoable = groups[-1] if groups and groups[-1][0].changed else None
    undo = _said(undoable[0], words) if undoable is not None else None
    redo = None
    if undone is not None:
        redo = {"line": undone[0].line, "text": _said(undone[0], words) or "the last change"}
    # last: walking back in time renames the zones to the bases that lay there then
    recent = _sentences([e for group in groups for e in group], words, count)
    return Timeline(
        recent=recent, undo=undo or ("the last change" if undoable else None), redo=redo
    )


def _said(entry: LogEntry, words: Words) -> str | None:
    """The first thing a line did, in words (the change it made)."""
    events = in_context(entry.events)
    return next((text for e in events if (text := words.describe(e)) is not None), None)


def _sentences(entries: list[LogEntry], words: Words, count: int) -> list[dict[str, Any]]:
    """The last ``count`` sentences, newest first, each with the log seq it came from.

    Walking back in time, a zone names the base that lay there then: before a ``scored``
    event it held the scored base; before a ``base-entered`` nothing known. Several prompts
    withdrawn by one line are said once."""
    found: list[dict[str, Any]] = []
    for entry in reversed(entries):
        events = in_context(entry.events)
        lapsed = [e for e in events if e.get("event") == "lapsed"]
        said = [e for e in events if e.get("event") != "lapsed"]
        if len(lapsed) > 1:
            said.append({"event": "lapsed", "text": _withdrawn(lapsed)})
        else:
            said += lapsed
        for event in reversed(said):
            text = words.describe(event)
            if text is not None:
                found.append({"seq": entry.seq, "event": event.get("event"), "text": text})
                if len(found) == count:
                    return found
            kind, zone = event.get("event"), str(event.get("zone"))
            if kind == "scored":
                words.bases[zone] = str(event.get("card"))
            elif kind in ("base-entered", "base-removed"):
                words.bases.pop(zone, None)
    return found


def _withdrawn(lapsed: list[Mapping[str, Any]]) -> str:
    prompts = sum(1 for e in lapsed if "prompt" in e)
    deals = len(lapsed) - prompts
    parts = [f"{prompts} question{'s' if prompts != 1 else ''}"] if prompts else []
    parts += [f"{deals} treasure deal{'s' if deals != 1 else ''}"] if deals else []
    why = {e.get("why") for e in lapsed}
    reason = "the game is over" if "game-over" in why else "their moment passed"
    return f"No longer asked ({reason}): {' and '.join(parts)}"
