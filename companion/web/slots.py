"""Who may hold an event stream: each open stream holds one of the server's threads.

A client without a token gets one of ``limit`` public slots, at most ``per_address`` of them
from one network address, so one client cannot hold them all. A stream that carries a token
that controls the table (the tablet running the game) has slots of its own, which public
streams never take: however many screens follow the table, the controlling tablet's is let in.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

#: streams of tablets holding a token, beyond the public ones (threads are sized for both)
CONTROL_STREAMS = 4
#: public streams one network address may hold (a phone with a few tabs, a TV)
PER_ADDRESS = 4


class StreamRefused(Exception):
    """No slot for this stream; the message says why, in a player's words."""


class StreamSlots:
    """The open event streams, counted per kind and per address (thread-safe)."""

    def __init__(self, control: int = CONTROL_STREAMS, per_address: int = PER_ADDRESS) -> None:
        self.control = control
        self.per_address = per_address
        self._lock = threading.Lock()
        self._public: Counter[str] = Counter()
        self._controlling = 0

    def enter(self, address: str, *, controlling: bool, limit: int) -> Callable[[], None]:
        """Take a slot; returns the function that gives it back.

        :raises StreamRefused: no slot is free for this client.
        """
        with self._lock:
            if controlling:
                if self._controlling >= self.control:
                    raise StreamRefused(
                        f"{self.control} controlling tablets already follow this table; "
                        "close the table's page on one of them"
                    )
                self._controlling += 1
                return self._leave_control
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
            return lambda: self._leave_public(address)

    @property
    def open(self) -> int:
        with self._lock:
            return self._public.total() + self._controlling

    def _leave_control(self) -> None:
        with self._lock:
            self._controlling -= 1

    def _leave_public(self, address: str) -> None:
        with self._lock:
            self._public[address] -= 1
            if self._public[address] <= 0:
                del self._public[address]
