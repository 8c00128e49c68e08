"""JSON shapes declared once, as types: checked and described from that one declaration.

A request body, an answer or an event is a ``TypedDict``. :func:`check` holds a JSON value (as
:mod:`.strict` read it) to the type, naming the first field that is wrong in words a person can
act on; :func:`schema` writes the same type as an OpenAPI 3.0 schema object. Both read the type
hints (:func:`typing.get_type_hints`), so a document cannot promise what the code does not check.

Types understood: ``str``, ``int`` (never a bool), ``float`` (an int too), ``bool``, ``None``,
``object`` (any JSON value), ``Literal[...]`` of strings, ``list[T]``, ``dict[str, T]``, unions
and other ``TypedDict`` classes; a dataclass, as :func:`dataclasses.asdict` writes it (every
field present), where an answer is one. ``Annotated[T, Field(...)]`` adds what the value is
in words, bounds, a pattern, an example and the exact messages a view has always answered
with. ``null`` is accepted where the type says ``| None`` (``nullable`` in the document). Keys
the type does not name are kept (a client may send more than a view reads). Pure.
"""

from __future__ import annotations

import dataclasses
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import (
    Annotated,
    Literal,
    NotRequired,
    Required,
    TypedDict,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

T = TypeVar("T")

_NAMES: dict[object, str] = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "an object",
    object: "a JSON value",
}
_SCHEMA_TYPES: dict[object, str] = {
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


@dataclass(frozen=True, slots=True)
class Field:
    """What ``Annotated[T, Field(...)]`` says about a field beyond its type.

    ``what`` names the value in messages and in the document ("a card id"); ``wrong`` is the
    whole message for a missing or wrong value (``{value!r}`` and ``{key}`` are filled in);
    ``each`` the message for a wrong entry of a list or object (``{key}``: the entry's key or
    1-based index); ``item`` names a list's entries in messages ("player {n}").
    """

    what: str | None = None
    wrong: str | None = None
    each: str | None = None
    item: str | None = None
    pattern: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    example: object = None
    description: str | None = None


NO_FIELD = Field()


class ShapeError(ValueError):
    """A JSON value does not have the declared shape; the message says which field and why."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        #: the field that is wrong (its key, or how a list's entry is named)
        self.key = key


def check(value: object, shape: type[T]) -> T:
    """``value`` as the ``TypedDict`` ``shape``.

    :raises ShapeError: the first field (in the declaration's order) that is missing or wrong.
    """
    _check_object(value, shape, "the body", NO_FIELD)
    return cast(T, value)


@cache
def fields(shape: type) -> dict[str, tuple[object, Field, bool]]:
    """Each key of the ``TypedDict`` ``shape``: its type, its :class:`Field`, whether required.
    Read once per type (a request's body is checked against it on every request); treat the
    answer as read-only."""
    hints = get_type_hints(shape, include_extras=True)
    if dataclasses.is_dataclass(shape):  # its fields, never its ClassVars
        hints = {f.name: hints[f.name] for f in dataclasses.fields(shape)}
    found: dict[str, tuple[object, Field, bool]] = {}
    for key, hint in hints.items():
        kind, field = _unwrap(hint)
        found[key] = (kind, field, _required(shape, key, hint))
    return found


def _required(shape: type, key: str, hint: object) -> bool:
    """Whether ``key`` must be present. Read from the hint itself: under ``from __future__
    import annotations`` Python 3.11 cannot see ``NotRequired`` when it builds
    ``__required_keys__``."""
    marks = set()
    while get_origin(hint) in (Annotated, Required, NotRequired):
        marks.add(get_origin(hint))
        hint = get_args(hint)[0]
    if Required in marks or NotRequired in marks:
        return Required in marks
    if dataclasses.is_dataclass(shape):
        return True  # asdict writes every field
    return key in cast(frozenset[str], getattr(shape, "__required_keys__", frozenset()))


def _unwrap(hint: object) -> tuple[object, Field]:
    """A hint without ``Required``/``NotRequired``/``Annotated``, and its :class:`Field`."""
    field = NO_FIELD
    while True:
        origin = get_origin(hint)
        if origin in (Required, NotRequired):
            hint = get_args(hint)[0]
        elif origin is Annotated:
            hint, *extras = get_args(hint)
            field = next((e for e in extras if isinstance(e, Field)), field)
        else:
            return hint, field


def _check_object(value: object, shape: type, key: str, field: Field) -> None:
    if not isinstance(value, dict):
        raise _wrong(key, value, field, shape)
    for name, (kind, inner, required) in fields(shape).items():
        if name not in value:
            if required:
                raise _missing(name, inner, kind)
            continue
        _check_value(value[name], kind, name, inner)


def _check_value(value: object, kind: object, key: str, field: Field) -> None:
    """:raises ShapeError: ``value`` is not of ``kind``, or breaks ``field``'s bounds."""
    if not _is(value, kind):
        raise _wrong(key, value, field, kind)
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):  # the first option it is, checked all the way down
        option, inner = next(_unwrap(o) for o in get_args(kind) if _is(value, _unwrap(o)[0]))
        _check_value(value, option, key, inner if inner is not NO_FIELD else field)
    elif _is_record(kind):
        _check_object(value, cast(type, kind), key, field)
    elif origin in (list, dict) and isinstance(value, list | dict):
        _check_entries(value, get_args(kind)[-1], key, field)
    elif not _bounded(value, field):
        raise _wrong(key, value, field, kind)


def _check_entries(
    value: list[object] | dict[str, object], kind: object, key: str, field: Field
) -> None:
    if not _within(len(value), field.min_items, field.max_items):
        raise _wrong(key, value, field, list)
    entries = value.items() if isinstance(value, dict) else enumerate(value, start=1)
    inner = _unwrap(kind)
    for name, entry in entries:
        label = field.item.format(n=name) if field.item else key
        try:
            _check_value(entry, inner[0], label, inner[1])
        except ShapeError:
            if field.each is None:
                raise
            raise ShapeError(field.each.format(key=name, value=entry), key) from None


def _is(value: object, kind: object) -> bool:
    """Whether ``value`` is of ``kind`` at its top level (entries are checked after)."""
    if kind is object:
        return True
    if kind is None or kind is type(None):
        return value is None
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        return any(_is(value, _unwrap(option)[0]) for option in get_args(kind))
    if origin is Literal:
        return value in get_args(kind)
    if _is_record(kind) or origin is dict or kind is dict:
        return isinstance(value, dict)
    if origin is list or kind is list:
        return isinstance(value, list)
    if isinstance(value, bool):
        return kind is bool
    if kind is float:
        return isinstance(value, int | float)
    return isinstance(kind, type) and isinstance(value, kind)


def _is_record(kind: object) -> bool:
    """Whether ``kind`` is a JSON object with named keys: a ``TypedDict`` or a dataclass."""
    return is_typeddict(kind) or (isinstance(kind, type) and dataclasses.is_dataclass(kind))


def _bounded(value: object, field: Field) -> bool:
    """Whether a string matches ``field``'s pattern and a number is within its bounds."""
    if isinstance(value, str) and field.pattern:
        return re.fullmatch(field.pattern, value) is not None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _within(value, field.minimum, field.maximum)
    return True


def _within(number: float, low: int | None, high: int | None) -> bool:
    return (low is None or number >= low) and (high is None or number <= high)


def describe(kind: object, field: Field = NO_FIELD) -> str:
    """The value in words, as messages name it."""
    if field.what:
        return field.what
    origin = get_origin(kind)
    if origin is Literal:
        return " or ".join(f'"{option}"' for option in get_args(kind))
    if origin in (Union, types.UnionType):
        options = [describe(_unwrap(o)[0]) for o in get_args(kind) if o is not type(None)]
        return " or ".join(options)
    if _is_record(kind):
        return "an object"
    return _NAMES.get(origin or kind, getattr(kind, "__name__", str(kind)))


def _missing(key: str, field: Field, kind: object) -> ShapeError:
    if field.wrong:
        return ShapeError(field.wrong.format(key=key, value=None), key)
    return ShapeError(f'"{key}" is missing: send {describe(kind, field)}', key)


def _wrong(key: str, value: object, field: Field, kind: object) -> ShapeError:
    if field.wrong:
        return ShapeError(field.wrong.format(key=key, value=value), key)
    return ShapeError(f'"{key}" must be {describe(kind, field)}', key)


def schema(kind: object, field: Field = NO_FIELD) -> dict[str, object]:
    """``kind`` as an OpenAPI 3.0 schema object: ``nullable`` for ``None``, ``enum`` for a
    ``Literal``, a ``TypedDict``'s (or a dataclass's) keys as ``properties`` and ``required``;
    ``None`` alone (a key that is always null) as a null enum."""
    found = _schema(kind)
    extra = {
        "description": field.description or field.what,
        "pattern": f"^(?:{field.pattern})$" if field.pattern else None,
        "minimum": field.minimum,
        "maximum": field.maximum,
        "minItems": field.min_items,
        "maxItems": field.max_items,
        "example": field.example,
    }
    return found | {name: value for name, value in extra.items() if value is not None}


def _schema(kind: object) -> dict[str, object]:
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = [_unwrap(o) for o in get_args(kind) if o is not type(None)]
        one = schema(*options[0]) if len(options) == 1 else {"oneOf": [schema(*o) for o in options]}
        return one | ({"nullable": True} if len(options) < len(get_args(kind)) else {})
    if origin is Literal:
        return {"type": "string", "enum": list(get_args(kind))}
    if _is_record(kind):
        return _object_schema(cast(type, kind))
    if kind is None or kind is type(None):  # OpenAPI 3.0 has no null type: a nullable enum
        return {"type": "string", "nullable": True, "enum": [None]}
    if origin is list:
        return {"type": "array", "items": schema(*_unwrap(get_args(kind)[0]))}
    if origin is dict:
        return {"type": "object", "additionalProperties": schema(*_unwrap(get_args(kind)[1]))}
    if kind in _SCHEMA_TYPES:
        return {"type": _SCHEMA_TYPES[kind]}
    return {}  # object: any JSON value


def _object_schema(shape: type) -> dict[str, object]:
    found: dict[str, object] = {"type": "object"}
    described = fields(shape)
    required = [name for name, (_, _, needed) in described.items() if needed]
    if required:  # OpenAPI 3.0: "required" lists at least one key when present
        found["required"] = required
    found["properties"] = {
        name: schema(kind, field) for name, (kind, field, _) in described.items()
    }
    # a dataclass without a docstring is given its signature as one: not a description
    generated = shape.__doc__ is dict.__doc__ or f"{shape.__name__}(" in (shape.__doc__ or "")
    if shape.__doc__ and not generated:
        found["description"] = " ".join(shape.__doc__.split())
    return found


class OpenApiDocument(TypedDict):
    """An OpenAPI 3.0 document (what ``/openapi.json`` answers): its paths' schemas are
    written by :func:`schema`."""

    openapi: Literal["3.0.3"]
    info: dict[str, str]
    components: dict[str, object]
    paths: dict[str, object]


def check_query(args: Mapping[str, str], shape: type[T]) -> T:
    """Query parameters (text) as the ``TypedDict`` ``shape``: whole numbers are read from
    their digits and held to their bounds, text is kept; parameters ``shape`` does not name
    are left out. :raises ShapeError: ``Field.wrong`` (``{value!r}``: the text as sent)."""
    found: dict[str, object] = {}
    declared: type = shape
    for key, (kind, field, required) in fields(declared).items():
        text = args.get(key)
        if text is None:
            if required:
                raise _missing(key, field, kind)
            continue
        if not _is(0, kind):
            found[key] = text
            continue
        try:
            number = int(text)
        except ValueError:
            raise _wrong(key, text, field, kind) from None
        if not _within(number, field.minimum, field.maximum):
            raise _wrong(key, text, field, kind)
        found[key] = number
    return cast(T, found)


def query_parameters(shape: type) -> list[dict[str, object]]:
    """The ``TypedDict`` ``shape`` as OpenAPI 3.0 query parameters."""
    return [
        {
            "name": key,
            "in": "query",
            "required": required,
            "description": field.description or field.what or key,
            "schema": schema(kind, replace(field, what=None, description=None)),
        }
        for key, (kind, field, required) in fields(shape).items()
    ]
