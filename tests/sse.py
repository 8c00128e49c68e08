"""Server-Sent Events read as a browser reads them, for the tests on the real server."""

from __future__ import annotations

from collections.abc import Callable


def next_event(readline: Callable[[], bytes], pings: list[str] | None = None) -> dict[str, str]:
    """The next event's fields from a stream's lines: comments (``: ping``) are skipped, or
    noted in ``pings``, and so is a block without data (the ``retry`` time: a browser
    dispatches no event for it). :raises EOFError: the stream ended first."""
    fields: dict[str, str] = {}
    while True:
        raw = readline()
        if raw == b"":
            raise EOFError("the stream ended")
        line = raw.decode().rstrip("\n")
        if line.startswith(":"):
            if pings is not None:
                pings.append(line)
            continue
        if not line:
            if "data" in fields:
                return fields
            fields = {}
            continue
        key, _, value = line.partition(": ")
        fields[key] = value
