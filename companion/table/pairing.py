"""Pairing a tablet without a terminal, like a Hue bridge's link button.

A tablet without the control token asks to control the table: that opens a pairing window of
:data:`WINDOW_SECONDS` (one at a time, and only so many in a while), identified by a random
pairing id that only the asking tablet is told. The zone LEDs blink while the window waits.
Pressing the table's End-turn button within the window proves someone at the table agrees;
the asking tablet then collects its own token with its pairing id, once.

Time comes from the injected clock; :meth:`Pairing.tick` (called by the table's worker) closes
a window nobody answered, so the LEDs stop blinking even if the tablet went away.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from companion.errors import CompanionError

WINDOW_SECONDS = 60.0
#: how long after its end a window is remembered: a pressed one's tablet may still collect its
#: token, an unanswered one's hears "expired"
GRACE_SECONDS = 60.0
#: at most this many windows per asker (its network address) in any RATE_PERIOD seconds: one
#: tablet asking again and again cannot keep the LEDs blinking nor lock the others out
MAX_WINDOWS = 6
RATE_PERIOD = 600.0
PAIRING_ID_BYTES = 16


class PairingError(CompanionError):
    """A pairing request refused; the message says what to do."""

    retry_after: int | None = None


class NoPairingButton(PairingError):
    def __init__(self) -> None:
        super().__init__(
            "this table has no End-turn button to pair with; on the machine running the table, "
            "`companion token` prints a QR code to scan instead"
        )


class PairingBusy(PairingError):
    def __init__(self, seconds: int) -> None:
        super().__init__(
            f"another tablet is asking to control the table; try again in {seconds} s "
            "(and press the End-turn button only when your own tablet asks you to)"
        )
        self.retry_after = seconds


class TooManyPairings(PairingError):
    def __init__(self, seconds: int) -> None:
        super().__init__(f"too many requests to pair in a short time; try again in {seconds} s")
        self.retry_after = seconds


class PairingUnknown(PairingError):
    def __init__(self) -> None:
        super().__init__("this request to pair is over or unknown; tap Ask to control again")


@dataclass(slots=True)
class Window:
    pairing_id: str
    opened: float
    closes: float
    pressed: bool = False


@dataclass(frozen=True, slots=True)
class Claim:
    """Where a tablet's request stands: ``waiting`` (``seconds_left``), ``granted`` (with its
    ``token``, handed out once) or ``expired``."""

    state: Literal["waiting", "granted", "expired"]
    seconds_left: int = 0
    token: str | None = None


class Pairing:
    """The pairing windows of one table (thread-safe).

    :param grant: makes and remembers a new tablet token (called once per granted tablet).
    :param waiting: told True when a window opens and False when none waits any more (LEDs).
    :param has_button: whether the table has an End-turn button to press.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        grant: Callable[[], str],
        waiting: Callable[[bool], None],
        has_button: Callable[[], bool],
    ) -> None:
        self.clock = clock
        self._grant = grant
        self._waiting = waiting
        self._has_button = has_button
        self._lock = threading.Lock()
        self._windows: dict[str, Window] = {}
        self._opened: dict[str, list[float]] = {}
        self._blinking = False

    def ask(self, asker: str = "") -> Window:
        """Open a window for the tablet at ``asker`` (its address, for the rate limit).

        :raises PairingError: saying why not.
        """
        if not self._has_button():
            raise NoPairingButton()
        with self._lock:
            now = self.clock()
            self._expire(now)
            if (open_window := self._open(now)) is not None:
                raise PairingBusy(math.ceil(open_window.closes - now))
            recent = [at for at in self._opened.get(asker, []) if at > now - RATE_PERIOD]
            if len(recent) >= MAX_WINDOWS:
                raise TooManyPairings(math.ceil(recent[0] + RATE_PERIOD - now))
            window = Window(secrets.token_urlsafe(PAIRING_ID_BYTES), now, now + WINDOW_SECONDS)
            self._windows[window.pairing_id] = window
            self._opened = {
                who: times
                for who, times in self._opened.items()
                if times and times[-1] > now - RATE_PERIOD
            }
            self._opened[asker] = [*recent, now]
            self._signal(True)
            return window

    def press(self) -> bool:
        """The End-turn button was pressed: whether a waiting window took the press (then it
        is not an end of turn)."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            window = self._open(now)
            if window is None:
                return False
            window.pressed = True
            self._signal(False)
            return True

    def claim(self, pairing_id: str) -> Claim:
        """The asking tablet's view of its window; a pressed one gives it its token (once).

        :raises PairingUnknown: no such window (never opened, collected, or long over).
        """
        with self._lock:
            now = self.clock()
            self._expire(now)
            window = self._windows.get(pairing_id)
            if window is None:
                raise PairingUnknown()
            if window.pressed:
                token = self._grant()
                del self._windows[pairing_id]
                return Claim("granted", token=token)
            if now >= window.closes:
                del self._windows[pairing_id]
                return Claim("expired")
            return Claim("waiting", seconds_left=math.ceil(window.closes - now))

    def cancel(self, pairing_id: str) -> None:
        """The tablet gave up: its window closes (nothing happens for an unknown id)."""
        with self._lock:
            if self._windows.pop(pairing_id, None) is not None:
                self._expire(self.clock())

    def tick(self) -> None:
        """Close windows whose time is up (the LEDs stop blinking)."""
        with self._lock:
            self._expire(self.clock())

    @property
    def waiting(self) -> bool:
        """Whether a window waits for the button now."""
        with self._lock:
            return self._open(self.clock()) is not None

    def _open(self, now: float) -> Window | None:
        """The window waiting for a press now, if any (there is at most one)."""
        return next((w for w in self._windows.values() if not w.pressed and now < w.closes), None)

    def _expire(self, now: float) -> None:
        for pairing_id, window in list(self._windows.items()):
            if now >= window.closes + GRACE_SECONDS:
                del self._windows[pairing_id]
        if self._open(now) is None:
            self._signal(False)

    def _signal(self, on: bool) -> None:
        if on != self._blinking:
            self._blinking = on
            self._waiting(on)
