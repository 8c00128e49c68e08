"""The running table as the web app sees it: the service, and what the app adds around it.

:class:`Table` is the one object views talk to (through :func:`table`). It serialises the
view the table publishes (:class:`companion.table.view.TableView`) for ``/api/state`` and
every event-stream client (once per version and audience, cached on the view); it owns the
switch to a newly started game, and a ``closed`` event that ends every stream at shutdown.
"""

from __future__ import annotations

import hmac
import json
import threading
from collections.abc import Callable
from typing import Any, NamedTuple, cast

from flask import current_app

from companion.storage.tokens import TokenFile
from companion.table.demo import DemoPlayer
from companion.table.live import LiveGame
from companion.table.service import Change, TableService
from companion.table.view import Audience, TableView
from companion.tracker.public import public_view
from companion.web.palette import PALETTE
from companion.web.slots import StreamSlots

EXTENSION = "companion"
SEP = (",", ":")
#: what ``/api/state`` says when the table has no game in progress
NO_GAME = "No game in progress: start one on the New game page (/setup)."


class View(NamedTuple):
    """What a viewer is sent: the state answer once per game and version, and between versions
    the parts that change without one (the store's health, pairing notices)."""

    game_id: int | None
    version: int
    #: the state answer without its health and pairing, and without its closing brace: the
    #: bytes of this version every stream of one audience shares
    head: bytes
    #: the rest of the state answer: ``,"health":…,"pairing":…}`` as they are now
    tail: bytes
    #: ``{"game_id", "version", "health", "pairing"}`` as they are now
    status: bytes

    @property
    def data(self) -> bytes:
        return self.head + self.tail


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
        header = self.service.view.header
        return {} if header is None else colours_of(dict(header.raw), list(header.players))

    def state(self, *, full: bool = False) -> dict[str, Any]:
        """The ``/api/state`` answer (and every event's data)."""
        return json.loads(self.payload(full=full)[1])  # type: ignore[no-any-return]

    def payload(self, *, full: bool = False) -> tuple[int, bytes]:
        """``(version, JSON bytes)`` of the state answer. ``full``: for a holder of a token,
        with every tag; everyone else gets the public view (:mod:`companion.tracker.public`)."""
        view = self.view(full=full)
        return view.version, view.data

    def view(self, *, full: bool = False) -> View:
        """The state answer of the table's current view and the status as it is now. Reads
        the view the table published (no lock of the table's, no store read); its bytes are
        made once per version and audience."""
        shown = self.service.view
        head = shown.serialised("full" if full else "public", self._head)
        health = json.dumps({"store": self.service.store_snapshot().document()}, separators=SEP)
        pairing = json.dumps(self.service.pairing.notice, separators=SEP)
        tail = f',"health":{health},"pairing":{pairing}}}'.encode()
        status = (
            f'{{"game_id":{json.dumps(shown.game_id)},"version":{shown.version},'
            f'"health":{health},"pairing":{pairing}}}'
        ).encode()
        return View(shown.game_id, shown.version, head, tail, status)

    def _head(self, view: TableView, audience: Audience) -> bytes:
        """The state answer of ``view`` for ``audience`` but its health and pairing, open."""
        playing, full = view.game_id is not None, audience == "full"
        header = view.header
        body: dict[str, Any] = {
            "version": view.version,
            "state": view.document if full else view.public,
            "playing": playing,
            "simulated": self.simulated,
            "demo": self.demo is not None,
            "colours": {} if header is None else colours_of(dict(header.raw), list(header.players)),
            "game_id": view.game_id,
            "zones": list(view.zones),
            # the words never name a uid; an event's own text is held to the same rule
            "recent": list(view.recent) if full else public_view(list(view.recent), view.shown),
            "undo": view.undo,
            "redo": view.redo_for(audience),
        }
        if not playing:
            body["message"] = NO_GAME
        return json.dumps(body, separators=SEP).encode()[:-1]

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
