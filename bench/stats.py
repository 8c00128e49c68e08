"""Shared by the benchmarks."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """The value at quantile ``q`` (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
