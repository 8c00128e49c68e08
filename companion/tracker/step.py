"""The reducer: one tape event line applied to a tracker state."""

from __future__ import annotations

from typing import Any

from companion.catalogue.cards import Catalogue
from companion.tracker.inputs import HANDLERS
from companion.tracker.lapse import sweep
from companion.tracker.state import Outcome, Rejected, TrackerState
from companion.tracker.taps import tap


def step(state: TrackerState, line: dict[str, Any], catalogue: Catalogue) -> Outcome:
    """Apply one event line (``undo`` is handled by :class:`~companion.tracker.Game`).

    Prompts and deals whose moment passed are then withdrawn (:mod:`.lapse`).

    :raises Rejected: for a line the tracker cannot accept; the state is unchanged.
    """
    return sweep(_dispatch(state, line, catalogue), catalogue)


def _dispatch(state: TrackerState, line: dict[str, Any], catalogue: Catalogue) -> Outcome:
    if "tap" in line:
        uid, zone = line.get("tap"), line.get("zone")
        if not isinstance(uid, str) or not uid or not isinstance(zone, str):
            raise Rejected('a tap needs "tap": the tag uid and "zone": where it was read')
        return tap(state, uid, zone, catalogue)
    kind = line.get("input")
    if not isinstance(kind, str):
        raise Rejected('each line needs "tap" (a read) or "input" (a tablet input)')
    handler = HANDLERS.get(kind)
    if handler is None:
        known = ", ".join(sorted([*HANDLERS, "undo"]))
        raise Rejected(f"unknown input {kind!r}; known inputs: {known}")
    return handler(state, line, catalogue)
