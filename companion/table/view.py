"""The table as everyone sees it, built once per stored line: :class:`TableView`.

The service builds a view when it publishes a change (:meth:`Views.build`, under its lock,
where the game cannot move) and swaps it in whole; readers (the dashboard's requests and every
event stream) take the current one through one attribute, with no lock and no store read. A
view never changes: what it serialises to is cached on it, once per audience.

What changes without a version (the store's health, a pairing notice) is not in it: it is read
apart (:func:`status_of`), so a health change never rebuilds a view.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from companion.table.story import Redo, story
from companion.tape.documents import Document
from companion.tape.lines import Header
from companion.tracker.document import state_document
from companion.tracker.game import Game
from companion.tracker.public import buried_tags, public_view, shown_tags
from companion.tracker.words import Words


class Playing(Protocol):
    """The game in progress, as a view needs it (the table's live game)."""

    game_id: int
    game: Game


Audience = Literal["full", "public"]
"""``full``: a holder of a token (the page's controls need the tags); ``public``: a viewer."""


@dataclass(frozen=True, slots=True, eq=False)
class TableView:
    """One version of the table, for viewers and for token holders."""

    game_id: int | None
    version: int
    #: the game's header (players, zones, colours), None with no game in progress
    header: Header | None
    #: the zones the page lays out: the header's, or the table's readers with no game
    zones: tuple[str, ...]
    #: the state document of the tape contract (every uid in it), None with no game
    document: Document | None
    #: the last events in words, newest first (no uid in them: :mod:`companion.tracker.words`)
    recent: tuple[Mapping[str, Any], ...] = ()
    undo: str | None = None
    redo: Redo | None = None
    #: what a viewer is given for each uid: its handle, or None (a buried card)
    shown: Mapping[str, str | None] = field(default_factory=dict)
    #: the state document as a viewer sees it (:mod:`companion.tracker.public`)
    public: Document | None = None
    _serialised: dict[str, bytes] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def redo_for(self, audience: Audience) -> dict[str, Any] | None:
        if self.redo is None:
            return None
        line = self.redo.line if audience == "full" else public_view(self.redo.line, self.shown)
        return {"line": line, "text": self.redo.text}

    def uid_of(self, given: str) -> str | None:
        """The uid a viewer's handle stands for (None if it names no card in play)."""
        return next((uid for uid, shown in self.shown.items() if shown == given), None)

    def serialised(
        self, audience: Audience, build: Callable[[TableView, Audience], bytes]
    ) -> bytes:
        """``build(self, audience)``, made once per audience (every stream shares the bytes)."""
        with self._lock:
            found = self._serialised.get(audience)
            if found is None:
                found = self._serialised[audience] = build(self, audience)
            return found


class Views:
    """Builds one table's views; keeps each game's key for its handles (drawn at random when
    the table first shows that game, so handles differ from game to game)."""

    def __init__(self) -> None:
        self._keys: dict[int, bytes] = {}

    def build(self, live: Playing | None, readers: tuple[str, ...]) -> TableView:
        """The view of the game in progress now; with none, of the table's ``readers``."""
        if live is None:
            return TableView(None, 0, None, readers, None)
        game_id, game = live.game_id, live.game
        document = state_document(game.state, game.catalogue)
        key, state = self._key(game_id), game.state
        hidden = buried_tags(state)
        tags = {uid: bound.card for uid, bound in state.header.tags.items()}
        bases = {base.zone: base.card for base in getattr(state.table, "bases", ())}
        told = story(game, Words(game.catalogue, tags, bases, hidden))
        shown = shown_tags(state, key)
        return TableView(
            game_id,
            int(state.version),
            state.header,
            tuple(state.header.zones),
            document,
            told.recent,
            told.undo,
            told.redo,
            shown,
            public_view(document, shown),
        )

    def _key(self, game_id: int) -> bytes:
        key = self._keys.get(game_id)
        if key is None:
            self._keys = {game_id: secrets.token_bytes(16)}  # one game at a time
            key = self._keys[game_id]
        return key
