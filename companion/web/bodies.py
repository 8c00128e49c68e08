"""Every request body the dashboard's API reads, and what those requests answer, declared once:
the views check bodies against these types (:func:`companion.web.body.read`) and build their
answers as them (mypy checks), and :mod:`companion.web.openapi` describes both from the same
types (:func:`companion.tape.shapes.schema`).

``what`` is how a message names the value ("a card id"); ``example`` is a body a table with a
game accepts (the tests send it). Checks that need the table (a known card, a zone with a
reader, a free faction) stay in the views, with their own messages.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from companion.tape.documents import Event
from companion.tape.shapes import Field

UID = Field(what="a tag uid in hex", example="04A1B2C3D4E5F6")
PLAYER = Field(what="a player name", example="Ann")
COLOUR = Field(what="a colour like #1f77b4", example="#1f77b4")
PRINTINGS = '"printings" maps set ids to a printing, e.g. {{"munchkin": "current"}}'


class NoBody(TypedDict):
    """Nothing to read: an empty body, or a JSON object (every write is JSON, never a form)."""


class InputBody(TypedDict):
    """One tape line, applied only if the table is still at the version the tablet showed."""

    line: Annotated[
        dict[str, object], Field(what="the tape line as an object", example={"input": "end-turn"})
    ]
    version: Annotated[int, Field(what="the state version the tablet showed", example=0)]


class GameChoice(TypedDict):
    """Which game a new game is (read first: the players' entries depend on it)."""

    game: NotRequired[
        Annotated[
            Literal["smashup", "munchkin-cthulhu"] | None,
            Field(wrong='"game" is "smashup" or "munchkin-cthulhu", not {value!r}'),
        ]
    ]


class SmashUpSeat(TypedDict):
    """A Smash Up player: a name of their own, two factions from /api/factions, a colour."""

    name: Annotated[str, Field(example="Ann")]
    factions: Annotated[
        list[str], Field(what="two faction ids", example=["munchkin/orcs", "core/robots"])
    ]
    colour: Annotated[str, COLOUR]
    #: plays without a league name (the league does not rate them)
    guest: NotRequired[bool]


class CthulhuSeat(TypedDict):
    """A Munchkin Cthulhu player: a name of their own, a colour, and their sex."""

    name: Annotated[str, Field(example="Margot")]
    colour: Annotated[str, COLOUR]
    sex: Annotated[str, Field(what='"female" or "male" (some monsters care)', example="female")]


EXAMPLE_SEATS = [
    {"name": "Ann", "colour": "#1f77b4", "factions": ["munchkin/orcs", "core/robots"]},
    {"name": "Ben", "colour": "#ff7f0e", "factions": ["core/wizards", "oops/cowboys"]},
]


class NewSmashUpGame(GameChoice):
    """A new Smash Up game: 2 to 4 players in seat order."""

    players: Annotated[
        list[Annotated[SmashUpSeat, Field(what='an object {"name", "colour", "factions"}')]],
        Field(what="a list", item="player {n}", example=EXAMPLE_SEATS),
    ]
    #: how many bases are in play (2 to 5); by default one per base reader
    zones: NotRequired[Annotated[int | None, Field(example=2)]]
    #: the printing each set is played in; errata by default
    printings: NotRequired[
        Annotated[
            dict[str, str] | None,
            Field(wrong=PRINTINGS, each=PRINTINGS, example={"munchkin": "current"}),
        ]
    ]
    #: while a game is unfinished: its id, to end it (void) and start this one
    replace: NotRequired[Annotated[int | None, Field(example=1)]]


class NewCthulhuGame(GameChoice):
    """A new Munchkin Cthulhu game: 3 to 6 players in seat order."""

    players: Annotated[
        list[Annotated[CthulhuSeat, Field(what='an object {"name", "colour", "sex"}')]],
        Field(what="a list", item="player {n}"),
    ]
    replace: NotRequired[int | None]


class BindingBody(TypedDict):
    """A tag bound to a card (refused if it is bound to another, unless ``rebind``)."""

    uid: Annotated[str, UID]
    card: Annotated[str, Field(what="a card id", example="munchkin/treehouse")]
    owner: NotRequired[Annotated[str | None, PLAYER]]
    rebind: NotRequired[Annotated[bool | None, Field(example=True)]]


class EnrolStart(TypedDict):
    """Taps at ``zone`` bind ``faction``'s cards in printed order."""

    zone: Annotated[str, Field(what="a zone name", example="base-1")]
    faction: Annotated[str, Field(what="a faction id", example="munchkin/orcs")]
    owner: NotRequired[Annotated[str | None, PLAYER]]


class SimPlace(TypedDict):
    """The card put on a simulated zone."""

    uid: Annotated[str, UID]


class SimLift(TypedDict):
    """Lift the card on a simulated zone (with ``uid``: only if that card is still there)."""

    uid: NotRequired[Annotated[str | None, UID]]


class PairingBody(TypedDict):
    """The pairing id the request to pair gave."""

    pairing: Annotated[str, Field(what="the pairing id the request to pair gave", example="p-1")]


# What those requests answer (mypy holds each view's answer to its type; the document
# describes the same types).


class InputAnswer(TypedDict):
    """The line applied: the table's new version and the events it made."""

    version: int
    events: list[Event]


class GameStarted(TypedDict):
    game_id: int
    #: the bases of the sets in play (the rulebook's base deck; none in Munchkin Cthulhu)
    base_deck: list[str]
    zones: list[str]


class BindingAnswer(TypedDict):
    uid: str
    card: str
    owner: str | None
    #: when it was bound (seconds since the epoch)
    bound_at: float
    #: the table's version after the running game learnt the binding
    version: int


class EnrolStarted(TypedDict):
    zone: str
    faction: str
    owner: str | None
    #: the card the next tap binds
    next: str


class EnrolStopped(TypedDict):
    active: bool
    messages: list[str]


class SimPlaced(TypedDict):
    zone: str
    uid: str
    #: the card the tag's record names, if any
    card: str | None


class SimLifted(TypedDict):
    zone: str
    #: the tag lifted (``null``: nothing lay there, or another card than ``uid``)
    lifted: str | None


class PairingAsked(TypedDict):
    """A pairing window is open for this tablet: press the End-turn button within it."""

    pairing: str
    code: list[int]
    seconds: int
    message: str


class PairingState(TypedDict):
    """Where a request to pair stands: ``waiting`` (``seconds_left``), ``granted`` (the
    tablet's ``token``, given once), ``expired`` (``message``) or ``cancelled``."""

    state: Literal["waiting", "granted", "expired", "cancelled"]
    seconds_left: NotRequired[int]
    token: NotRequired[str]
    message: NotRequired[str]


# Query parameters (text; an empty one counts as left out).


class CardsQuery(TypedDict):
    """Which cards: by set, faction (id or name) and type; all of them without any."""

    set: NotRequired[Annotated[str, Field(description="a set id; munchkin-cthulhu: its cards")]]
    faction: NotRequired[Annotated[str, Field(description="a faction id or name")]]
    type: NotRequired[Annotated[str, Field(description="base, minion, action, monster, ...")]]


class EventsQuery(TypedDict):
    """For EventSource, which sends no headers of ours."""

    last: NotRequired[Annotated[str, Field(description="as Last-Event-ID: the last version seen")]]
    token: NotRequired[
        Annotated[str, Field(description="a controlling tablet's token, as X-Companion-Token")]
    ]
