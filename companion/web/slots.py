"""Who may hold an event stream: each open stream holds one of the server's threads.

A client without a token gets one of ``limit`` public slots, at most ``per_address`` of them
from one network address, so one client cannot hold them all. A stream that carries a token
that controls the table (the tablet running the game) has slots of its own, which public
streams never take; when they are all taken, the oldest controlling stream is ended for the
new one (most likely a page that tablet has since reloaded): however many screens follow the
table, a controlling tablet's stream is let in.
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Callable

#: streams of tablets holding a token, beyond the public ones (threads are sized for both)
CONTROL_STREAMS = 4
#: public streams one network address may hold (a phone with a few tabs, a TV)
PER_ADDRESS = 4


class StreamRefused(Exception):
    """No slot for this stream; the message says why, in a player's words."""


class Slot:
    """One stream's slot: :meth:`leave` gives it back (once); :attr:`ended` is set when a
    newer controlling stream took it, and the stream's ``wake`` is called then."""

    def __init__(self, release: Callable[[Slot], None]) -> None:
        self._release = release
        self.ended = threading.Event()
        self._wake: Callable[[], None] | None = None
        self._lock = threading.Lock()

    def leave(self) -> None:
        self._release(self)

    def on_end(self, wake: Callable[[], None]) -> None:
        with self._lock:
            self._wake = wake
        if self.ended.is_set():
            wake()

    def end(self) -> None:
        self.ended.set()
        with self._lock:
            wake = self._wake
        if wake is not None:
            wake()


class StreamSlots:
    """The open event streams, counted per kind and per address (thread-safe)."""

    def __init__(self, control: int = CONTROL_STREAMS, per_address: int = PER_ADDRESS) -> None:
        self.control = control
        self.per_address = per_address
        self._lock = threading.Lock()
        self._public: Counter[str] = Counter()
        self._controlling: deque[Slot] = deque()

    def enter(self, address: str, *, controlling: bool, limit: int) -> Slot:
        """Take a slot (a controlling stream ends the oldest controlling one if need be).

        :raises StreamRefused: no public slot is free for this client.
        """
        if controlling:
            return self._enter_control()
        with self._lock:
            if self._public[address] >= self.per_address:
                raise StreamRefused(
                    f"this device already follows the table in {self.per_address} pages; "
                    "close one of them"
                )
            if self._public.total() >= limit:
                raise StreamRefused(
                    f"{limit} screens already follow this table; close one (or reload in a while)"
                )
            self._public[address] += 1
        return Slot(lambda _: self._leave_public(address))

    @property
    def open(self) -> int:
        with self._lock:
            return self._public.total() + len(self._controlling)

    def _enter_control(self) -> Slot:
        slot = Slot(self._leave_control)
        with self._lock:
            oldest = self._controlling.popleft() if len(self._controlling) >= self.control else None
            self._controlling.append(slot)
        if oldest is not None:
            oldest.end()
        return slot

    def _leave_control(self, slot: Slot) -> None:
        with self._lock:
            if slot in self._controlling:
                self._controlling.remove(slot)

    def _leave_public(self, address: str) -> None:
        with self._lock:
            self._public[address] -= 1
            if self._public[address] <= 0:
                del self._public[address]
