"""From raw reads to taps: debounce and cross-zone reads, decided from the reads' own times.

* The same tag arriving again at the same zone soon after it left (a card slid over the
  antenna's edge, a tag flapping in and out) is the same tap.
* The same tag read at a second zone soon after its tap at a first one (a card lying across
  two antennas, or slid from one to the other) is never a second play: if it then leaves the
  first zone and stays on the second, it is one tap there (where it dwelt); if it is still read
  on both after a moment, a person is asked.

Pure: no threads and no clock of its own (:meth:`TapFilter.poll` takes the time).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.hardware.readers.base import TagRead

REARRIVE_WINDOW = 1.0  #: seconds after leaving in which coming back is the same tap
CROSSTALK_WINDOW = 0.8  #: seconds after a tap in which a read elsewhere is suspect
DECIDE_AFTER = 1.5  #: seconds a tag may sit on two zones before a person is asked


@dataclass(frozen=True, slots=True)
class Tap:
    zone: str
    uid: str
    at: float
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Crosstalk:
    """The tag is read on two zones at once: ask where it is (``first`` already had a tap)."""

    uid: str
    first: str
    second: str
    at: float


@dataclass(frozen=True, slots=True)
class Ignored:
    read: TagRead
    reason: str


Output = Tap | Crosstalk | Ignored


@dataclass
class _Seen:
    zone: str
    at: float  # when its tap was taken


@dataclass
class _Conflict:
    first: str
    second: str
    since: float
    card: str | None


@dataclass
class TapFilter:
    rearrive_window: float = REARRIVE_WINDOW
    crosstalk_window: float = CROSSTALK_WINDOW
    decide_after: float = DECIDE_AFTER
    _present: dict[str, set[str]] = field(default_factory=dict)  # uid -> zones reading it now
    _left: dict[tuple[str, str], float] = field(default_factory=dict)  # (uid, zone) -> left at
    _tapped: dict[str, _Seen] = field(default_factory=dict)  # uid -> its last tap
    _conflicts: dict[str, _Conflict] = field(default_factory=dict)

    def feed(self, read: TagRead) -> list[Output]:
        if read.kind == "arrived":
            return self._arrived(read)
        return self._departed(read)

    def _arrived(self, read: TagRead) -> list[Output]:
        uid, zone, now = read.uid, read.zone, read.at
        zones = self._present.setdefault(uid, set())
        zones.add(zone)
        left = self._left.get((uid, zone))
        last = self._tapped.get(uid)
        came_back = left is not None and now - left <= self.rearrive_window
        if last is not None and last.zone == zone and came_back:
            return [Ignored(read, "the same card came back at once: one tap")]
        if last is not None and last.zone != zone and uid not in self._conflicts:
            still_there = last.zone in zones
            recently = now - last.at <= self.crosstalk_window
            left_first = self._left.get((uid, last.zone))
            just_left = left_first is not None and now - left_first <= self.crosstalk_window
            if (still_there and recently) or (not still_there and just_left and recently):
                if still_there:
                    self._conflicts[uid] = _Conflict(last.zone, zone, now, read.card)
                    return [
                        Ignored(read, f"also read at {last.zone}: waiting to see where it stays")
                    ]
                return [Ignored(read, f"slid over from {last.zone}: one tap")]
        self._tapped[uid] = _Seen(zone, now)
        return [Tap(zone, uid, now, read.card)]

    def _departed(self, read: TagRead) -> list[Output]:
        uid, zone, now = read.uid, read.zone, read.at
        self._left[(uid, zone)] = now
        zones = self._present.get(uid, set())
        zones.discard(zone)
        conflict = self._conflicts.get(uid)
        if conflict is None:
            return []
        del self._conflicts[uid]
        if zone == conflict.first and conflict.second in zones:
            # It left the first zone and stays on the second: it dwelt there, one tap there.
            self._tapped[uid] = _Seen(conflict.second, now)
            return [Tap(conflict.second, uid, now, conflict.card)]
        return []  # a blip on the second zone: the first tap stands

    def poll(self, now: float) -> list[Output]:
        """Conflicts that lasted too long become questions for a person."""
        asked: list[Output] = []
        for uid, conflict in list(self._conflicts.items()):
            if now - conflict.since >= self.decide_after:
                del self._conflicts[uid]
                asked.append(Crosstalk(uid, conflict.first, conflict.second, now))
        return asked
