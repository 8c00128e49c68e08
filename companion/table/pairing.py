"""Pairing a tablet without a terminal: ask on the tablet, hold the table's End-turn button.

A tablet without the control token asks to control the table: that opens a pairing window of
:data:`WINDOW_SECONDS`, identified by a random pairing id that only the asking tablet is told,
and bound to it (its network address; a claim from elsewhere is unknown). The window has a
short code that the asking tablet shows and the table beeps (the zone LEDs blink fast too), so
the players see which tablet asks. Holding the End-turn button down for a moment proves
someone at the table agrees; the asking tablet then collects its own token, once.

A short press always ends the turn, window or not: a player ending their turn never pairs a
tablet, nobody's tablet asking can take the press, and the page says what the press did
(:attr:`Pairing.notice`). One window at a time, and at most :data:`MAX_WINDOWS` in
:data:`RATE_PERIOD` seconds for the whole table (a limit per address is no limit for a client
with many addresses).

Time comes from the injected clock; :meth:`Pairing.tick` (called by the table's worker) closes
a window nobody answered, so the LEDs stop blinking even if the tablet went away.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from companion.errors import CompanionError

WINDOW_SECONDS = 60.0
#: how long after its end a window is remembered: a pressed one's tablet may still collect its
#: token, an unanswered one's hears "expired"
GRACE_SECONDS = 60.0
#: at most this many windows, from anyone, in any RATE_PERIOD seconds: asking again and again
#: cannot keep the LEDs blinking for ever
MAX_WINDOWS = 6
RATE_PERIOD = 600.0
PAIRING_ID_BYTES = 16
#: the code: this many digits, each 1 to CODE_MAX (beeps in a group), e.g. 3-1-4
CODE_DIGITS = 3
CODE_MAX = 4
#: how long the End-turn button is held down to let a tablet in (the hardware times it)
HOLD_SECONDS = 2.0
#: how long what a press did stays on the page
NOTICE_SECONDS = 30.0

WAITING = (
    "A tablet asks to control the table. If it is yours and shows the code the table beeps, "
    f"hold End turn down for {HOLD_SECONDS:g} s. A short press just ends the turn."
)
ENDED_TURN = (
    "End turn was pressed: the turn ended. A tablet still asks to control the table; to let "
    f"it, hold End turn down for {HOLD_SECONDS:g} s."
)
PAIRED = "End turn was held down: the tablet that asked now controls the table (the turn goes on)."

Code = tuple[int, ...]


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
            "(and hold the End-turn button only when your own tablet shows the table's code)"
        )
        self.retry_after = seconds


class TooManyPairings(PairingError):
    def __init__(self, seconds: int) -> None:
        super().__init__(
            f"too many requests to control this table in a short time; try again in {seconds} s, "
            "or scan the QR code that `companion token` prints"
        )
        self.retry_after = seconds


class PairingUnknown(PairingError):
    def __init__(self) -> None:
        super().__init__("this request to pair is over or unknown; tap Ask to control again")


@dataclass(slots=True)
class Window:
    pairing_id: str
    asker: str
    code: Code
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


def new_code() -> Code:
    return tuple(secrets.randbelow(CODE_MAX) + 1 for _ in range(CODE_DIGITS))


class Pairing:
    """The pairing windows of one table (thread-safe).

    :param grant: makes and remembers a new tablet token (called once per granted tablet).
    :param waiting: told ``(True, code)`` when a window opens and ``(False, ())`` when none
        waits any more (the LEDs blink, the buzzer beeps the code).
    :param has_button: whether the table has an End-turn button to press.
    :param changed: told (outside any lock) when :attr:`notice` changed, for the page.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        grant: Callable[[], str],
        waiting: Callable[[bool, Code], None],
        has_button: Callable[[], bool],
        changed: Callable[[], None] = lambda: None,
    ) -> None:
        self.clock = clock
        self._grant = grant
        self._waiting = waiting
        self._has_button = has_button
        self._changed = changed
        self._lock = threading.Lock()
        self._windows: dict[str, Window] = {}
        self._opened: deque[float] = deque()
        self._blinking = False
        self._said: tuple[str, float] | None = None
        #: counts changes of :attr:`notice` (the page's state is rebuilt on a change)
        self.generation = 0

    def ask(self, asker: str = "") -> Window:
        """Open a window for the tablet at ``asker`` (its address: only it may claim).

        :raises PairingError: saying why not.
        """
        if not self._has_button():
            raise NoPairingButton()
        with self._lock:
            now = self.clock()
            self._expire(now)
            if (open_window := self._open(now)) is not None:
                raise PairingBusy(math.ceil(open_window.closes - now))
            while self._opened and self._opened[0] <= now - RATE_PERIOD:
                self._opened.popleft()
            if len(self._opened) >= MAX_WINDOWS:
                raise TooManyPairings(math.ceil(self._opened[0] + RATE_PERIOD - now))
            window = Window(
                secrets.token_urlsafe(PAIRING_ID_BYTES),
                asker,
                new_code(),
                now,
                now + WINDOW_SECONDS,
            )
            self._windows[window.pairing_id] = window
            self._opened.append(now)
            self._signal(window.code)
            self._say(None, now)
        self._changed()
        return window

    def press(self) -> bool:
        """The End-turn button was held down: whether a waiting window took it (then it is
        not an end of turn, and the asking tablet may collect its token)."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            window = self._open(now)
            if window is None:
                return False
            window.pressed = True
            self._signal(None)
            self._say(PAIRED, now)
        self._changed()
        return True

    def ended_turn(self) -> bool:
        """The End-turn button was pressed (not held) to end the turn: whether a tablet is
        asking (then the page says the press ended the turn, and how to let the tablet in)."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            if self._open(now) is None:
                return False
            self._say(ENDED_TURN, now)
        self._changed()
        return True

    def claim(self, pairing_id: str, asker: str = "") -> Claim:
        """The asking tablet's view of its window; a pressed one gives it its token (once).

        :raises PairingUnknown: no such window for ``asker`` (never opened, another tablet's,
            collected, or long over).
        """
        with self._lock:
            now = self.clock()
            self._expire(now)
            window = self._windows.get(pairing_id)
            if window is None or window.asker != asker:
                raise PairingUnknown()
            if window.pressed:
                token = self._grant()
                del self._windows[pairing_id]
                return Claim("granted", token=token)
            if now >= window.closes:
                del self._windows[pairing_id]
                return Claim("expired")
            return Claim("waiting", seconds_left=math.ceil(window.closes - now))

    def cancel(self, pairing_id: str, asker: str = "") -> None:
        """The tablet gave up: its window closes (nothing happens for an unknown id)."""
        with self._lock:
            window = self._windows.get(pairing_id)
            if window is None or window.asker != asker:
                return
            del self._windows[pairing_id]
            self._expire(self.clock())
        self._changed()

    def tick(self) -> None:
        """Close windows whose time is up (the LEDs stop blinking)."""
        with self._lock:
            before = self.generation
            self._expire(self.clock())
            changed = self.generation != before
        if changed:
            self._changed()

    @property
    def waiting(self) -> bool:
        """Whether a window waits for the button now."""
        with self._lock:
            return self._open(self.clock()) is not None

    @property
    def notice(self) -> dict[str, Any]:
        """What the table's page says: whether a tablet is asking, and what the last press of
        End turn did while one was (``said``, for :data:`NOTICE_SECONDS`)."""
        with self._lock:
            return {
                "waiting": self._blinking,
                "asking": WAITING if self._blinking else None,
                "said": self._said[0] if self._said is not None else None,
                "serial": self.generation,
                "hold_seconds": HOLD_SECONDS,
            }

    def _open(self, now: float) -> Window | None:
        """The window waiting for a press now, if any (there is at most one)."""
        return next((w for w in self._windows.values() if not w.pressed and now < w.closes), None)

    def _expire(self, now: float) -> None:
        for pairing_id, window in list(self._windows.items()):
            if now >= window.closes + GRACE_SECONDS:
                del self._windows[pairing_id]
        if self._open(now) is None:
            self._signal(None)
        if self._said is not None and now >= self._said[1] + NOTICE_SECONDS:
            self._say(None, now)

    def _say(self, said: str | None, now: float) -> None:
        self._said = None if said is None else (said, now)
        self.generation += 1

    def _signal(self, code: Code | None) -> None:
        on = code is not None
        if on != self._blinking:
            self._blinking = on
            self.generation += 1
            self._waiting(on, code or ())
