"""The long tests start first, on every worker (``make test``: pytest-xdist, ``--dist
worksteal``).

worksteal gives each worker an equal run of the collected tests, in order, then moves tests
from the end of a busy worker's run to an idle one. A long test far down a run starts late and
sets the end of the whole run, its worker busy while the others have nothing left to take. So
the modules holding a test marked ``slow`` (or ``wheel``) go to the head of the workers' runs,
dealt out in turn, and the quick tests fill each run up to its share: the long ones start at
once, side by side, and the quick ones even out the end. A module moves whole, so its
module-scoped fixtures are still built once. Without workers only the order changes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: the markers of long tests, the longest kind first (the wheel's build and install)
LONG = ("wheel", "slow")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # each worker collects on its own, and xdist insists they all collect the same order:
    # this depends on nothing but the items and the number of workers
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    items[:] = long_first(items, workers)


def long_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` with the long modules at the head of each of ``workers`` equal runs."""
    long_modules: list[Path] = []
    for marker in LONG:
        for item in items:
            if item.path not in long_modules and item.get_closest_marker(marker):
                long_modules.append(item.path)
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for number, module in enumerate(long_modules):
        heads[number % workers].extend(item for item in items if item.path == module)
    quick = [item for item in items if item.path not in long_modules]
    ordered: list[pytest.Item] = []
    left = len(items)
    for worker, head in enumerate(heads):
        share = left // (workers - worker)  # as worksteal deals the first runs out
        fill = max(0, share - len(head))
        ordered += head + quick[:fill]
        del quick[:fill]
        left -= len(head) + fill
    return ordered + quick
