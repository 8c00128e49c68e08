"""Prompts: what the tracker needs a person to decide, as data the tablet shows.

A prompt never blocks the game. Each option carries the event line that answering with it
applies (``{"input": "answer", "prompt": ID, "option": INDEX}`` picks one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.tape.documents import Line, OptionDocument, PromptDocument

PromptKind = Literal[
    "unknown-tag",
    "already-here",
    "base-occupied",
    "no-base",
    "needs-target",
    "unknown-owner",
    "not-in-play",
    "base-at-discard",
    "choose-target",
    "game-over",
    "wrong-zone",
    "crosstalk",
    "uncover",
    "bury",
    "destroy",
    "counters",
    "duel",
    "move",
    "choose-zone",
]


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    line: Line

    def to_json(self) -> OptionDocument:
        return {"label": self.label, "line": self.line}


@dataclass(frozen=True, slots=True)
class Prompt:
    """``message`` says what happened in words; ``options`` what a person can pick."""

    id: int
    kind: PromptKind
    message: str
    options: tuple[Option, ...]
    tag: str | None = None
    zone: str | None = None
    #: answers it takes before it closes (each answer applies one option, e.g. one counter
    #: placed); ``None``: any number, until someone picks Ignore
    left: int | None = 1

    def to_json(self) -> PromptDocument:
        return {
            "id": self.id,
            "kind": self.kind,
            "message": self.message,
            "tag": self.tag,
            "zone": self.zone,
            "options": [option.to_json() for option in self.options],
            "left": self.left,
        }


DISMISS: Line = {"input": "dismiss"}
