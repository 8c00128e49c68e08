"""Feedback at the table through gpiozero: zone LEDs, a buzzer and two buttons.

* a zone's LED is lit while its base is ready to score, and blinks while a prompt waits at that
  zone (blinking wins); once the game has a winner every LED is lit. What the game is, the
  table tells it as a :class:`FeedbackView` (which zones, whether won): hardware never reads
  a state document;
* the buzzer beeps once for an accepted tap (:meth:`Feedback.accepted`), twice for an ignored or
  ambiguous one (:meth:`Feedback.ignored`), one long beep when a tap could not be stored
  (:meth:`Feedback.failed`), and three long beeps when the game is won;
* the "undo" button calls :attr:`Feedback.on_undo` when pressed; the "end-turn" button calls
  :attr:`Feedback.on_end_turn_held` once held down for ``hold_time`` seconds and, when released,
  :attr:`Feedback.on_end_turn` unless the hold was taken (a tablet let in to pair);
* while a tablet asks to pair (:meth:`Feedback.pairing`), every zone LED blinks fast, whatever
  the game shows, and the buzzer beeps the tablet's code (a group of beeps per digit, again every
  few seconds); the game's LEDs come back when pairing ends. :meth:`Feedback.paired`: the code
  once more, the hold let that tablet in.

Pins come from a :class:`~companion.hardware.pinmap.PinMap` (a table's hardware ``pins``).
The gpiozero pin factory is injectable: ``None`` uses gpiozero's default (lgpio on a Pi), tests pass
``MockFactory(pin_class=MockPWMPin)``. :class:`NullFeedback` does nothing, for a machine
without GPIO; :func:`open_feedback` picks it when no pins are configured (and gpiozero is then
not imported: a table without pins, the demo among them, does not carry it).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Literal, Protocol

from companion.errors import CompanionError
from companion.hardware.config import HardwareConfig
from companion.hardware.pinmap import PinMap

__all__ = [
    "Feedback",
    "FeedbackError",
    "FeedbackView",
    "LedShown",
    "LedState",
    "NullFeedback",
    "TableFeedback",
    "led_states",
    "open_feedback",
]

log = logging.getLogger(__name__)

LedState = Literal["off", "on", "blink"]
#: what a zone LED shows: a game state, or the fast blink of a tablet waiting to pair
LedShown = LedState | Literal["pairing"]
Callback = Callable[[], None]
#: seconds between two plays of a pairing code
CODE_PAUSE = 3.0


class FeedbackError(CompanionError, OSError):
    """The GPIO devices cannot be set up (no pin factory on this machine, a pin in use)."""


@dataclass(frozen=True, slots=True)
class FeedbackView:
    """What the lights and the buzzer show of the game (the table builds it from the state)."""

    ready: frozenset[str] = frozenset()
    """The zones whose base is ready to score."""
    waiting: frozenset[str] = frozenset()
    """The zones where a prompt waits for the players."""
    won: bool = False
    """Whether the game has a winner."""


class TableFeedback(Protocol):
    """What the rest of the companion uses: :class:`Feedback` or :class:`NullFeedback`."""

    on_end_turn: Callback | None
    on_end_turn_held: Callable[[], bool] | None
    on_undo: Callback | None

    @property
    def buttons(self) -> frozenset[str]: ...
    def accepted(self) -> None: ...
    def ignored(self) -> None: ...
    def failed(self) -> None: ...
    def show(self, view: FeedbackView) -> None: ...
    def pairing(self, waiting: bool, code: tuple[int, ...] = ()) -> None: ...
    def paired(self) -> None: ...
    def close(self) -> None: ...


class _Output(Protocol):  # the parts of gpiozero's LED and Buzzer we use
    def on(self) -> None: ...
    def off(self) -> None: ...
    def blink(self, on_time: float, off_time: float, n: int | None, background: bool) -> None: ...
    def close(self) -> None: ...


class _Buzzer(_Output, Protocol):
    def beep(self, on_time: float, off_time: float, n: int | None, background: bool) -> None: ...


class _Button(Protocol):
    when_pressed: Callback | None
    when_held: Callback | None
    when_released: Callback | None

    def close(self) -> None: ...


def led_states(view: FeedbackView, zones: Iterable[str]) -> dict[str, LedState]:
    """The wanted LED state of each of ``zones`` for what the game shows (pure)."""
    states: dict[str, LedState] = {}
    for zone in zones:
        if zone in view.waiting:
            states[zone] = "blink"
        elif zone in view.ready or view.won:
            states[zone] = "on"
        else:
            states[zone] = "off"
    return states


class NullFeedback:
    """Feedback that does nothing (no GPIO on this machine); the buttons never fire."""

    def __init__(self) -> None:
        self.on_end_turn: Callback | None = None
        self.on_end_turn_held: Callable[[], bool] | None = None
        self.on_undo: Callback | None = None

    @property
    def buttons(self) -> frozenset[str]:
        return frozenset()

    def accepted(self) -> None:
        """Nothing to beep."""

    def ignored(self) -> None:
        """Nothing to beep."""

    def failed(self) -> None:
        """Nothing to beep."""

    def show(self, view: FeedbackView) -> None:
        """Nothing to light."""

    def pairing(self, waiting: bool, code: tuple[int, ...] = ()) -> None:
        """Nothing to blink."""

    def paired(self) -> None:
        """Nothing to beep."""

    def close(self) -> None:
        """Nothing to release."""


class Feedback:
    """gpiozero devices for the pins of a :class:`PinMap` (roles without a pin are skipped).

    :param pin_factory: a gpiozero pin factory, or None for gpiozero's default.
    :param bounce_time: button debounce, seconds (gpiozero ``bounce_time``).
    :param beep_time: length of one short beep, seconds.
    :param blink_time: on and off time of a blinking LED, seconds.
    :param hold_time: how long End turn is held down to let a pairing tablet in, seconds.
    :raises FeedbackError: when gpiozero cannot set up a pin.
    """

    def __init__(
        self,
        pins: PinMap,
        *,
        pin_factory: Any = None,
        bounce_time: float = 0.05,
        beep_time: float = 0.06,
        blink_time: float = 0.25,
        hold_time: float = 2.0,
    ) -> None:
        self.on_end_turn: Callback | None = None
        self.on_end_turn_held: Callable[[], bool] | None = None
        self.on_undo: Callback | None = None
        self.beep_time = beep_time
        self.blink_time = blink_time
        self._lock = threading.Lock()
        self._leds: dict[str, _Output] = {}
        self._buzzer: _Buzzer | None = None
        self._buttons: dict[str, _Button] = {}
        self._states: dict[str, LedShown] = {}
        self._won = False
        self._shown = False
        self._pairing = False
        self._code: tuple[int, ...] = ()
        self._code_stop = threading.Event()
        self._hold_taken = False
        self._hold_lock = threading.Lock()
        self._view = FeedbackView()
        # imported by name, for a table with pins only: 2 MB resident the rest never uses
        gpiozero = import_module("gpiozero")
        try:
            for zone, pin in pins.leds:
                self._leds[zone] = gpiozero.LED(pin, pin_factory=pin_factory)
                self._states[zone] = "off"
            if pins.buzzer is not None:
                self._buzzer = gpiozero.Buzzer(pins.buzzer, pin_factory=pin_factory)
            for name, pin in pins.buttons:
                button: _Button = gpiozero.Button(
                    pin, bounce_time=bounce_time, hold_time=hold_time, pin_factory=pin_factory
                )
                if name == "end-turn":  # a short press ends the turn, a hold may pair
                    button.when_pressed = self._end_turn_down
                    button.when_held = self._end_turn_held
                    button.when_released = self._end_turn_up
                else:
                    button.when_pressed = self._handler(name)
                self._buttons[name] = button
        except gpiozero.GPIOZeroError as exc:
            self.close()
            raise FeedbackError(
                f"{pins.source}: cannot set up the GPIO pins ({type(exc).__name__}: {exc}); on a "
                "machine without GPIO leave the pins out of the table config"
            ) from exc

    @classmethod
    def from_config(cls, config: HardwareConfig, *, pin_factory: Any = None) -> Feedback:
        return cls(config.pins, pin_factory=pin_factory)

    @property
    def buttons(self) -> frozenset[str]:
        """The buttons this table has (``end-turn``, ``undo``)."""
        with self._lock:
            return frozenset(self._buttons)

    @property
    def current_leds(self) -> dict[str, LedShown]:
        """The state each zone LED was last set to."""
        with self._lock:
            return dict(self._states)

    def _handler(self, name: str) -> Callback:
        def pressed() -> None:
            callback = self.on_end_turn if name == "end-turn" else self.on_undo
            if callback is None:
                return
            try:
                callback()
            except Exception:  # a failing callback must not kill gpiozero's event thread
                log.exception("the %s button callback failed", name)

        return pressed

    def _end_turn_down(self) -> None:
        with self._hold_lock:
            self._hold_taken = False

    def _end_turn_held(self) -> None:
        callback = self.on_end_turn_held
        with self._hold_lock:  # a release meanwhile waits to learn whether the hold was taken
            try:
                self._hold_taken = callback is not None and callback()
            except Exception:  # a failing callback must not kill gpiozero's event thread
                log.exception("the end-turn hold callback failed")

    def _end_turn_up(self) -> None:
        with self._hold_lock:
            taken, self._hold_taken = self._hold_taken, False
        if not taken:
            self._handler("end-turn")()

    def _beep(self, on_time: float, off_time: float, n: int) -> None:
        with self._lock:
            if self._buzzer is not None:
                self._buzzer.beep(on_time, off_time, n, True)

    def accepted(self) -> None:
        """One short beep: the tap was taken."""
        self._beep(self.beep_time, self.beep_time, 1)

    def ignored(self) -> None:
        """Two short beeps: the tap was ignored or is ambiguous (a prompt explains)."""
        self._beep(self.beep_time, self.beep_time, 2)

    def failed(self) -> None:
        """One long beep: the table could not store the tap (the dashboard says why)."""
        self._beep(self.beep_time * 8, self.beep_time, 1)

    def won(self) -> None:
        """Three long beeps: the game has a winner."""
        self._beep(self.beep_time * 5, self.beep_time * 2, 3)

    def show(self, view: FeedbackView) -> None:
        """Set the zone LEDs from what the game shows; pins change only when a wanted state
        does. The first view of a won game after one that was not plays :meth:`won`."""
        with self._lock:
            just_won = self._shown and view.won and not self._won
            self._shown, self._won = True, view.won
            self._view = view
            if not self._pairing:
                self._light(led_states(view, self._leds))
        if just_won:
            self.won()

    def pairing(self, waiting: bool, code: tuple[int, ...] = ()) -> None:
        """Every zone LED blinks fast while a tablet waits for the End-turn button, and the
        buzzer beeps its ``code`` every :data:`CODE_PAUSE` seconds; then the LEDs show the
        game again."""
        with self._lock:
            if waiting == self._pairing:
                return
            self._pairing = waiting
            self._code_stop.set()
            if waiting:
                for zone, led in self._leds.items():
                    led.blink(self.blink_time / 2, self.blink_time / 2, None, True)
                    self._states[zone] = "pairing"
                self._code, self._code_stop = code, threading.Event()
                if code and self._buzzer is not None:
                    threading.Thread(
                        target=self._beep_code,
                        args=(code, self._code_stop),
                        name="pairing-code",
                        daemon=True,
                    ).start()
            else:
                self._light(led_states(self._view, self._leds))

    def paired(self) -> None:
        """The last code once more: the hold let the tablet showing it in."""
        if self._code:
            threading.Thread(
                target=self._beep_code,
                args=(self._code, threading.Event(), False),
                name="paired-code",
                daemon=True,
            ).start()

    def _beep_code(self, code: tuple[int, ...], stop: threading.Event, again: bool = True) -> None:
        """A group of short beeps per digit (3-1-2: ●●● ● ●●), a pause, again until ``stop``."""
        beep = self.beep_time * 2
        while not stop.is_set():
            for digit in code:
                # In the background and under the lock, as every other beep: a foreground beep
                # outside it raced a tap's beep inside gpiozero (its blink thread lost).
                with self._lock:
                    buzzer = self._buzzer
                    if buzzer is None or stop.is_set():
                        return
                    try:
                        buzzer.beep(beep, beep, digit, True)
                    except Exception:  # closed meanwhile (the table is stopping)
                        return
                stop.wait(beep * 2 * digit + beep * 4)  # the group's beeps, then a gap
            if not again:
                return
            stop.wait(CODE_PAUSE)

    def _light(self, states: Mapping[str, LedState]) -> None:
        """Set each LED whose wanted state differs from its current one (lock held)."""
        for zone, state in states.items():
            if self._states[zone] == state:
                continue
            led = self._leds[zone]
            if state == "blink":
                led.blink(self.blink_time, self.blink_time, None, True)
            elif state == "on":
                led.on()
            else:
                led.off()
            self._states[zone] = state

    def close(self) -> None:
        """Stop blinking and beeping and release every pin (safe to call twice)."""
        self._code_stop.set()
        with self._lock:
            devices: list[_Output | _Button] = [*self._leds.values(), *self._buttons.values()]
            if self._buzzer is not None:
                devices.append(self._buzzer)
            for device in devices:
                device.close()
            self._leds.clear()
            self._buttons.clear()
            self._buzzer = None
            self._states.clear()


def open_feedback(source: HardwareConfig | PinMap, *, pin_factory: Any = None) -> TableFeedback:
    """:class:`Feedback` for the pins of a table's hardware or a pin map, or
    :class:`NullFeedback` when it has none.

    :raises FeedbackError: when pins are configured but gpiozero cannot set them up.
    """
    pins = source.pins if isinstance(source, HardwareConfig) else source
    if pins.is_empty:
        return NullFeedback()
    return Feedback(pins, pin_factory=pin_factory)
