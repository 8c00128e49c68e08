"""An InListPassiveTarget that found no card at once: the PN532 keeps searching. Pure.

With MxRtyPassiveActivation = n (RFConfiguration item 5) the chip makes n + 1 activation tries
and then answers "no target"; with 0xFF (its power-on default) it tries until a card answers or
the host aborts the command with an ACK frame (``shared/reference/pn532-timing.md`` §1.1). The
field stays on between tries, so the field-on guard is paid once, before the first. A card that
comes into the field is found by the first try that starts after it arrived, and answers after
its activation (REQA to SAK).

Times here are modelled seconds since the chip began the command's RF work (after its
firmware time): the emulator maps them onto its clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Search:
    """A search still running. ``tries`` is None for an endless one (0xFF)."""

    wanted: bytes | None  #: the uid asked for (InListPassiveTarget's initiator data), or any
    tries: int | None
    guard_s: float  #: field-on guard before the first try (0 if the field was on)
    try_s: float  #: one empty try
    activation_s: float  #: REQA to SAK of a card that answers

    @property
    def ends_s(self) -> float | None:
        """When a finite search gives up and answers "no target" (None: never)."""
        return None if self.tries is None else self.guard_s + self.tries * self.try_s

    def next_try_s(self, arrived_s: float) -> float | None:
        """When the first try that starts at or after ``arrived_s`` starts (None: the search
        has given up by then)."""
        if arrived_s <= self.guard_s or self.try_s <= 0:
            start = max(self.guard_s, arrived_s) if self.try_s <= 0 else self.guard_s
        else:
            start = self.guard_s + math.ceil((arrived_s - self.guard_s) / self.try_s) * self.try_s
        ends = self.ends_s
        if ends is not None and (start >= ends if self.try_s > 0 else arrived_s > ends):
            return None
        return start

    def answered_s(self, arrived_s: float) -> float | None:
        """When the chip has a card that came into the field at ``arrived_s`` activated (None:
        the search gave up before a try could meet it)."""
        start = self.next_try_s(arrived_s)
        return None if start is None else start + self.activation_s
