"""What the league's API reads and answers, declared once: the views check request bodies
against these types (:func:`companion.league.webio.read`), the queries build their answers as
them (mypy checks it), and :mod:`companion.league.openapi` describes both from the same types.

A field's ``wrong`` is the message the league has always answered with when it is missing or
wrong; checks that need the tape or the database (players in the header, a known game) stay
in :mod:`.payload` and the ledger.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from companion.league.engine import Field

GAME_ID = r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}"
NAMES = '"{key}" must be a list of player names from the tape\'s header'
GUEST = '"guests": {value!r} is not a player in the tape\'s header'
WINNER = '"claimed.winners": {value!r} is not a player in the tape\'s header'


class Claim(TypedDict):
    """What the table's tracker said: the winners and every player's final VP."""

    winners: Annotated[
        list[str],
        Field(
            wrong='"claimed.winners" must be a list of player names from the tape\'s header',
            each=WINNER,
            example=["Ann"],
        ),
    ]
    vp: Annotated[
        dict[str, int],
        Field(
            wrong='"claimed.vp" must give every player\'s final VP: {{name: VP}}',
            each='"claimed.vp" for {key!r} must be a whole number',
            example={"Ann": 15, "Ben": 11},
        ),
    ]


class PushBody(TypedDict):
    """A finished (or voided) game, shipped by its table."""

    id: Annotated[
        str,
        Field(
            wrong='"id" must be the game\'s stable id: 1 to 100 letters, digits, ".", "_", ":" '
            'or "-"',
            pattern=GAME_ID,
            example="kitchen-7f3c",
        ),
    ]
    status: NotRequired[
        Annotated[
            Literal["finished", "void"],
            Field(
                wrong='"status" is "finished" or "void", not {value!r}',
                description="finished by default",
            ),
        ]
    ]
    tape: Annotated[
        list[dict[str, object]],
        Field(
            wrong='"tape" must be the game\'s tape as a list of lines, header first',
            each="tape line {key} must be a JSON object",
            min_items=1,
            description="the tape (CONTRACT.md): its header, then every line",
        ),
    ]
    #: required for a finished game; a voided one may leave it out
    claimed: NotRequired[
        Annotated[
            Claim | None,
            Field(wrong='"claimed" must be {{"winners": [names], "vp": {{name: VP}}}}'),
        ]
    ]
    #: seats that play without a league name
    guests: NotRequired[Annotated[list[str], Field(wrong=NAMES, each=GUEST, example=[])]]
    #: the table's clock when the game ended, for the record only
    finished_at: NotRequired[
        Annotated[
            float | None,
            Field(
                wrong='"finished_at" is the table\'s clock in seconds (a number), or null',
                example=1718000000.0,
            ),
        ]
    ]


GameStatus = Literal["counted", "disputed", "void"]
"""How the league holds a game: counted, disputed (the replay disagreed) or void."""


class PushAnswer(TypedDict):
    """How a pushed game was stored (or that it was stored already)."""

    id: str
    status: GameStatus
    season: str
    duplicate: bool
    dispute: list[str]
    #: the game this tape is stored as already (it counts once)
    duplicate_of: NotRequired[str]
    message: NotRequired[str]


class VoidBody(TypedDict):
    """Why the organiser voids the game."""

    reason: NotRequired[
        Annotated[str, Field(what="why the game does not count", example="a misdeal")]
    ]


MergeBody = TypedDict(
    "MergeBody",
    {
        "from": Annotated[str, Field(what="the spelling that goes", example="anne")],
        "into": Annotated[str, Field(what="the name that stays", example="Ann")],
    },
)
"""Two spellings of one player: ``from`` becomes ``into``."""


class SeasonBody(TypedDict):
    """A new season, where games go from now on."""

    name: Annotated[str, Field(what="the season's name", example="Spring")]


class Rating(TypedDict):
    """Plackett-Luce skill: the ordinal (mu - 3 sigma) shown, and its parts."""

    ordinal: float
    mu: float
    sigma: float


class Standing(TypedDict):
    rank: int
    player: str
    games: int
    wins: int
    shared_wins: int
    vp: int
    vp_per_game: float
    rating: Rating


class WinRate(TypedDict):
    """A faction's (or a pair's) win rate with its 95% Wilson interval, beside the rate of an
    average seat (``expected``: 1 / players)."""

    factions: list[str]
    names: list[str]
    games: int
    wins: int
    win_rate: float
    interval: Annotated[list[float], Field(min_items=2, max_items=2)]
    expected: float


class FactionStats(TypedDict):
    factions: list[WinRate]
    pairs: list[WinRate]


class FactionsAnswer(FactionStats):
    season: str


class StandingsAnswer(TypedDict):
    season: str
    standings: list[Standing]


class LeaguePlayer(TypedDict):
    name: str
    games: int


class PlayersAnswer(TypedDict):
    players: list[LeaguePlayer]


# Query parameters (text on the wire: whole numbers are read from their digits).

ANY_NUMBER = "?{key}= is a whole number from {low} to {high}, not {{value!r}}"
SEASON = Field(description="a season's name (default: the current season)")


def _number(low: int, high: int, description: str) -> Field:
    wrong = ANY_NUMBER.format(key="{key}", low=low, high=high)
    return Field(wrong=wrong, minimum=low, maximum=high, description=description)


class SeasonQuery(TypedDict):
    season: NotRequired[Annotated[str, SEASON]]


class GamesQuery(SeasonQuery):
    limit: NotRequired[Annotated[int, _number(1, 200, "1 to 200 (default 20)")]]
    before: NotRequired[Annotated[int, _number(1, 2**62, "only games before this league order")]]


class PlayerQuery(TypedDict):
    limit: NotRequired[Annotated[int, _number(1, 1000, "1 to 1000 (default 100)")]]


class RatingChange(TypedDict):
    before: Rating
    after: Rating


class SeatAnswer(TypedDict):
    """A seat of a stored game: the name played under, the league player (``null``: a
    guest), factions, VP, place, and the rating change it brought."""

    name: str
    colour: str
    player: str | None
    guest: bool
    factions: list[str]
    faction_names: list[str]
    vp: int
    place: int
    won: bool
    rating: RatingChange | None


class TimelinePoint(TypedDict):
    """VP by seat after a change, ``at`` seconds into the game (``null``: the tape had no
    clock there)."""

    at: float | None
    vp: list[int]


class GameAnswer(TypedDict):
    """A stored game (``order``: the league's order of arrival, which ratings follow)."""

    id: str
    order: int
    season: str
    table: str
    status: GameStatus
    table_status: str
    dispute: list[str]
    void_reason: str | None
    winners: list[str]
    turns: int
    lines: int
    received: Annotated[str, Field(description="ISO 8601")]
    finished_at: float | None
    seats: list[SeatAnswer]
    #: VP after each change, from the start
    timeline: list[TimelinePoint]
    #: one game (``/games/{uid}``): what its table claimed
    claimed: NotRequired[object]


class GamesAnswer(TypedDict):
    season: str
    games: list[GameAnswer]


class HistoryEntry(TypedDict):
    id: str
    season: str
    status: GameStatus
    received: Annotated[str, Field(description="ISO 8601")]
    factions: list[str]
    faction_names: list[str]
    players: int
    vp: int
    place: int
    won: bool
    rating_after: Rating | None


class PlayerAnswer(TypedDict):
    """A player's latest games, newest first, under their name and its merged spellings."""

    player: str
    aliases: list[str]
    games: list[HistoryEntry]


class TapeAnswer(TypedDict):
    """The game's tape as received: its header, then every line."""

    tape: list[dict[str, object]]


class SeasonAnswer(TypedDict):
    name: str
    started: Annotated[str, Field(description="ISO 8601")]


class SeasonsAnswer(TypedDict):
    """The seasons, oldest first, and the current one."""

    seasons: list[SeasonAnswer]
    current: str | None


class Voided(TypedDict):
    id: str
    status: Literal["void"]
    #: its status before
    was: str


class Merged(TypedDict):
    merged: str
    into: str


class Health(TypedDict):
    ok: bool
    #: the last database migration applied
    schema: int
