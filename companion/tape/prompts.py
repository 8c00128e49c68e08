"""Prompts: what the tracker needs a person to decide, as data the tablet shows.

A prompt never blocks the game. Each option carries the event line that answering with it
applies (``{"input": "answer", "prompt": ID, "option": INDEX}`` picks one).

A prompt belongs to a moment (:class:`Moment`): the turn it was asked in, the card in play it
is about, the base it concerns. When that moment passes the tracker withdraws it and logs a
``lapsed`` event. A prompt about the physical truth (an unknown tag, where a card is) has no
moment and waits until answered; a finished game asks nothing at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from companion.tape.documents import Event, Line, MomentDocument, OptionDocument, PromptDocument

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
    "control",
    "choose-item",
    "choose-side",
    "not-allowed",
    "declare",
]


@dataclass(frozen=True, slots=True)
class Moment:
    """What a prompt belongs to; it lapses when any of these passes. All ``None``: it is
    about the physical truth and waits until answered (or the game ends)."""

    #: the turn it was asked in: it lapses when that turn ends
    turn: int | None = None
    #: the tag of the card in play it is about: it lapses when that card leaves play
    card: str | None = None
    #: the tag of the base it concerns: it lapses when that base scores or leaves play
    base: str | None = None

    @property
    def waits(self) -> bool:
        return self.turn is None and self.card is None and self.base is None

    def to_json(self) -> MomentDocument:
        return {"turn": self.turn, "card": self.card, "base": self.base}


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
    moment: Moment = Moment()

    def to_json(self) -> PromptDocument:
        return {
            "id": self.id,
            "kind": self.kind,
            "message": self.message,
            "tag": self.tag,
            "zone": self.zone,
            "options": [option.to_json() for option in self.options],
            "left": self.left,
            "moment": self.moment.to_json(),
        }


DISMISS: Line = {"input": "dismiss"}

#: prompts about what is physically on the table: they wait until someone answers
WAITING_KINDS: frozenset[PromptKind] = frozenset(
    {"unknown-tag", "crosstalk", "unknown-owner", "choose-zone"}
)

LapseReason = Literal["turn-ended", "card-left", "base-left", "game-over", "base-placed"]

#: each reason in words, for the ``lapsed`` event's text
LAPSE_WORDS: dict[LapseReason, str] = {
    "turn-ended": "the turn ended",
    "card-left": "the card left play",
    "base-left": "the base left play",
    "game-over": "the game is over",
    "base-placed": "a base is there now: tap the card again",
}


def lapse_reason(
    moment: Moment,
    *,
    turn: int,
    over: bool,
    in_play: Callable[[str], bool],
) -> LapseReason | None:
    """Why a prompt of ``moment`` no longer applies at turn ``turn`` (``in_play``: whether
    the card or base with that tag is still in play), or ``None`` while it still does."""
    if over:
        return "game-over"
    if moment.turn is not None and moment.turn != turn:
        return "turn-ended"
    if moment.base is not None and not in_play(moment.base):
        return "base-left"
    if moment.card is not None and not in_play(moment.card):
        return "card-left"
    return None


def withdraw_lapsed(
    prompts: tuple[Prompt, ...],
    *,
    turn: int,
    over: bool,
    in_play: Callable[[str], bool],
    has_base: Callable[[str], bool] = lambda zone: False,
) -> tuple[tuple[Prompt, ...], list[Event]]:
    """The prompts that still apply, and a ``lapsed`` event for each one that does not: its
    moment passed, or what it said is no longer true ("there is no base at" a zone that has
    one now, ``has_base``)."""
    kept: list[Prompt] = []
    lapsed: list[Event] = []
    for prompt in prompts:
        why = lapse_reason(prompt.moment, turn=turn, over=over, in_play=in_play)
        if why is None and prompt.kind == "no-base" and prompt.zone and has_base(prompt.zone):
            why = "base-placed"
        if why is None:
            kept.append(prompt)
            continue
        text = f"No longer asked ({LAPSE_WORDS[why]}): {prompt.message}"
        lapsed.append(
            {"event": "lapsed", "prompt": prompt.id, "kind": prompt.kind, "why": why, "text": text}
        )
    return tuple(kept), lapsed
