"""The running table as the web app sees it: the service, and what the app adds around it.

:class:`Table` is the one object views talk to (through :func:`table`). It owns the state
payload shared by ``/api/state`` and every event-stream client (serialised once per version),
the switch to a newly started game, and a ``closed`` event that ends every stream at shutdown.
"""

from __future__ import annotations

import hmac
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, cast

from flask import current_app

from companion.storage.tokens import TokenFile
from companion.table.demo import DemoPlayer
from companion.table.live import LiveGame
from companion.table.service import Change, TableService
from companion.web.hidden import buried_tags, public_view
from companion.web.palette import PALETTE
from companion.web.slots import StreamSlots
from companion.web.timeline import Timeline, timeline
from companion.web.words import Words

EXTENSION = "companion"
#: the table screen lists this many events, found in at most this many log lines
RECENT_EVENTS = 8
RECENT_LINES = 40
#: what ``/api/state`` says when the table has no game in progress
NO_GAME = "No game in progress: start one on the New game page (/setup)."


class View(NamedTuple):
    """What a viewer is sent: the state answer once per game and version, and between versions
    the parts that change without one (the store's health, pairing notices)."""

    game_id: int | None
    version: int
    data: bytes
    #: ``{"game_id", "version", "health", "pairing"}`` as they are now
    status: bytes


class Table:
    def __init__(
        self,
        service: TableService,
        *,
        token: str | TokenFile,
        simulated: bool = False,
        demo: DemoPlayer | None = None,
    ) -> None:
        self.service = service
        self._token = token
        self.simulated = simulated
        self.demo = demo
        self.closed = threading.Event()
        self._lock = threading.Lock()
        self._payload: tuple[tuple[int | None, int, int, int], bytes, bytes] | None = None
        self._on_close: set[Callable[[], None]] = set()
        self.streams = StreamSlots()

    # Who may change the table

    @property
    def token(self) -> str:
        """The control token now (``companion token --rotate`` may have replaced it)."""
        return self._token if isinstance(self._token, str) else self._token.current()

    def is_control_token(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

    def allows(self, given: str) -> bool:
        """Whether ``given`` is the control token or a paired tablet's token."""
        if hmac.compare_digest(given.encode(), self.token.encode()):
            return True
        return self.service.store.tablets.is_paired(given)

    # The state everyone sees

    @property
    def game_id(self) -> int | None:
        """The game in progress, if any."""
        live = self.service.live
        return None if live is None else live.game_id

    def colours(self) -> dict[str, str]:
        """Each player's colour: the header's ``colours``, else the palette by seat."""
        live = self.service.live
        if live is None:
            return {}
        header = live.game.state.header
        return colours_of(dict(header.raw), list(header.players))

    def state(self, *, full: bool = False) -> dict[str, Any]:
        """The ``/api/state`` answer (and every event's data)."""
        return json.loads(self.payload(full=full)[1])  # type: ignore[no-any-return]

    def payload(self, *, full: bool = False) -> tuple[int, bytes]:
        """``(version, JSON bytes)`` of the state answer, built once per game, version and
        store health. ``full``: for a holder of a token, with the tags of buried cards;
        everyone else gets the public view (:mod:`companion.web.hidden`)."""
        service = self.service
        with service._lock:  # one consistent (game, version, document)
            live = service.live
            game_id = None if live is None else live.game_id
            version, document = service.snapshot()
            key = (game_id, version, service.store_health.generation, service.pairing.generation)
            with self._lock:
                cached = self._payload
                if cached is not None and cached[0] == key:
                    return version, cached[1] if full else cached[2]
            told = self.timeline(document) if document is not None else None
            body: dict[str, Any] = {
                "version": version,
                "state": document,
                "playing": live is not None,
                "simulated": self.simulated,
                "demo": self.demo is not None,
                "colours": self.colours(),
                "game_id": game_id,
                "zones": list(live.game.state.header.zones if live else service.readers),
                "recent": told.recent if told is not None else [],
                "undo": told.undo if told is not None else None,
                "redo": told.redo if told is not None else None,
                "health": {"store": service.store_snapshot().document()},
                "pairing": service.pairing.notice,  # a tablet asking, what End turn did
            }
            if live is None:
                body["message"] = NO_GAME
            data = json.dumps(body, separators=(",", ":")).encode()
            hidden = buried_tags(document) if document is not None else frozenset()
            shown = json.dumps(public_view(body, hidden), separators=(",", ":")).encode()
        with self._lock:
            self._payload = (key, data, shown)
        return version, data if full else shown

    def view(self) -> View:
        """The public state answer for ``version``, and the status as it is now."""
        service = self.service
        with service._lock:
            live = service.live
            game_id = None if live is None else live.game_id
            version, data = self.payload()
            status = {
                "game_id": game_id,
                "version": version,
                "health": {"store": service.store_snapshot().document()},
                "pairing": service.pairing.notice,
            }
        return View(game_id, version, data, json.dumps(status, separators=(",", ":")).encode())

    def timeline(self, document: Mapping[str, Any]) -> Timeline:
        """The last events in words (undone ones left out), what Undo and Redo would do."""
        live = self.service.playing()
        tags = {uid: b.card for uid, b in live.game.state.header.tags.items()}
        bases = {b["zone"]: b["card"] for b in document.get("bases", [])}
        words = Words(live.game.catalogue, tags, bases)
        game_id = live.game_id
        return timeline(
            lambda last: live.store.log.entries(game_id, last=last),
            words,
            RECENT_EVENTS,
            RECENT_LINES,
        )

    def listen(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        return self.service.listen(listener)

    # A new game on the same table

    def replace_game(self, live: LiveGame, by: str | None = None) -> None:
        """Play ``live`` on this table from now on (started ``by`` whom); listeners hear the
        switch as a change."""
        self.service.replace_game(live, by)

    def on_close(self, callback: Callable[[], None]) -> None:
        with self._lock:
            self._on_close.add(callback)

    def forget_on_close(self, callback: Callable[[], None]) -> None:
        with self._lock:
            self._on_close.discard(callback)

    def close(self) -> None:
        """End every event stream (the server is stopping)."""
        self.closed.set()
        with self._lock:
            callbacks = list(self._on_close)
        for callback in callbacks:
            callback()


def colours_of(header: dict[str, Any], players: list[str]) -> dict[str, str]:
    given = header.get("colours")
    given = given if isinstance(given, dict) else {}
    return {
        player: str(given.get(player) or PALETTE[seat % len(PALETTE)])
        for seat, player in enumerate(players)
    }


def table() -> Table:
    """The running table of the current app."""
    return cast(Table, current_app.extensions[EXTENSION])
