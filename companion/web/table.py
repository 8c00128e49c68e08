"""The running table as the web app sees it: the service, and what the app adds around it.

:class:`Table` is the one object views talk to (through :func:`table`). It owns the state
payload shared by ``/api/state`` and every event-stream client (serialised once per version),
the switch to a newly started game, and a ``closed`` event that ends every stream at shutdown.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any, cast

from flask import current_app

from companion.storage.session import LiveGame
from companion.table.demo import DemoPlayer
from companion.table.service import Change, TableService
from companion.web.words import Words, recent

#: seat colours for games whose header names none
PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
EXTENSION = "companion"
#: the table screen lists this many events, found in at most this many log lines
RECENT_EVENTS = 8
RECENT_LINES = 40


class Table:
    def __init__(
        self,
        service: TableService,
        *,
        token: str,
        simulated: bool = False,
        demo: DemoPlayer | None = None,
    ) -> None:
        self.service = service
        self.token = token
        self.simulated = simulated
        self.demo = demo
        self.closed = threading.Event()
        self._lock = threading.Lock()
        self._payload: tuple[int, int, bytes] | None = None
        self._on_close: set[Callable[[], None]] = set()

    # The state everyone sees

    @property
    def game_id(self) -> int:
        return self.service.live.game_id

    def colours(self) -> dict[str, str]:
        """Each player's colour: the header's ``colours``, else the palette by seat."""
        header = self.service.live.game.state.header
        return colours_of(dict(header.raw), list(header.players))

    def state(self) -> dict[str, Any]:
        """The ``/api/state`` answer (and every event's data)."""
        return json.loads(self.payload()[1])  # type: ignore[no-any-return]

    def payload(self) -> tuple[int, bytes]:
        """``(version, JSON bytes)`` of the state answer, built once per game and version."""
        service = self.service
        with service._lock:  # one consistent (game, version, document)
            game_id = service.live.game_id
            version, document = service.snapshot()
            with self._lock:
                cached = self._payload
                if cached is not None and cached[:2] == (game_id, version):
                    return version, cached[2]
            body = {
                "version": version,
                "state": document,
                "simulated": self.simulated,
                "demo": self.demo is not None,
                "colours": self.colours(),
                "game_id": game_id,
                "zones": list(service.live.game.state.header.zones),
                "recent": self.recent(document),
            }
            data = json.dumps(body, separators=(",", ":")).encode()
        with self._lock:
            self._payload = (game_id, version, data)
        return version, data

    def recent(self, document: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The last events in words, newest first (from the stored log)."""
        live = self.service.live
        tags = {uid: b.card for uid, b in live.game.state.header.tags.items()}
        bases = {b["zone"]: b["card"] for b in document.get("bases", [])}
        entries = live.store.log(live.game_id, last=RECENT_LINES)
        return recent(entries, Words(live.game.catalogue, tags, bases), RECENT_EVENTS)

    def listen(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        return self.service.listen(listener)

    # A new game on the same table

    def replace_game(self, live: LiveGame) -> None:
        """Play ``live`` on this table from now on; listeners hear the switch as a change."""
        self.service.replace_game(live)

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
