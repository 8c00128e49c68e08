"""This API as OpenAPI 3.0. The summaries are written here; every request body is described
from the type the view checks it with (:mod:`companion.web.bodies`), and every answer from the
type the view builds it as (:mod:`companion.web.answers`, and the POSTs' in ``bodies``), so
the document cannot promise what the code does not do. Built when it is asked for, never at
import. Tests check every ``/api`` rule is in it, send each body's example and its broken
variants to the views, and hold every answer a real server sends to it."""

from __future__ import annotations

from typing import Any

from companion.hardware.readers.base import HealthSnapshot
from companion.tape.shapes import OpenApiDocument, query_parameters, schema
from companion.web.answers import (
    CardsAnswer,
    DemoStatus,
    EnrolmentAnswer,
    FactionsAnswer,
    GameAnswer,
    GamesAnswer,
    HealthEvent,
    LeagueAnswer,
    PairingStatus,
    PowerAnswer,
    ReadersAnswer,
    SimCardsAnswer,
    StateAnswer,
    StatsAnswer,
    TagAnswer,
)
from companion.web.bodies import (
    BindingAnswer,
    BindingBody,
    CardsQuery,
    EnrolStart,
    EnrolStarted,
    EnrolStopped,
    EventsQuery,
    GameStarted,
    InputAnswer,
    InputBody,
    NewCthulhuGame,
    NewSmashUpGame,
    NoBody,
    PairingAsked,
    PairingBody,
    PairingState,
    SimLift,
    SimLifted,
    SimPlace,
    SimPlaced,
)

ERROR = {"$ref": "#/components/responses/Error"}
#: what an event stream sends, in words (OpenAPI 3.0 has no schema for a stream): each event's
#: data is described in ``components.schemas`` under the event's name (:data:`STREAM_EVENTS`)
STREAM_EVENTS: dict[str, type] = {"state": StateAnswer, "health": HealthEvent}
STREAM = {
    "type": "string",
    "description": "text/event-stream: id, event and data lines; the data of each event is "
    f"#/components/schemas/<event>Event ({', '.join(f'{e}Event' for e in STREAM_EVENTS)})",
}


def _op(
    summary: str,
    *,
    body: type | tuple[type, ...] | None = None,
    answer: type | None = None,
    ok: str = "200",
    errors: tuple[str, ...] = (),
    post: bool = False,
    params: tuple[str, ...] = (),
    query: type | None = None,
    content: str = "application/json",
) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary,
        "responses": {
            ok: {
                "description": "OK",
                "content": {content: {"schema": _answer(answer, content)}},
            }
        },
    }
    parameters = [
        {"name": p, "in": "path", "required": True, "schema": {"type": "string"}} for p in params
    ] + ([] if query is None else query_parameters(query))
    if parameters:
        op["parameters"] = parameters
    if post:
        op["security"] = [{"token": []}]
        errors = ("400", "401", *errors)
    if body is not None:
        options = body if isinstance(body, tuple) else (body,)
        described = [schema(option) for option in options]
        op["requestBody"] = {
            "required": body is not NoBody,  # nothing to read: an empty body will do
            "content": {
                "application/json": {
                    "schema": described[0] if len(described) == 1 else {"oneOf": described}
                }
            },
        }
    for code in errors:
        op["responses"][code] = ERROR
    return op


def _answer(answer: type | None, content: str) -> dict[str, Any]:
    """The answer's schema, from its type (a stream has none in OpenAPI 3.0: its words)."""
    if content == "text/event-stream":
        return STREAM
    if answer is None:
        raise TypeError("a JSON answer is described from its type: pass answer=")
    return schema(answer)


def _error() -> dict[str, Any]:
    return {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}


def spec() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Table companion", "version": "1"},
        "components": {
            "securitySchemes": {
                "token": {"type": "apiKey", "in": "header", "name": "X-Companion-Token"}
            },
            "schemas": {f"{name}Event": schema(kind) for name, kind in STREAM_EVENTS.items()},
            "responses": {
                "Error": {
                    "description": 'What is wrong and what to do: {"error": "..."}',
                    "content": {"application/json": {"schema": _error()}},
                }
            },
        },
        "paths": {
            **_table_paths(),
            **_game_paths(),
            **_enrol_paths(),
            **_sim_paths(),
            **_pairing_paths(),
        },
    }


def _table_paths() -> dict[str, Any]:
    """The live table: its state, event stream and inputs, readers, this document."""
    return {
        "/api/state": {
            "get": _op(
                "The version, state document, simulated flag, colours, the last events in "
                "words (undone ones left out), what Undo would take back and what Redo puts "
                'back; with no game in progress "playing" is false, "state" null and '
                '"message" says to start one. Without a token, the public view: no tag uid '
                "anywhere (a card in play has an opaque handle for the game, a buried card "
                "null)",
                answer=StateAnswer,
            )
        },
        "/api/events": {
            "get": _op(
                "Server-Sent Events: id <version>, event state, data as /api/state (the "
                "public view unless ?token= names a valid token); between versions, event "
                "health (no id) when the store's health or the pairing notice changes, data "
                "#/components/schemas/healthEvent; "
                "Last-Event-ID (or ?last=) older than now gets the state at once; "
                "': ping' every 15 s; 'retry: 1000' first (reconnect after 1 s)",
                query=EventsQuery,
                content="text/event-stream",
            )
        },
        "/api/input": {
            "post": _op(
                "Apply one tape line if the table is still at the version seen",
                body=InputBody,
                answer=InputAnswer,
                errors=("409", "503"),
                post=True,
            )
        },
        "/api/readers": {
            "get": _op(
                "Each reader's health, the store's, the last taps' stage times (a tap's uid "
                "only with a token)",
                answer=ReadersAnswer,
            )
        },
        "/api/readers/{zone}/reopen": {
            "post": _op(
                "Close and open a reader",
                params=("zone",),
                body=NoBody,
                answer=HealthSnapshot,
                errors=("404",),
                post=True,
            )
        },
        "/api/openapi.json": {"get": _op("This document", answer=OpenApiDocument)},
    }


def _game_paths() -> dict[str, Any]:
    """The catalogue, games and statistics."""
    return {
        "/api/cards": {
            "get": _op("Card summaries", query=CardsQuery, answer=CardsAnswer, errors=("400",))
        },
        "/api/factions": {
            "get": _op(
                "Factions with their sets and bases, and the printings each set offers",
                answer=FactionsAnswer,
            )
        },
        "/api/games": {
            "get": _op("Past and current games, newest first", answer=GamesAnswer),
            "post": _op(
                "Start a new game on this table: 2-4 players, two factions each; a player with "
                '"guest": true plays without a league name; "printings" chooses a printing '
                'per set ({"munchkin": "current"}; errata by default); while a game is '
                'unfinished, "replace": its id ends it (void), else 409 with "in_progress"',
                body=(NewSmashUpGame, NewCthulhuGame),
                answer=GameStarted,
                ok="201",
                post=True,
            ),
        },
        "/api/games/{game_id}": {
            "get": _op(
                "A game, its scorings, VP after each line",
                params=("game_id",),
                answer=GameAnswer,
                errors=("404",),
            )
        },
        "/api/stats": {
            "get": _op("Win rates of faction pairs over finished games", answer=StatsAnswer)
        },
        "/api/power/{tag}": {
            "get": _op(
                "Why a minion in play has its power: printed, counters, each effect's share",
                params=("tag",),
                answer=PowerAnswer,
                errors=("404",),
            )
        },
        "/api/league": {
            "get": _op(
                "The league: shipping on or off, the outbox (pending, sent, refused with the "
                "league's reasons, too-large: kept, never sent) and the league's player names "
                "cached for setup",
                answer=LeagueAnswer,
            )
        },
    }


def _enrol_paths() -> dict[str, Any]:
    """Tag bindings and bulk enrolment."""
    return {
        "/api/bindings": {
            "post": _op(
                "Bind a tag to a card (and in the running game)",
                body=BindingBody,
                answer=BindingAnswer,
                ok="201",
                errors=("409",),
                post=True,
            )
        },
        "/api/bindings/{uid}": {
            "get": _op(
                "What is this tag (with a token only)",
                params=("uid",),
                answer=TagAnswer,
                errors=("400", "401", "404"),
            )
        },
        "/api/enrol": {
            "get": _op("The bulk enrolment under way and its messages", answer=EnrolmentAnswer)
        },
        "/api/enrol/start": {
            "post": _op(
                "Taps at a zone bind a faction's cards in printed order",
                body=EnrolStart,
                answer=EnrolStarted,
                errors=("404",),
                post=True,
            )
        },
        "/api/enrol/stop": {
            "post": _op("Stop the bulk enrolment", body=NoBody, answer=EnrolStopped, post=True)
        },
    }


def _sim_paths() -> dict[str, Any]:
    """The virtual table and the self-playing demo (simulated tables only)."""
    return {
        "/api/sim/cards": {
            "get": _op(
                "The virtual table's cards (simulated tables)",
                answer=SimCardsAnswer,
                errors=("404",),
            )
        },
        "/api/sim/{zone}/place": {
            "post": _op(
                "Put a card on a simulated zone",
                params=("zone",),
                body=SimPlace,
                answer=SimPlaced,
                errors=("404",),
                post=True,
            )
        },
        "/api/sim/{zone}/lift": {
            "post": _op(
                "Lift the card on a simulated zone",
                params=("zone",),
                body=SimLift,
                answer=SimLifted,
                errors=("404",),
                post=True,
            )
        },
        "/api/demo": {"get": _op("The demo game's progress", answer=DemoStatus, errors=("404",))},
        "/api/demo/pause": {
            "post": _op(
                "Pause the demo game", body=NoBody, answer=DemoStatus, errors=("404",), post=True
            )
        },
        "/api/demo/resume": {
            "post": _op(
                "Resume the demo game", body=NoBody, answer=DemoStatus, errors=("404",), post=True
            )
        },
    }


def _pairing_paths() -> dict[str, Any]:
    """Pairing a tablet with the table's End-turn button (no token needed to ask)."""
    return {
        "/api/pairing": {
            "get": _op(
                "Whether this table pairs by its button, and whether a tablet waits",
                answer=PairingStatus,
            ),
            "post": _op(
                "Ask to control: opens a 60 s window; press the End-turn button within it",
                ok="201",
                body=NoBody,
                answer=PairingAsked,
                errors=("409", "429"),
            ),
        },
        "/api/pairing/claim": {
            "post": _op(
                "waiting (seconds_left), granted (this tablet's token, once) or expired",
                body=PairingBody,
                answer=PairingState,
                errors=("400", "404"),
            )
        },
        "/api/pairing/cancel": {
            "post": _op(
                "Give up asking: the window closes",
                body=PairingBody,
                answer=PairingState,
                errors=("400",),
            )
        },
    }
