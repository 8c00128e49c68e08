"""What `companion doctor` reports: one line per thing checked, each measured, set against
the range expected of it, given a verdict and, where it is not fine, a fix in plain words.

Pure: values, the verdict rules and the statistics of a series of timings (no I/O, no clock).
The expected ranges come from ``shared/reference/pn532-timing.md`` (research notes; no real
PN532 was used for them), which is why a measurement outside them is first a warning and only
well outside them a failure.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Check", "Limits", "Series", "Verdict", "ok", "skipped"]


class Verdict(enum.Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "fail"
    #: not measured: not applicable here, or the person asked to skip it (``--no-cards``)
    SKIP = "skip"


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report.

    :ivar subject: what it is about: a zone name, or ``table`` for the table as a whole
    :ivar name: what was checked, e.g. ``link round trip``
    :ivar measured: what was found, in words with its unit (``"1.2 ms p50, 200 tries"``)
    :ivar expected: the range expected, in words (``"0.6-4 ms"``)
    :ivar fix: what to do, for a person who is not a programmer (empty when all is well)
    :ivar value: the measured number for scripts (ms, a rate, ...), None where there is none
    """

    subject: str
    name: str
    verdict: Verdict
    measured: str
    expected: str = ""
    fix: str = ""
    value: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "check": self.name,
            "verdict": self.verdict.value,
            "measured": self.measured,
            "value": self.value,
            "expected": self.expected,
            "fix": self.fix,
            **({"details": self.details} if self.details else {}),
        }


def ok(subject: str, name: str, measured: str, expected: str = "", **details: Any) -> Check:
    return Check(subject, name, Verdict.OK, measured, expected, details=dict(details))


def skipped(subject: str, name: str, why: str) -> Check:
    return Check(subject, name, Verdict.SKIP, why)


@dataclass(frozen=True, slots=True)
class Limits:
    """An expected range ``low``-``high`` (what the reference estimates), and the value above
    which a figure is a failure (the loop no longer keeps up). Between ``high`` and ``fail``:
    a warning. Figures below ``low`` are fine (faster than expected)."""

    low: float
    high: float
    fail: float
    unit: str = "ms"

    @property
    def expected(self) -> str:
        return f"{_number(self.low)}-{_number(self.high)} {self.unit}"

    def verdict(self, value: float) -> Verdict:
        if value > self.fail:
            return Verdict.FAIL
        return Verdict.WARN if value > self.high else Verdict.OK


@dataclass(frozen=True, slots=True)
class Series:
    """Durations of repeated tries, in seconds, and how many tries failed."""

    durations: tuple[float, ...]
    failures: int = 0

    @classmethod
    def of(cls, durations: Sequence[float], failures: int = 0) -> Series:
        return cls(tuple(durations), failures)

    @property
    def tries(self) -> int:
        return len(self.durations) + self.failures

    @property
    def failure_rate(self) -> float:
        return self.failures / self.tries if self.tries else 0.0

    def percentile_ms(self, fraction: float) -> float:
        """The duration below which ``fraction`` of the successful tries fell, in ms
        (nearest rank); 0 with no successful try."""
        if not self.durations:
            return 0.0
        ordered = sorted(self.durations)
        rank = max(0, min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1))
        return ordered[rank] * 1000

    @property
    def p50_ms(self) -> float:
        return self.percentile_ms(0.5)

    @property
    def p99_ms(self) -> float:
        return self.percentile_ms(0.99)

    def summary(self) -> str:
        """``"1.2 ms p50, 3.4 ms p99, 200 tries"`` (p99 only where there are enough tries)."""
        parts = [f"{_number(self.p50_ms)} ms p50"]
        if len(self.durations) >= 20:
            parts.append(f"{_number(self.p99_ms)} ms p99")
        parts.append(f"{self.tries} {'try' if self.tries == 1 else 'tries'}")
        return ", ".join(parts)

    def as_details(self) -> dict[str, Any]:
        return {
            "p50_ms": round(self.p50_ms, 3),
            "p99_ms": round(self.p99_ms, 3),
            "tries": self.tries,
            "failures": self.failures,
        }


def _number(value: float) -> str:
    """A figure as people read it: 0.6, 12, 140 (no trailing zeros)."""
    if value >= 10:
        return f"{value:.0f}"
    digits = 2 if value < 1 else 1
    return f"{value:.{digits}f}".rstrip("0").rstrip(".") if value else "0"
