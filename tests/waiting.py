"""Waiting for what runs outside the test's control: real reader threads (nfcpy against the
emulator, a serial board), gpiozero's own timers, a served page, a subprocess.

The table's own worker is never waited for: a test builds its table with
``worker_thread=False`` and calls ``step()``. This is the one polling helper for the rest.
"""

from __future__ import annotations

import time
from collections.abc import Callable

POLL = 0.005  #: seconds between looks


def eventually(
    condition: Callable[[], object], *, timeout: float = 3.0, what: str, every: float = POLL
) -> None:
    """Return once ``condition()`` is true, looking every ``every`` seconds; fail after
    ``timeout`` seconds saying ``what`` was waited for (and how long)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}: it did not happen")
        time.sleep(every)
