"""Server-Sent Events for ``/api/events``: one queue per client, fed by the service's listeners.

The service calls listeners under its lock, so a listener only puts the new version on the
client's queue; the client's own server thread then reads the view the table published (no
lock of the table's, no store read) and writes its bytes, made once per version and audience.
A client that fell behind is sent the current state once (each message is the whole state, so
nothing is lost by skipping versions), and each version is sent once: what changes between
versions (the store's health while it fails or waits, a pairing notice) goes as a small
``health`` event instead. A write to a client that went away fails, Werkzeug
closes the generator, and ``finally`` unsubscribes it; ``: ping`` every ``ping`` seconds makes
that happen soon even on a quiet table.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

from companion.table.service import Change
from companion.web.slots import Slot
from companion.web.table import Table, View

#: wakes a waiting client without a version (the server is stopping)
_WAKE = -1
#: how soon a browser opens its stream again after it ended or failed (a restarted Pi, a
#: Wi-Fi drop): without it Chromium waits 3 s each time, the table page showing
#: "reconnecting" that long after the Pi is back (live.js's own reopening starts at 1 s too)
RETRY_MS = 1000
#: the stream's first bytes, sent at once so the headers go out whatever comes next
OPENING = b"retry: %d\n: connected\n\n" % RETRY_MS


class Subscription:
    """One client's queue of versions it has not been sent yet."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.queue: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._stop = table.listen(self._heard)
        table.on_close(self.wake)

    def _heard(self, change: Change) -> None:
        self.queue.put(change.version)

    def wait(self, timeout: float) -> bool:
        """Whether something changed within ``timeout`` seconds (drains the queue)."""
        try:
            self.queue.get(timeout=timeout)
        except queue.Empty:
            return False
        while True:
            try:
                self.queue.get_nowait()
            except queue.Empty:
                return True

    def wake(self) -> None:
        self.queue.put(_WAKE)

    def close(self) -> None:
        self._stop()
        self.table.forget_on_close(self.wake)


def message(view: View) -> Iterator[bytes]:
    """The state event, in parts: ``view.head`` is the payload every stream shares, never
    copied into a message of its own per stream (web.memory says why that matters)."""
    yield b"id: %d\nevent: state\ndata: " % view.version
    yield view.head
    yield view.tail
    yield b"\n\n"


def status_message(status: bytes) -> Iterator[bytes]:
    """What changed between two versions (the store's health, a pairing notice): no ``id``, so
    a reconnecting client still names the last state it has."""
    yield b"event: health\ndata: "
    yield status
    yield b"\n\n"


def parse_last_id(value: str | None) -> int | None:
    """The version a reconnecting client last saw, if it says one we can read."""
    if value is None or len(value) > 18 or not value.strip().lstrip("-").isdigit():
        return None
    return int(value.strip())


def events(
    table: Table,
    last_id: int | None,
    *,
    ping: float,
    slot: Slot | None = None,
    full: bool = False,
) -> Iterator[bytes]:
    """The stream: the current state at once unless the client already has it, then every
    change, with a ping when quiet. Subscribes before reading the state so nothing between
    the two is missed. It ends when the server stops or its ``slot`` is taken. ``full``: a
    token holder's stream (every tag); else the public view."""
    subscription = Subscription(table)
    ended = slot.ended if slot is not None else threading.Event()
    if slot is not None:
        slot.on_end(subscription.wake)
    try:
        yield OPENING
        view = table.view(full=full)
        if last_id != view.version:
            yield from message(view)
        sent, status = (view.game_id, view.version), view.status
        while not table.closed.is_set() and not ended.is_set():
            if not subscription.wait(ping):
                yield b": ping\n\n"
                continue
            if table.closed.is_set() or ended.is_set():
                return
            view = table.view(full=full)
            if (view.game_id, view.version) != sent:  # each state once, whatever woke us
                yield from message(view)
                sent, status = (view.game_id, view.version), view.status
            elif view.status != status:  # the store's health or a notice, between versions
                yield from status_message(view.status)
                status = view.status
    finally:
        subscription.close()
