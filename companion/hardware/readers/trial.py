"""Taps on one zone through the table's own reader loop, timed: card laid -> arrival event,
card lifted -> left event.

The reader is :class:`~companion.hardware.readers.nfc_zone.NfcZoneReader`, as the table runs
it. A :data:`Prompt` asks for each move (a person at a terminal, a test moving a simulated
card, a rig) and returns the moment the card moved if it knows it; a person's moment is not
known, so it is estimated from the reader's polls: the card was laid between the last poll
that did not see it and the one that did (half a period either way), and lifted between the
last poll that saw it and the first that missed it.
"""

from __future__ import annotations

import queue
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from companion.hardware.checkup import Series
from companion.hardware.readers.base import Clock, Health, TagRead
from companion.hardware.readers.nfc_zone import NfcZoneReader

__all__ = ["Move", "Prompt", "TapTrial", "TrialResult"]

Move = Literal["lay", "lift"]
#: ``prompt(zone, move, words)``: have a card laid on (or lifted from) ``zone``, saying
#: ``words`` to a person; returns the clock time it was done if known (a test, a rig), else None
Prompt = Callable[[str, Move, str], float | None]


class _PollLog(Health):
    """A zone's health that also keeps when its last polls ended."""

    def __init__(self, zone: str, clock: Clock) -> None:
        super().__init__(zone, clock)
        self.ends: deque[float] = deque(maxlen=256)

    def polled(self) -> None:
        super().polled()
        self.ends.append(self.clock())


@dataclass
class TrialResult:
    place_to_event: list[float] = field(default_factory=list)  #: seconds, one per tap
    removal: list[float] = field(default_factory=list)  #: seconds, one per lift
    #: whether the moments were estimated from the polls (a person) rather than known
    estimated: bool = False
    #: what stopped the trial early (a card never laid, a reader that never polled)
    stopped: str | None = None

    @property
    def places(self) -> Series:
        return Series.of(self.place_to_event)

    @property
    def removals(self) -> Series:
        return Series.of(self.removal)


class TapTrial:
    """Run ``taps`` lay-and-lift cycles on a zone whose card already rests on the antenna:
    lift, lay again, ..., lift. ``timeout``: seconds to wait for each move."""

    def __init__(
        self,
        zone: str,
        path: str,
        prompt: Prompt,
        *,
        timeout: float,
        clock: Clock = time.monotonic,
        empty_poll: float | None = None,
    ) -> None:
        self.zone = zone
        self.prompt = prompt
        self.timeout = timeout
        self.clock = clock
        self._reads: queue.Queue[TagRead] = queue.Queue()
        #: uids seen so far: a card laid again is one the table knows, as in a game, so its
        #: arrival is timed on the path a bound card takes (no card-id READs)
        self._seen: set[str] = set()
        self.reader = NfcZoneReader(
            zone, self._reads.put, clock, path=path, known=self._seen.__contains__
        )
        self._log = _PollLog(zone, clock)
        self.reader.health = self._log
        #: seconds an empty poll takes (measured before), for a person's estimate
        self.empty_poll = empty_poll

    def run(self, taps: int) -> TrialResult:
        result = TrialResult()
        self.reader.start()
        try:
            if self._next("arrived") is None:  # the resting card, seen at the first poll
                result.stopped = "the reader never saw the card lying on it"
                return result
            for tap in range(taps + 1):
                if not self._lift(result):
                    return result
                if tap < taps and not self._lay(result):
                    return result
        finally:
            self.reader.stop()
        return result

    def _lift(self, result: TrialResult) -> bool:
        return self._move(
            result,
            "lift",
            f"Lift the card off {self.zone}.",
            f"the card was not lifted off {self.zone} within {self.timeout:g} s",
        )

    def _lay(self, result: TrialResult) -> bool:
        return self._move(
            result,
            "lay",
            f"Lay the card on {self.zone} again, flat.",
            f"no card was laid on {self.zone} within {self.timeout:g} s",
        )

    def _move(self, result: TrialResult, move: Move, words: str, missed: str) -> bool:
        """Have the card laid or lifted and time the read it makes: the arrival (``lay``) or
        the departure (``lift``) after the moment the card moved, known or estimated."""
        moved = self.prompt(self.zone, move, words)
        read = self._next("arrived" if move == "lay" else "left")
        if read is None:
            result.stopped = missed
            return False
        if moved is None:
            result.estimated = True
            estimate = self._estimated_lay if move == "lay" else self._estimated_lift
            moved = estimate(read.at)
        # an estimate can land after the event when polls run late: never below nothing
        times = result.place_to_event if move == "lay" else result.removal
        times.append(max(0.0, read.at - moved))
        return True

    def _next(self, kind: str) -> TagRead | None:
        deadline = self.clock() + self.timeout
        while (left := deadline - self.clock()) > 0:
            try:
                read = self._reads.get(timeout=left)
            except queue.Empty:
                return None
            if read.kind == "arrived":
                self._seen.add(read.uid)
            if read.kind == kind:
                return read
        return None

    def _estimated_lay(self, at: float) -> float:
        """Halfway between the last poll that did not see the card and the next; where the
        chip waited for it (no polls to go by: it was found on the chip's next try), about
        half an empty sense before the read: its activation and the answer's round trips."""
        if self.reader.chip_waits:
            return at - (self.empty_poll or 0.0) / 2
        period = self.reader.presence.empty_period
        before = [end for end in self._log.ends if end < at]
        if not before:
            return at - period / 2
        gap = max(0.0, period - (self.empty_poll or 0.0))
        return before[-1] + gap / 2

    def _estimated_lift(self, at: float) -> float:
        """Halfway between the last poll that saw the card and the next (the first miss)."""
        presence = self.reader.presence
        before = [end for end in self._log.ends if end < at]
        misses_before = presence.misses_to_leave - 1  # the last miss delivers the event
        if len(before) <= misses_before:
            return at - presence.present_period * (misses_before + 0.5)
        return before[-1 - misses_before] + presence.present_period / 2
