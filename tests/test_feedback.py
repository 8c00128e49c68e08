from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import LED, Device, GPIOPinInUse

from companion.hardware.config import HardwareConfig
from companion.hardware.feedback import (
    Feedback,
    FeedbackError,
    FeedbackView,
    NullFeedback,
    led_states,
    open_feedback,
)
from companion.hardware.pinmap import PinMap, build_pin_map
from companion.table.config import load_table_config
from tests.waiting import eventually

EXAMPLE = Path(__file__).resolve().parent.parent / "hardware" / "table.example.toml"
PINS = build_pin_map(
    "test", {"base-1": 17, "base-2": 27, "base-3": 22}, 18, {"end-turn": 23, "undo": 24}
)

BEEP = 0.01


@pytest.fixture
def feedback(factory: Any) -> Iterator[Feedback]:
    feedback = Feedback(PINS, pin_factory=factory, beep_time=BEEP, blink_time=0.02)
    yield feedback
    feedback.close()


def view(
    ready: tuple[str, ...] = (), prompts: tuple[str | None, ...] = (), winner: str | None = None
) -> FeedbackView:
    waiting = frozenset(zone for zone in prompts if zone is not None)
    return FeedbackView(frozenset(ready), waiting, won=winner is not None)


def states(factory: Any, pin: int) -> list[bool]:
    return [bool(s.state) for s in factory.pin(pin).states]


def switched_on(factory: Any, pin: int) -> int:
    history = states(factory, pin)
    return sum(
        1 for before, after in zip(history, history[1:], strict=False) if after and not before
    )


def test_led_states_is_pure_and_blinking_wins() -> None:
    zones = ("base-1", "base-2", "base-3")
    assert led_states(view(), zones) == dict.fromkeys(zones, "off")
    wanted = led_states(view(ready=("base-1", "base-2"), prompts=("base-2", None)), zones)
    assert wanted == {"base-1": "on", "base-2": "blink", "base-3": "off"}
    assert set(led_states(view(winner="Ann"), zones).values()) == {"on"}


def test_led_lit_while_ready(feedback: Feedback, factory: Any) -> None:
    feedback.show(view(ready=("base-2",)))
    assert factory.pin(27).state
    assert not factory.pin(17).state and not factory.pin(22).state
    feedback.show(view())
    assert not factory.pin(27).state
    assert states(factory, 27) == [False, True, False]


def test_pins_change_only_when_the_wanted_state_changes(feedback: Feedback, factory: Any) -> None:
    for _ in range(3):
        feedback.show(view(ready=("base-1",)))
    assert states(factory, 17) == [False, True]
    assert states(factory, 27) == [False]


def test_led_blinks_while_a_prompt_waits(feedback: Feedback, factory: Any) -> None:
    feedback.show(view(ready=("base-3",), prompts=("base-3",)))
    assert feedback.current_leds == {"base-1": "off", "base-2": "off", "base-3": "blink"}
    eventually(lambda: switched_on(factory, 22) >= 3, timeout=2, what="gpiozero blinking the LED")
    feedback.show(view(ready=("base-3",)))
    assert feedback.current_leds["base-3"] == "on"
    assert factory.pin(22).state
    factory.pin(22).clear_states()
    time.sleep(0.1)  # long enough for several blinks: the LED must stay steady
    assert states(factory, 22) == [True]


def beeps_asked(feedback: Feedback, monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """From now on, the beep counts asked of gpiozero's buzzer (asked at once, in the caller's
    thread: no beep asked by the time ``show`` returns is no beep at all)."""
    asked: list[int | None] = []
    buzzer = feedback._buzzer
    assert buzzer is not None
    real = buzzer.beep

    def beep(on: float, off: float, n: int | None, background: bool) -> None:
        asked.append(n)
        real(on, off, n, background)

    monkeypatch.setattr(buzzer, "beep", beep)
    return asked


def test_winner_lights_everything_and_plays_once(
    feedback: Feedback, factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    feedback.show(view())
    feedback.show(view(winner="Ann"))
    assert all(factory.pin(pin).state for pin in (17, 27, 22))
    eventually(
        lambda: switched_on(factory, 18) == 3 and not factory.pin(18).state,
        timeout=2,
        what="gpiozero playing the fanfare",
    )
    factory.pin(18).clear_states()
    asked = beeps_asked(feedback, monkeypatch)
    feedback.show(view(winner="Ann"))
    assert asked == [] and states(factory, 18) == [False]


def test_no_fanfare_for_a_game_already_won_at_start(
    feedback: Feedback, factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = beeps_asked(feedback, monkeypatch)
    feedback.show(view(winner="Ann"))
    assert asked == [] and states(factory, 18) == [False]
    feedback.show(view())
    feedback.show(view(winner="Ann"))  # a winner after a game without one: the fanfare
    assert asked == [3]


def test_buzzer_patterns_differ(feedback: Feedback, factory: Any) -> None:
    buzzer = factory.pin(18)
    feedback.accepted()
    eventually(lambda: len(buzzer.states) == 3, timeout=2, what="one beep")
    accepted = states(factory, 18)
    buzzer.clear_states()
    feedback.ignored()
    eventually(lambda: len(buzzer.states) == 5, timeout=2, what="two beeps")
    ignored = states(factory, 18)
    assert accepted == [False, True, False]
    assert ignored == [False, True, False, True, False]


def test_beeps_last_the_configured_time(feedback: Feedback, monkeypatch: Any) -> None:
    """How long a beep lasts is asked of gpiozero (not measured on a busy machine's clock)."""
    asked: list[tuple[float, float, int | None]] = []
    buzzer = feedback._buzzer
    assert buzzer is not None
    monkeypatch.setattr(buzzer, "beep", lambda on, off, n, background: asked.append((on, off, n)))
    feedback.accepted()
    feedback.ignored()
    feedback.won()
    assert asked == [(BEEP, BEEP, 1), (BEEP, BEEP, 2), (BEEP * 5, BEEP * 2, 3)]


def test_buttons_call_the_callbacks(feedback: Feedback, factory: Any) -> None:
    calls: list[str] = []
    feedback.on_end_turn = lambda: calls.append("end-turn")
    feedback.on_undo = lambda: calls.append("undo")
    factory.pin(23).drive_low()
    factory.pin(23).drive_high()
    eventually(lambda: calls == ["end-turn"], timeout=2, what="the end-turn callback")
    factory.pin(24).drive_low()
    factory.pin(24).drive_high()
    eventually(lambda: calls == ["end-turn", "undo"], timeout=2, what="the undo callback")


def test_button_without_callback_or_failing_callback(
    feedback: Feedback, factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    factory.pin(23).drive_low()  # nobody listening: nothing happens
    factory.pin(23).drive_high()

    def broken() -> None:
        raise RuntimeError("boom")

    feedback.on_undo = broken
    with caplog.at_level(logging.ERROR, logger="companion.hardware.feedback"):
        factory.pin(24).drive_low()
        eventually(
            lambda: "undo button callback failed" in caplog.text,
            timeout=2,
            what="the failing callback logged",
        )
    factory.pin(24).drive_high()


def test_close_releases_pins(factory: Any) -> None:
    feedback = Feedback(PINS, pin_factory=factory)
    feedback.show(view(prompts=("base-1",)))
    with pytest.raises(GPIOPinInUse):
        LED(17, pin_factory=factory)
    feedback.close()
    feedback.close()  # twice is fine
    leds = [LED(pin, pin_factory=factory) for _, pin in PINS.pins()]
    assert len(leds) == len(list(PINS.pins())) == 6
    for led in leds:
        led.close()
    feedback.accepted()  # after close: harmless no-ops
    feedback.show(view(ready=("base-1",)))


def test_pin_in_use_is_a_feedback_error_and_releases_the_rest(factory: Any) -> None:
    holder = LED(22, pin_factory=factory)
    with pytest.raises(FeedbackError, match=r"^test: cannot set up the GPIO pins \(GPIOPinInUse"):
        Feedback(PINS, pin_factory=factory)
    holder.close()
    LED(17, pin_factory=factory).close()  # base-1's LED was released again


def test_only_configured_roles_get_devices(factory: Any) -> None:
    feedback = Feedback(build_pin_map("t", {"base-1": 17}, None, {}), pin_factory=factory)
    feedback.accepted()  # no buzzer: nothing to do
    feedback.show(view(ready=("base-1", "base-2")))
    assert feedback.current_leds == {"base-1": "on"}
    feedback.close()


def test_null_feedback_does_nothing() -> None:
    """A machine without GPIO: no device is claimed, nothing fires, every call is harmless."""
    pressed: list[str] = []
    null = NullFeedback()
    null.on_undo = lambda: pressed.append("undo")
    null.on_end_turn = lambda: pressed.append("end-turn")
    for call in (null.accepted, null.ignored, null.failed, lambda: null.pairing(True)):
        assert call() is None
    null.show(view(ready=("base-1",)))
    null.close()
    null.show(view(ready=("base-1",)))  # after close too: the table may still announce
    assert pressed == []
    assert null.buttons == frozenset()
    assert not [value for value in vars(null).values() if isinstance(value, Device)]


def test_open_feedback_picks_by_pins(factory: Any) -> None:
    assert isinstance(open_feedback(HardwareConfig.simulated()), NullFeedback)
    assert isinstance(open_feedback(PinMap()), NullFeedback)
    config = load_table_config(EXAMPLE).hardware
    real = open_feedback(config, pin_factory=factory)
    assert isinstance(real, Feedback)
    real.show(view(ready=("base-1",)))
    assert factory.pin(17).state
    real.close()
    Feedback.from_config(config, pin_factory=factory).close()


def test_pairing_blinks_every_led_then_the_game_shows_again(feedback: Feedback) -> None:
    feedback.show(view(ready=("base-1",)))
    assert feedback.current_leds == {"base-1": "on", "base-2": "off", "base-3": "off"}
    feedback.pairing(True)
    assert set(feedback.current_leds.values()) == {"pairing"}
    feedback.show(view(ready=("base-2",), prompts=("base-3",)))  # the game goes on meanwhile
    assert set(feedback.current_leds.values()) == {"pairing"}
    feedback.pairing(False)
    assert feedback.current_leds == {"base-1": "off", "base-2": "on", "base-3": "blink"}
    assert feedback.buttons == frozenset({"end-turn", "undo"})
    assert NullFeedback().buttons == frozenset()
