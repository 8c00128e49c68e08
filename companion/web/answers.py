"""What the dashboard's GET requests answer, declared once as types: the views build their
answers as them (mypy checks) and :mod:`companion.web.openapi` describes them from the same
types (:func:`companion.tape.shapes.schema`); ``tests/test_openapi_answers.py`` fetches every
answer from a real server and holds it to the document, key by key.

The state documents are the tape contract's (:mod:`companion.tape.documents`), and the
readers' and the store's health are the dataclasses the table reports them with: reused, never
copied. Only what the web adds around them is declared here. (What the POST requests answer is
in :mod:`companion.web.bodies`, beside their bodies.)
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from companion.hardware.readers.base import HealthSnapshot
from companion.table.supervision import StoreHealthSnapshot
from companion.tape.documents import Document, Line, ScoringDocument

# /api/state (and the data of every event of /api/events)


class RecentEvent(TypedDict):
    """An event in words: ``seq`` is the version its line made (its place in the log)."""

    seq: int
    event: str
    text: str


class RedoAnswer(TypedDict):
    """Right after an undo: the line Redo submits again, and what it does in words."""

    line: Line
    text: str


class StoreHealth(TypedDict):
    store: StoreHealthSnapshot


class PairingNotice(TypedDict):
    """What the page says about pairing: whether a tablet asks (``asking``: what to do), what
    the last press of End turn did while one did (``said``); ``serial`` counts changes."""

    waiting: bool
    asking: str | None
    said: str | None
    serial: int
    hold_seconds: float


class StateAnswer(TypedDict):
    """The table now. ``state``: the state document of the tape contract (null with no game);
    without a token, the public view: no tag uid anywhere (a card in play has an opaque
    handle for the game, a buried card null)."""

    version: int
    state: Document | None
    playing: bool
    simulated: bool
    demo: bool
    colours: dict[str, str]
    game_id: int | None
    zones: list[str]
    #: the last events in words, newest first (undone ones left out)
    recent: list[RecentEvent]
    #: what Undo would take back, in words (null: nothing)
    undo: str | None
    redo: RedoAnswer | None
    #: with no game in progress: to start one
    message: NotRequired[str]
    health: StoreHealth
    pairing: PairingNotice


class HealthEvent(TypedDict):
    """The data of the event stream's ``health`` event: the store's health or the pairing
    notice changed between two versions (no ``id``: a reconnecting client names a version)."""

    game_id: int | None
    version: int
    health: StoreHealth
    pairing: PairingNotice


# /api/readers


class TapTimes(TypedDict):
    """When one tap passed each stage (seconds on the table's monotonic clock); ``uid`` only
    to a holder of a token."""

    zone: str
    uid: str | None
    activated: float | None
    read: float
    tap: float
    stored: float


class ReadersAnswer(TypedDict):
    readers: list[HealthSnapshot]
    store: StoreHealthSnapshot
    taps: list[TapTimes]


# /api/cards and /api/factions


class CardSummary(TypedDict):
    """A Smash Up card."""

    id: str
    name: str
    type: str
    faction: str | None
    power: int | None
    copies: int
    set: str
    breakpoint: int | None
    #: a base's VP for 1st, 2nd and 3rd place (null: unconfirmed)
    vp: list[int | None] | None
    treasures: int | None
    text: str | None


class CthulhuCardSummary(TypedDict):
    """A Munchkin Cthulhu card (``set`` is ``munchkin-cthulhu``)."""

    id: str
    name: str
    type: str
    faction: None
    power: None
    copies: int | None
    set: str
    level: int | None
    bonus: int | None
    gold: int | None
    slot: str | None
    treasures: int | None
    text: str | None


class CardsAnswer(TypedDict):
    cards: list[CardSummary | CthulhuCardSummary]


class Printings(TypedDict):
    name: str
    #: the first is the default
    printings: list[str]


class FactionSummary(TypedDict):
    id: str
    name: str
    set: str
    set_name: str
    bases: list[str]


class FactionsAnswer(TypedDict):
    #: the sets printed more than once, by set id
    printings: dict[str, Printings]
    factions: list[FactionSummary]


# /api/games, /api/games/{game_id}, /api/stats


class GameSummary(TypedDict):
    id: int
    game: str
    players: list[str]
    #: each player's factions (Smash Up)
    factions: dict[str, list[str]]
    started: float
    ended: float | None
    winner: str | None
    winners: list[str]
    #: the game the table is playing now
    current: bool
    #: ended unfinished when another game started, and by whom
    void: bool
    void_by: str | None


class GamesAnswer(TypedDict):
    games: list[GameSummary]


class ScoredAt(ScoringDocument):
    """A base scored, and the log entry that awarded it."""

    seq: int


class VpAt(TypedDict):
    """The score after log entry ``seq`` (0: the start): VP in Smash Up, Levels in Munchkin
    Cthulhu, by seat."""

    seq: int
    at: float | None
    recorded: float | None
    turn: int
    vp: list[int]


class GameAnswer(TypedDict):
    game: GameSummary
    players: list[str]
    colours: dict[str, str]
    scorings: list[ScoredAt]
    vp_over_time: list[VpAt]
    #: why the replay stopped early (a log entry that no longer applies), if it did
    error: str | None


class PairStats(TypedDict):
    factions: list[str]
    games: int
    #: a shared win counts as a share
    wins: float
    win_rate: float


class StatsAnswer(TypedDict):
    faction_pairs: list[PairStats]


class Share(TypedDict):
    card: str
    name: str
    amount: int


class PowerAnswer(TypedDict):
    """The parts of a minion's power; ``tag`` as asked (a handle without a token)."""

    tag: str
    card: str
    name: str
    printed: int
    counters: int
    reasons: list[Share]
    power: int


# /api/league


#: how many games the outbox holds in each state ("too-large" is no identifier)
Outbox = TypedDict("Outbox", {"pending": int, "sent": int, "refused": int, "too-large": int})


class RefusedGame(TypedDict):
    game: str
    error: str | None


class LeagueAnswer(TypedDict):
    """Shipping on or off, the outbox, and the league's player names cached for setup."""

    league: bool
    players: list[str]
    #: when the league's player names were fetched (null: never)
    fetched: float | None
    outbox: Outbox
    #: the last games the league refused (or too large to send), with its reasons
    refused: list[RefusedGame]


# /api/bindings/{uid}, /api/enrol


class TagAnswer(TypedDict):
    """What a tag is: its stored binding, else the running game's."""

    uid: str
    bound: bool
    text: str
    card: NotRequired[str]
    name: NotRequired[str]
    type: NotRequired[str | None]
    faction: NotRequired[str | None]
    owner: NotRequired[str | None]
    bound_at: NotRequired[float | None]
    stored: NotRequired[bool]
    in_game: NotRequired[bool]


class EnrolmentAnswer(TypedDict):
    active: bool
    zone: str | None
    messages: list[str]


# /api/sim/cards, /api/demo


class SimCard(TypedDict):
    """A tag of the running game and where it lies; a face-down card has no uid, card, type
    or owner."""

    uid: str | None
    card: str | None
    name: str
    type: str | None
    owner: str | None
    zone: str | None
    in_play: bool
    face_down: NotRequired[bool]


class SimCardsAnswer(TypedDict):
    cards: list[SimCard]


class DemoStatus(TypedDict):
    paused: bool
    playing: bool
    steps: int
    finished: bool


# /api/pairing


class PairingStatus(TypedDict):
    button: bool
    waiting: bool
    seconds: int
    hold_seconds: float
    #: whether the token this request carries still controls the table
    controls: bool
    #: why this table cannot pair, if it cannot
    message: str | None
