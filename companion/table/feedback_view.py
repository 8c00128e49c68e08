"""What the table's lights and buzzer are told of the game: a :class:`FeedbackView` built from
the state document here, in the table, so that hardware never reads a document's keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.hardware.feedback import FeedbackView


def feedback_view(document: Mapping[str, Any] | None) -> FeedbackView:
    """The zones ready to score and waiting on a prompt, and whether the game is won, of a
    state document (Smash Up's or Munchkin Cthulhu's; ``None``: no game, nothing lit)."""
    if document is None:
        return FeedbackView()
    ready = {base.get("zone") for base in document.get("bases", ()) if base.get("ready")}
    waiting = {prompt.get("zone") for prompt in document.get("prompts", ())}
    return FeedbackView(
        ready=frozenset(zone for zone in ready if isinstance(zone, str)),
        waiting=frozenset(zone for zone in waiting if isinstance(zone, str)),
        won=document.get("winner") is not None,
    )
