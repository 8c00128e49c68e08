"""companion.tape.shapes: a JSON value held to a TypedDict, with the words a view answers with,
and the same TypedDict as an OpenAPI 3.0 schema."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Annotated, Literal, NotRequired, TypedDict

import pytest

from companion.tape.shapes import Field, ShapeError, check, check_query, query_parameters, schema


class Seat(TypedDict):
    name: str
    colour: Annotated[str, Field(what="a colour like #1f77b4", pattern="#[0-9a-f]{6}")]


class Body(TypedDict):
    """A body to check."""

    count: Annotated[int, Field(minimum=1, maximum=4)]
    kind: NotRequired[Literal["a", "b"] | None]
    seats: NotRequired[Annotated[list[Seat], Field(item="player {n}", min_items=1)]]
    scores: NotRequired[Annotated[dict[str, int], Field(each="the score of {key!r} is a number")]]
    ratio: NotRequired[float]
    note: NotRequired[Annotated[str, Field(wrong="a note is words, not {value!r}")]]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({}, '"count" is missing: send a whole number'),
        ({"count": "2"}, '"count" must be a whole number'),
        ({"count": True}, '"count" must be a whole number'),  # a bool is not a number
        ({"count": 5}, '"count" must be a whole number'),  # out of bounds
        ({"count": None}, '"count" must be a whole number'),
        ({"count": 1, "kind": "c"}, '"kind" must be "a" or "b"'),
        ({"count": 1, "seats": []}, '"seats" must be a list'),
        ({"count": 1, "seats": [3]}, '"player 1" must be an object'),
        ({"count": 1, "seats": [{"colour": "#000000"}]}, '"name" is missing: send a string'),
        ({"count": 1, "seats": [{"name": "A", "colour": "red"}]}, '"colour" must be a colour'),
        ({"count": 1, "scores": {"Ann": 1.5}}, "the score of 'Ann' is a number"),
        ({"count": 1, "ratio": "x"}, '"ratio" must be a number'),
        ({"count": 1, "note": 7}, "a note is words, not 7"),
    ],
)
def test_the_first_wrong_field_is_named(value: object, message: str) -> None:
    with pytest.raises(ShapeError) as raised:
        check(value, Body)
    assert str(raised.value).startswith(message)


def test_a_good_value_is_returned_as_it_is() -> None:
    value = {"count": 2, "kind": None, "seats": [{"name": "A", "colour": "#00ff00"}], "ratio": 1}
    assert check({**value, "extra": [1]}, Body) == {**value, "extra": [1]}


def test_the_schema_says_what_the_check_checks() -> None:
    described = schema(Body)
    assert described["required"] == ["count"] and described["description"] == "A body to check."
    properties = described["properties"]
    assert isinstance(properties, dict)
    assert properties["count"] == {"type": "integer", "minimum": 1, "maximum": 4}
    assert properties["kind"] == {"type": "string", "enum": ["a", "b"], "nullable": True}
    seats = properties["seats"]
    assert seats["type"] == "array" and seats["minItems"] == 1
    assert seats["items"]["required"] == ["name", "colour"]
    assert seats["items"]["properties"]["colour"]["pattern"] == "^(?:#[0-9a-f]{6})$"
    assert properties["scores"]["additionalProperties"] == {"type": "integer"}
    assert properties["ratio"] == {"type": "number"}


def test_an_object_with_nothing_required_lists_no_required() -> None:
    class Empty(TypedDict):
        pass

    assert schema(Empty) == {"type": "object", "properties": {}}


class Query(TypedDict):
    season: NotRequired[str]
    limit: NotRequired[
        Annotated[int, Field(minimum=1, maximum=9, wrong="?{key}= is 1 to 9, not {value!r}")]
    ]


def test_query_parameters_are_read_from_text_and_described() -> None:
    assert check_query({"limit": "3", "season": "Spring", "other": "x"}, Query) == {
        "limit": 3,
        "season": "Spring",
    }
    for wrong in ("three", "0", "10", ""):
        with pytest.raises(ShapeError, match=f"\\?limit= is 1 to 9, not '{wrong}'"):
            check_query({"limit": wrong}, Query)
    described = {p["name"]: p for p in query_parameters(Query)}
    assert described["limit"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 9}
    assert described["season"]["required"] is False


@dataclass(frozen=True)
class Reading:
    zone: str
    last: float | None
    state: Literal["ok", "failing"]


class Answer(TypedDict):
    readings: list[Reading]
    pending: None
    by_zone: dict[str, Reading | None]


def test_a_dataclass_is_described_and_checked_as_asdict_writes_it() -> None:
    described = schema(Reading)
    assert described == {
        "type": "object",
        "required": ["zone", "last", "state"],
        "properties": {
            "zone": {"type": "string"},
            "last": {"type": "number", "nullable": True},
            "state": {"type": "string", "enum": ["ok", "failing"]},
        },
    }  # no description: the signature dataclass gives an undocumented class is not one
    good = {"readings": [asdict(Reading("base-1", None, "ok"))], "pending": None, "by_zone": {}}
    assert check(good, Answer) == good
    with pytest.raises(ShapeError, match='"last" is missing'):
        check({**good, "readings": [{"zone": "base-1", "state": "ok"}]}, Answer)
    with pytest.raises(ShapeError, match='"state" must be "ok" or "failing"'):
        check({**good, "by_zone": {"base-1": {"zone": "z", "last": 1, "state": "x"}}}, Answer)


def test_a_key_that_is_always_null_is_a_nullable_enum_of_null() -> None:
    properties = schema(Answer)["properties"]
    assert isinstance(properties, dict)
    assert properties["pending"] == {"type": "string", "nullable": True, "enum": [None]}
    assert properties["by_zone"]["additionalProperties"]["nullable"] is True
    with pytest.raises(ShapeError, match='"pending" must be'):
        check({"readings": [], "pending": 0, "by_zone": {}}, Answer)
