"""The tape contract's data as types (``companion/tape/CONTRACT.md``): tape lines, the events the
trackers derive from them, prompts, and the state document of ``companion replay --json``.

These are the shapes outside tools rely on, so they are written down once, here, and mypy
checks every place that builds or reads them. Keys are added, never changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, cast

from companion.tape.cthulhu_documents import (
    AdjustmentDocument,
    ItemAttachmentDocument,
    LootingDocument,
    PartDocument,
    RollDocument,
)
from companion.tape.events import Event as Event

JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"
"""Any JSON value (what a tape line's field holds before a handler checks it)."""


# Tape lines: a tap (``tap``, ``zone``) or a tablet input (``input`` and its fields). Lines come
# from outside, so handlers check each field they use (:func:`companion.tracker.common.need`);
# the types below are what the contract promises and what our own code writes.
Line = TypedDict(
    "Line",
    {
        # a uid in a tape; to a viewer (the dashboard without a token,
        # :mod:`companion.tracker.public`) an opaque handle, or null for a card lying face
        # down: in an option's line of a prompt. Every key below that holds a uid likewise.
        "tap": str | None,
        "zone": str,
        "at": float,
        "input": str,
        "prompt": int,
        "option": int,
        "tag": str | None,
        "tags": list[str | None],
        "card": str,
        # ``null``: nobody (a monster released by ``control``, a card nobody owns)
        "owner": str | None,
        "player": str | None,
        "delta": int,
        "count": int,
        "target": str | None,
        "effect": int,
        # a string in the contract's first types; ``declare`` documents true/false: both accepted
        "on": str | bool,
        "from": str,
        "to": str,
        "side": str,
        "challenger": str,
        "challenged": str,
        "madness": bool,
        "all": bool,
        "deal": int,
        "roll": int,
        "zones": list[str],
        "rebind": bool,
        "until": str,
        "label": str,
    },
    total=False,
)


class OptionDocument(TypedDict):
    label: str
    line: Line


class MomentDocument(TypedDict):
    """What a prompt belongs to: the turn it was asked in, the tag of the card in play it is
    about, the tag of the base it concerns (all ``None``: it waits until answered)."""

    turn: int | None
    card: str | None
    base: str | None


class PromptDocument(TypedDict):
    id: int
    kind: str
    message: str
    tag: str | None
    zone: str | None
    options: list[OptionDocument]
    left: int | None
    moment: MomentDocument


class Placing(TypedDict):
    player: str
    power: int
    place: int
    vp: int


class Treasures(TypedDict):
    count: int
    order: list[str]


class ScoringDocument(TypedDict):
    zone: str
    card: str
    ranking: list[Placing]
    treasures: Treasures


class Preview(TypedDict):
    ranking: list[Placing]
    treasures: Treasures


class TreasureDrawDocument(TypedDict):
    player: str
    count: int
    card: str


class DealDocument(TypedDict):
    kind: Literal["draft", "draw"]
    card: str
    count: int
    order: list[str]
    taken: int
    next: str | None


class AttachedDocument(TypedDict):
    tag: str
    card: str
    controller: str | None
    #: +1 power counters on the action itself (Summon Wolves), only when it has some
    counters: NotRequired[int]


class MinionDocument(TypedDict):
    tag: str
    card: str
    controller: str | None
    power: int
    owner: str | None
    counters: int
    counted: bool
    actions: list[AttachedDocument]


class BuriedDocument(TypedDict):
    #: always a uid in the contract's document; null in a viewer's view of it (the dashboard
    #: without a token: a buried card has no handle, :mod:`companion.tracker.public`)
    tag: str | None
    controller: str


class BaseDocument(TypedDict):
    zone: str
    card: str
    tag: str | None
    printed_breakpoint: int
    breakpoint: int
    total: int
    ready: bool
    scoring: bool
    power: dict[str, int]
    minions: list[MinionDocument]
    monsters: list[MinionDocument]
    actions: list[AttachedDocument]
    buried: list[BuriedDocument]
    buried_count: dict[str, int]
    monsters_to_place: int
    preview: Preview


class PlayerDocument(TypedDict):
    name: str
    vp: int
    madness: int
    final_vp: int
    buried_madness: int


class PendingDocument(TypedDict):
    tag: str
    card: str
    zone: str


class BuryNextDocument(TypedDict):
    zone: str
    player: str
    left: int


class BuryingDocument(TypedDict):
    start_uncover: bool
    uncovers: dict[str, int]
    bury_next: BuryNextDocument | None


class DuelingCard(TypedDict):
    tag: str
    card: str


class DuelSide(TypedDict):
    side: str
    tag: str
    card: str | None
    controller: str | None
    power: int | None
    dueling_card: DuelingCard | None


class DuelDocument(TypedDict):
    zone: str
    card: str | None
    player: str | None
    status: str
    challenger: DuelSide
    challenged: DuelSide
    winners: list[str]
    winner: str | None
    tie: bool


class StateDocument(TypedDict):
    """Smash Up's state document: the contract's keys and the additions listed in the
    README's "Tapes" section."""

    game: Literal["smashup"]
    version: int
    turn: int
    current_player: str
    players: list[PlayerDocument]
    bases: list[BaseDocument]
    scorings: list[ScoringDocument]
    treasure_draws: list[TreasureDrawDocument]
    deals: list[DealDocument]
    winner: str | None
    winners: list[str]
    prompts: list[PromptDocument]
    pending: PendingDocument | None
    burying: BuryingDocument
    duel: DuelDocument | None
    #: conditions a person switched on with ``declare``: ``{"tag", "effect"}`` each
    declared: list[DeclaredDocument]


class DeclaredDocument(TypedDict):
    tag: str
    effect: int


class HeldDocument(TypedDict):
    tag: str
    card: str


class ItemDocument(TypedDict):
    tag: str
    card: str
    bonus: int | None  #: null: the card's bonus is unconfirmed
    in_use: bool
    why_not: str | None


class CthulhuPlayerDocument(TypedDict):
    name: str
    level: int
    sex: str | None
    classes: list[str]
    items: list[ItemDocument]
    gear: int
    class_bonus: int
    kept: list[HeldDocument]
    strength: int
    #: the strength's parts; cards kept in front, on items, and curses for the next fight
    parts: list[PartDocument]
    boons: list[HeldDocument]
    attached: list[ItemAttachmentDocument]
    penalties: list[HeldDocument]
    bans: list[str]  #: "no-helping", "no-asking": Bad Stuff until the next Level


class OneShotDocument(TypedDict):
    tag: str
    card: str
    bonus: int | None


class FoeDocument(TypedDict):
    tag: str
    card: str
    level: int | None  #: null: unconfirmed card facts
    strength: int
    enhancers: list[HeldDocument]
    treasures: int | None
    levels_gained: int | None
    not_computed: list[str]
    one_shots: list[HeldDocument]
    wandering: bool
    parts: list[PartDocument]


class CombatDocument(TypedDict):
    fighter: str
    helper: str | None
    monsters: list[FoeDocument]
    one_shots: list[OneShotDocument]
    players_strength: int
    monsters_strength: int
    winning: bool
    margin: int
    players_side: list[PartDocument]
    monsters_side: list[PartDocument]
    effects: list[HeldDocument]
    adjustments: list[AdjustmentDocument]
    arrived: list[str]
    run_bonus: int


class LastCombatDocument(TypedDict):
    won: bool
    levels: int
    treasures: int
    fighter: str
    helper: str | None


class BadStuffDocument(TypedDict):
    card: str
    text: str


class RunningDocument(TypedDict):
    players: list[str]
    needs: dict[str, int]
    #: what each monster does to whoever it catches (its card's text, resolved by hand)
    bad_stuff: list[BadStuffDocument]
    #: every roll still to make, one per runner and monster
    rolls: list[RollDocument]


class CthulhuDocument(TypedDict):
    """Munchkin Cthulhu's state document."""

    game: Literal["munchkin-cthulhu"]
    version: int
    turn: int
    current_player: str
    players: list[CthulhuPlayerDocument]
    combat: CombatDocument | None
    last_combat: LastCombatDocument | None
    running: RunningDocument | None
    winner: str | None
    winners: list[str]
    prompts: list[PromptDocument]
    pending: None
    cultist_pile: list[HeldDocument]
    looting: LootingDocument | None


Document: TypeAlias = StateDocument | CthulhuDocument
"""The state document of either game (``game`` tells which, and narrows the type)."""


def as_line(value: Mapping[str, Any]) -> Line:
    """A JSON object read from a tape, a request or the store, taken as a tape line: the edge
    where outside data enters. Handlers still check every field they use."""
    return cast(Line, value)
