"""What a viewer may see: face-down cards are counted, never identified.

The state document keeps the truth (the tape and the store need it, and `companion replay
--json` prints it); what the dashboard serves to anyone on the LAN leaves out the tags of
buried cards, wherever they would appear (the base's list, a prompt's option lines). A tag
seen face up earlier must not name a card once it is face down.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any


def buried_tags(document: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(
        entry["tag"]
        for base in document.get("bases") or []
        for entry in base.get("buried") or []
        if entry.get("tag")
    )


def public_view(document: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """``document`` as anyone may see it: buried cards as their controllers' counts only."""
    if document is None:
        return None
    hidden = buried_tags(document)
    if not hidden:
        return dict(document)
    seen: dict[str, Any] = copy.deepcopy(dict(document))
    for base in seen.get("bases") or []:
        base["buried"] = [{"tag": None, "controller": b["controller"]} for b in base["buried"]]
    for prompt in seen.get("prompts") or []:
        for option in prompt.get("options") or []:
            line = option.get("line") or {}
            if line.get("tag") in hidden:
                option["line"] = {**line, "tag": None}  # answered by its index, not its line
        if prompt.get("tag") in hidden:
            prompt["tag"] = None
    return seen
