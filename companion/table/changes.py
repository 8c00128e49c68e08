"""What a running table tells its listeners and keeps about each tap."""

from __future__ import annotations

from dataclasses import dataclass

from companion.tape.documents import Event


@dataclass(frozen=True, slots=True)
class Change:
    """What listeners hear after each applied line."""

    version: int
    events: tuple[Event, ...]
    changed: bool


@dataclass(frozen=True, slots=True)
class TapTiming:
    """When one tap passed each stage, in seconds on the service's clock: what the benchmarks
    and the readers page add up (place -> activated -> read -> tap -> stored -> screen)."""

    zone: str
    uid: str
    activated: float | None  #: nfcpy finished activating the tag (nfcpy readers only)
    read: float  #: the reader handed the read over
    tap: float  #: the worker took it as a tap (raw read stored, tap filter passed)
    stored: float  #: the tap's line stored and announced to every listener
