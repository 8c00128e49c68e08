"""Debounce and cross-zone reads, with the reads' own times (no clock, no sleeps)."""

from __future__ import annotations

from companion.hardware.readers.base import TagRead
from companion.hardware.readers.taps import Crosstalk, Ignored, Tap, TapFilter


def arrive(zone: str, at: float, uid: str = "04AA") -> TagRead:
    return TagRead(zone, uid, "arrived", at)


def leave(zone: str, at: float, uid: str = "04AA") -> TagRead:
    return TagRead(zone, uid, "left", at)


def taps(outputs: list) -> list[tuple[str, str]]:
    return [(o.zone, o.uid) for o in outputs if isinstance(o, Tap)]


def run(reads: list[TagRead], end: float | None = None) -> list:
    tap_filter = TapFilter()
    outputs: list = []
    for read in reads:
        outputs += tap_filter.poll(read.at)
        outputs += tap_filter.feed(read)
    if end is not None:
        outputs += tap_filter.poll(end)
    return outputs


def test_a_plain_tap() -> None:
    assert taps(run([arrive("base-1", 0.0), leave("base-1", 2.0)])) == [("base-1", "04AA")]


def test_a_tag_flapping_at_20_hz_for_two_seconds_is_one_tap() -> None:
    reads = []
    for n in range(40):
        reads.append(arrive("base-1", n * 0.05))
        reads.append(leave("base-1", n * 0.05 + 0.025))
    outputs = run(reads)
    assert taps(outputs) == [("base-1", "04AA")]
    assert sum(isinstance(o, Ignored) for o in outputs) == 39


def test_coming_back_later_is_a_new_tap() -> None:
    outputs = run([arrive("base-1", 0.0), leave("base-1", 1.0), arrive("base-1", 5.0)])
    assert taps(outputs) == [("base-1", "04AA"), ("base-1", "04AA")]


def test_two_cards_at_one_zone_are_two_taps() -> None:
    outputs = run(
        [arrive("base-1", 0.0, "A"), leave("base-1", 0.3, "A"), arrive("base-1", 0.5, "B")]
    )
    assert taps(outputs) == [("base-1", "A"), ("base-1", "B")]


def test_slid_across_two_zones_stays_on_the_second_one_tap_there() -> None:
    outputs = run([arrive("base-1", 0.0), arrive("base-2", 0.3), leave("base-1", 0.6)])
    assert taps(outputs) == [("base-1", "04AA"), ("base-2", "04AA")]


def test_blip_on_a_neighbour_is_ignored() -> None:
    outputs = run([arrive("base-1", 0.0), arrive("base-2", 0.2), leave("base-2", 0.4)], end=5.0)
    assert taps(outputs) == [("base-1", "04AA")]
    assert not any(isinstance(o, Crosstalk) for o in outputs)


def test_left_first_zone_then_read_next_door_at_once_is_one_tap() -> None:
    outputs = run([arrive("base-1", 0.0), leave("base-1", 0.3), arrive("base-2", 0.5)])
    assert taps(outputs) == [("base-1", "04AA")]


def test_read_on_two_zones_for_long_asks_a_person() -> None:
    outputs = run([arrive("base-1", 0.0), arrive("base-2", 0.2)], end=2.0)
    assert taps(outputs) == [("base-1", "04AA")]
    asked = [o for o in outputs if isinstance(o, Crosstalk)]
    assert [(c.first, c.second) for c in asked] == [("base-1", "base-2")]


def test_a_move_long_after_the_tap_is_a_tap() -> None:
    outputs = run([arrive("base-1", 0.0), leave("base-1", 1.0), arrive("base-2", 20.0)])
    assert taps(outputs) == [("base-1", "04AA"), ("base-2", "04AA")]
