"""The table-wide half of `companion doctor` that is about this machine's GPIO pins (the
dashboard's port and the table's name are checked by :mod:`companion.table.network_checks`).

The pins are set up by the same :func:`~companion.hardware.feedback.open_feedback` the table
uses, then let go.
"""

from __future__ import annotations

from typing import Any

from companion.hardware.checkup import Check, Verdict, ok, skipped
from companion.hardware.feedback import FeedbackError, open_feedback
from companion.hardware.pinmap import PinMap

__all__ = ["gpio_check"]

SUBJECT = "table"


def gpio_check(pins: PinMap, pin_factory: Any = None) -> Check:
    """Whether every configured pin can be set up as the table sets it up."""
    if pins.is_empty:
        return skipped(
            SUBJECT, "GPIO pins", "no pins in the table config (no LEDs, buzzer or buttons)"
        )
    shown = ", ".join(f"{role} GPIO{pin}" for role, pin in pins.pins())
    try:
        feedback = open_feedback(pins, pin_factory=pin_factory)
    except FeedbackError as exc:
        return Check(
            SUBJECT,
            "GPIO pins",
            Verdict.FAIL,
            str(exc),
            f"usable: {shown}",
            fix=(
                "The LEDs, buzzer or buttons cannot be driven. Stop the table first if it runs "
                "(`sudo systemctl stop companion`); check the user is in the group gpio "
                "(`groups`), that python3-lgpio is installed (hardware/README.md), and that no "
                "other program uses these pins."
            ),
        )
    feedback.close()
    return ok(SUBJECT, "GPIO pins", shown, "every pin usable")
