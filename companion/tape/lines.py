"""Reading tapes (``companion/tape/CONTRACT.md``): the header and the event lines, strictly.

Parsing is pure: text in, typed header and plain event dicts out. Every problem is a
:class:`TapeError` naming the line; replay stops there and never guesses.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.catalogue.printings import check as check_printings
from companion.errors import CatalogueError, TapeError
from companion.tape.strict import StrictJSONError, decode, loads

GAMES = ("smashup", "munchkin-cthulhu")
MAX_PLAYERS = 8
MAX_ZONES = 32
MAX_TAGS = 10_000


@dataclass(frozen=True, slots=True)
class TagBinding:
    card: str
    owner: str | None = None


@dataclass(frozen=True)
class Header:
    """The tape's first line: players in seat order, factions, reader zones, tag bindings."""

    game: str
    players: tuple[str, ...]
    zones: tuple[str, ...]
    factions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    tags: Mapping[str, TagBinding] = field(default_factory=dict)
    sex: Mapping[str, str] = field(default_factory=dict)
    #: the raw header exactly as read (exports write it back unchanged)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False)
    #: the printing each set's cards are played in (set id -> ``first`` | ``current``;
    #: a set not named plays the catalogue's own text, with its errata)
    printings: Mapping[str, str] = field(default_factory=dict)

    def with_binding(self, uid: str, binding: TagBinding) -> Header:
        tags = dict(self.tags)
        tags[uid] = binding
        return replace(self, tags=tags)


def parse_header(raw: Any, catalogue: Catalogue, line: int = 1) -> Header:
    """Validate a header object against the catalogue.

    :raises TapeError: naming the line and what is wrong (an unknown card id is named).
    """
    if not isinstance(raw, dict):
        raise TapeError("the header must be a JSON object", line)
    if type(raw.get("tape")) is not int or raw["tape"] != 1:
        raise TapeError('the header must say "tape": 1 (this reader knows tape version 1)', line)
    game = raw.get("game")
    if game not in GAMES:
        raise TapeError(f'"game" must be one of {", ".join(GAMES)}, got {game!r}', line)
    players = raw.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise TapeError('"players" must be a list of distinct names', line)
    if len(players) > MAX_PLAYERS:
        raise TapeError(f'"players" names {len(players)} players (at most {MAX_PLAYERS})', line)
    zones = raw.get("zones")
    if not isinstance(zones, list) or not all(isinstance(z, str) and z for z in zones):
        raise TapeError('"zones" must be a list of zone names', line)
    if len(set(zones)) != len(zones):
        raise TapeError('"zones" must not repeat a zone', line)
    if len(zones) > MAX_ZONES:
        raise TapeError(f'"zones" names {len(zones)} zones (at most {MAX_ZONES})', line)
    factions = _factions(raw.get("factions", {}), players, catalogue, game, line)
    known = catalogue.cthulhu if game == "munchkin-cthulhu" else catalogue
    tags = _tags(raw.get("tags", {}), players, known, line)
    sex = raw.get("sex", {})
    if not isinstance(sex, dict) or not all(p in players for p in sex):
        raise TapeError('"sex" must map player names to "female" or "male"', line)
    printings = raw.get("printings", {})
    if not isinstance(printings, dict) or not all(isinstance(v, str) for v in printings.values()):
        raise TapeError('"printings" must map set ids to a printing name', line)
    try:
        check_printings(catalogue, printings)
    except CatalogueError as exc:
        raise TapeError(f'"printings": {exc}', line) from None
    return Header(
        game=game,
        players=tuple(players),
        zones=tuple(zones),
        factions=factions,
        tags=tags,
        sex=dict(sex),
        raw=raw,
        printings=dict(printings),
    )


def _factions(
    raw: Any, players: list[str], catalogue: Catalogue, game: str, line: int
) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise TapeError('"factions" must map each player to their factions', line)
    result: dict[str, tuple[str, ...]] = {}
    for player, chosen in raw.items():
        if player not in players:
            raise TapeError(f'"factions" names {player!r}, who is not in "players"', line)
        if not isinstance(chosen, list) or not all(isinstance(f, str) for f in chosen):
            raise TapeError(f'"factions" of {player} must be a list of faction ids', line)
        for faction in chosen:
            if faction not in catalogue.factions:
                raise TapeError(f"unknown faction id {faction!r} for {player}", line)
        result[player] = tuple(chosen)
    if game == "smashup":
        missing = [p for p in players if p not in result]
        if missing:
            raise TapeError(f'"factions" is missing {", ".join(missing)}', line)
    return result


def _tags(
    raw: Any, players: list[str], catalogue: Container[str], line: int
) -> dict[str, TagBinding]:
    if not isinstance(raw, dict):
        raise TapeError('"tags" must map tag uids to card ids', line)
    if len(raw) > MAX_TAGS:
        raise TapeError(f'"tags" holds {len(raw)} tags (at most {MAX_TAGS})', line)
    tags: dict[str, TagBinding] = {}
    for uid, entry in raw.items():
        card, owner = (entry, None) if isinstance(entry, str) else _tag_object(entry, uid, line)
        if card not in catalogue:
            raise TapeError(f"unknown card id {card!r} for tag {uid}", line)
        if owner is not None and owner not in players:
            raise TapeError(f'tag {uid}: owner {owner!r} is not in "players"', line)
        tags[uid.upper()] = TagBinding(card, owner)
    return tags


def _tag_object(entry: Any, uid: str, line: int) -> tuple[Any, Any]:
    if not isinstance(entry, dict) or not isinstance(entry.get("card"), str):
        raise TapeError(f'tag {uid}: must be a card id or {{"card": ..., "owner": ...}}', line)
    return entry["card"], entry.get("owner")


@dataclass(frozen=True, slots=True)
class TapeLine:
    number: int
    event: dict[str, Any]


def read_lines(text: Iterable[str | bytes]) -> Iterator[TapeLine]:
    """Numbered JSON objects, skipping blank lines and ``#`` comments. Lines are strict JSON
    (:mod:`companion.tape.strict`); bytes must be UTF-8.

    :raises TapeError: for a line that is not a JSON object within our limits.
    """
    for number, raw in enumerate(text, start=1):
        try:
            line = decode(raw) if isinstance(raw, bytes) else raw
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            value = loads(stripped)
        except StrictJSONError as exc:
            raise TapeError(str(exc), number) from None
        if not isinstance(value, dict):
            raise TapeError("each line must be a JSON object", number)
        yield TapeLine(number, value)


def read_tape(data: bytes) -> Iterator[TapeLine]:
    """The numbered lines of a tape file's bytes (see :func:`read_lines`)."""
    return read_lines(data.split(b"\n"))


def dump_line(event: Mapping[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(", ", ": "))
