"""The league API as OpenAPI 3.0. The summaries are written here; request bodies and answers
are described from the types the views check and build (:mod:`companion.league.bodies`), so
the document cannot promise what the code does not do. A test checks it names every API route,
and sends each body's example and its broken variants to the views."""

from __future__ import annotations

from typing import Any

from companion.league.bodies import (
    FactionsAnswer,
    GameAnswer,
    GamesAnswer,
    GamesQuery,
    Health,
    MergeBody,
    Merged,
    PlayerAnswer,
    PlayerQuery,
    PlayersAnswer,
    PushAnswer,
    PushBody,
    SeasonAnswer,
    SeasonBody,
    SeasonQuery,
    SeasonsAnswer,
    StandingsAnswer,
    TapeAnswer,
    VoidBody,
    Voided,
)
from companion.league.engine import OpenApiDocument, query_parameters, schema

ERROR = {"$ref": "#/components/responses/Error"}


def _obj(required: tuple[str, ...] = (), **fields: Any) -> dict[str, Any]:
    props = {k: {"type": v} if isinstance(v, str) else v for k, v in fields.items()}
    found: dict[str, Any] = {"type": "object", "properties": props}
    return found | ({"required": list(required)} if required else {})


def _op(
    summary: str,
    *,
    ok: str = "200",
    again: bool = False,
    result: dict[str, Any] | type | None = None,
    body: type | None = None,
    auth: str | None = None,
    errors: tuple[str, ...] = (),
    params: tuple[dict[str, object], ...] = (),
) -> dict[str, Any]:
    answer = schema(result) if isinstance(result, type) else result or {}
    op: dict[str, Any] = {
        "summary": summary,
        "responses": {
            ok: {"description": "OK", "content": {"application/json": {"schema": answer}}}
        },
    }
    if params:
        op["parameters"] = list(params)
    if body is not None:
        content = {"application/json": {"schema": schema(body)}}
        op["requestBody"] = {"required": True, "content": content}
        errors = ("400", *errors)
    if auth is not None:
        op["security"] = [{auth: []}]
        errors = (*errors, "401", "403") if auth == "organiser" else (*errors, "401")
    if again:  # the same request again answers the same shape with 200
        op["responses"]["200"] = op["responses"][ok]
    for code in (*errors, "503"):
        op["responses"][code] = ERROR
    return op


def _path(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": what,
            "schema": {"type": "string"}}  # fmt: skip


def spec() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Table companion league", "version": "1"},
        "components": {
            "securitySchemes": {
                "table": {"type": "http", "scheme": "bearer", "description": "a table key"},
                "organiser": {"type": "http", "scheme": "bearer", "description": "organiser"},
            },
            "responses": {
                "Error": {
                    "description": 'What is wrong and what to do: {"error": "..."}',
                    "content": {"application/json": {"schema": _obj(("error",), error="string")}},
                }
            },
        },
        "paths": {
            "/api/v1/openapi.json": {"get": _op("This document", result=OpenApiDocument)},
            "/api/v1/health": {"get": _op("The server and its database are up", result=Health)},
            **_game_paths(),
            **_season_paths(),
            **_player_paths(),
        },
    }


def _game_paths() -> dict[str, Any]:
    uid = _path("uid", "the game's stable id")
    return {
        "/api/v1/games": {
            "post": _op(
                "A table ships a game: 201 stored (counted, disputed or void), 200 the same "
                "game again (its tape under another id too: duplicate_of names the stored "
                "game, which counts once), 409 another tape or claim under a stored id, 422 "
                "not a league game (not Smash Up, or a header the rules engine refuses)",
                ok="201",
                again=True,
                body=PushBody,
                result=PushAnswer,
                auth="table",
                errors=("409", "413", "422"),
            ),
            "get": _op(
                "A season's games, newest first",
                result=GamesAnswer,
                params=tuple(query_parameters(GamesQuery)),
                errors=("400", "404"),
            ),
        },
        "/api/v1/games/{uid}": {
            "get": _op(
                "One game, its seats and rating changes",
                result=GameAnswer,
                params=(uid,),
                errors=("404",),
            )
        },
        "/api/v1/games/{uid}/tape": {
            "get": _op(
                "The game's tape as received", result=TapeAnswer, params=(uid,), errors=("404",)
            )
        },
        "/api/v1/games/{uid}/void": {
            "post": _op(
                "The organiser voids a game: it stops counting, ratings are recomputed",
                body=VoidBody,
                result=Voided,
                params=(uid,),
                auth="organiser",
                errors=("404",),
            )
        },
    }


def _season_paths() -> dict[str, Any]:
    return {
        "/api/v1/standings": {
            "get": _op(
                "Standings: games, wins (shared ones too), VP and rating",
                result=StandingsAnswer,
                params=tuple(query_parameters(SeasonQuery)),
                errors=("404",),
            )
        },
        "/api/v1/factions": {
            "get": _op(
                "Win rates per faction and faction pair with 95% Wilson intervals",
                result=FactionsAnswer,
                params=tuple(query_parameters(SeasonQuery)),
                errors=("404",),
            )
        },
        "/api/v1/seasons": {
            "get": _op("The seasons, oldest first, and the current one", result=SeasonsAnswer),
            "post": _op(
                "The organiser starts a new season (games go there from now on)",
                ok="201",
                body=SeasonBody,
                result=SeasonAnswer,
                auth="organiser",
                errors=("409",),
            ),
        },
    }


def _player_paths() -> dict[str, Any]:
    return {
        "/api/v1/players": {
            "get": _op(
                "League player names (tables offer them at setup)",
                result=PlayersAnswer,
            )
        },
        "/api/v1/players/{name}": {
            "get": _op(
                "A player's games, newest first, with the rating after each",
                result=PlayerAnswer,
                params=(_path("name", "a player's name"), *query_parameters(PlayerQuery)),
                errors=("400", "404"),
            )
        },
        "/api/v1/players/merge": {
            "post": _op(
                "The organiser merges two spellings of one player ('from' becomes 'into')",
                body=MergeBody,
                result=Merged,
                auth="organiser",
                errors=("404", "409"),
            )
        },
    }
