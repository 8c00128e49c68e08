"""The reader board's serial protocol, parsed with no I/O: one JSON object per line in,
typed board lines out (``firmware/protocol.py`` is the board's side; ``firmware/README.md``
documents it). A line that does not parse raises :class:`ValueError` naming what is wrong."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeGuard

from companion.hardware.readers.base import ReadKind

MAX_LINE = 4096
CHANNELS = 4
EVENTS = ("hello", "arrived", "left", "error", "health")
UID_DIGITS = (8, 14, 20)
HEX = frozenset("0123456789ABCDEFabcdef")


@dataclass(frozen=True, slots=True)
class Hello:
    """The board started (``hello``)."""

    firmware: str
    channels: int


@dataclass(frozen=True, slots=True)
class TagEvent:
    """A tag ``arrived`` at or ``left`` a channel's antenna (the board debounced it)."""

    kind: ReadKind
    channel: int
    uid: str  #: upper-case hex
    t: int  #: board milliseconds
    card: str | None = None


@dataclass(frozen=True, slots=True)
class BoardError:
    """A channel's PN532 failed (``error``); the board re-initialises it with back-off."""

    channel: int
    message: str
    t: int | None  #: board milliseconds, if the board sent them


@dataclass(frozen=True, slots=True)
class ChannelStatus:
    """One channel's entry in a ``health`` line."""

    channel: int
    ok: bool
    polls: int
    errors: int
    present: str | None  #: upper-case hex


@dataclass(frozen=True, slots=True)
class HealthReport:
    """The board's periodic ``health`` line."""

    t: int
    channels: tuple[ChannelStatus, ...]


BoardLine = Hello | TagEvent | BoardError | HealthReport


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def decode_line(raw: bytes | str) -> BoardLine:
    """One protocol line, checked.

    :raises ValueError: saying what is wrong (not UTF-8, not JSON, not a version 1 object, an
        unknown event, a missing or malformed field).
    """
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("not UTF-8") from None
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (json.JSONDecodeError, RecursionError):  # RecursionError: nested too deep
        raise ValueError(f"not JSON: {raw[:40]!r}") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    version = data.get("v")
    if not _is_int(version) or version != 1:
        raise ValueError('not a version 1 line (needs "v": 1)')
    event = data.get("ev")
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}")
    if event == "hello":
        firmware, count = data.get("fw"), data.get("channels")
        if not isinstance(firmware, str):
            raise ValueError('"hello" needs "fw": a version string')
        if not _is_int(count) or not 1 <= count <= CHANNELS:
            raise ValueError(f'"hello" needs "channels": 1 to {CHANNELS}')
        return Hello(firmware, count)
    if event == "error":  # its time is optional
        at = _time(event, data) if "t" in data else None
        channel, message = _channel(event, data.get("ch")), data.get("msg")
        if not isinstance(message, str):
            raise ValueError('"error" needs "msg": a string')
        return BoardError(channel, message, at)
    t = _time(event, data)
    if event == "health":
        listed = data.get("ch")
        if not isinstance(listed, list):
            raise ValueError('"health" needs "ch": a list of channel objects')
        return HealthReport(t, tuple(_status(entry) for entry in listed))
    channel, uid = _channel(event, data.get("ch")), _uid(event, data.get("uid"))
    card = data.get("card")
    if "card" in data and not isinstance(card, str):
        raise ValueError(f'"{event}": "card" must be a string')
    return TagEvent("arrived" if event == "arrived" else "left", channel, uid, t, card)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _time(event: str, data: dict[str, object]) -> int:
    t = data.get("t")
    if not _is_int(t) or t < 0:
        raise ValueError(f'"{event}" needs "t": board milliseconds')
    return t


def _channel(event: str, value: object) -> int:
    if not _is_int(value) or not 0 <= value < CHANNELS:
        raise ValueError(f'"{event}" needs "ch": 0 to {CHANNELS - 1}')
    return value


def _uid(event: str, value: object) -> str:
    if not isinstance(value, str) or len(value) not in UID_DIGITS or not set(value) <= HEX:
        raise ValueError(f'"{event}" needs "uid": 8, 14 or 20 hex digits')
    return value.upper()


def _status(entry: object) -> ChannelStatus:
    if not isinstance(entry, dict):
        raise ValueError('"health" needs "ch": a list of channel objects')
    channel = _channel("health", entry.get("ch"))
    ok = entry.get("ok")
    if not isinstance(ok, bool):
        raise ValueError('"health" channel needs "ok": true or false')
    polls, errors = (_count(entry.get(name), name) for name in ("polls", "errors"))
    present = entry.get("present")
    if present is not None:
        present = _uid("health", present)
    elif "present" not in entry:
        raise ValueError('"health" channel needs "present": a uid or null')
    return ChannelStatus(channel, ok, polls, errors, present)


def _count(value: object, name: str) -> int:
    if not _is_int(value) or value < 0:
        raise ValueError(f'"health" channel needs "{name}": a count')
    return value
