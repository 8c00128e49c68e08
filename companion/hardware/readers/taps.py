"""From raw reads to taps: a card counts by how long it lay on a zone, decided from the reads'
own times.

* **Dwell.** A card counts once it has been present at a zone for :data:`MIN_DWELL` seconds in
  total, however the reads flickered on the way (a tag at an antenna's edge flaps in and out
  many times a second); a card only brushed past a zone does not count.
  A stay a reader reports with no length (arriving and leaving at one instant: it knows the
  card was there, not for how long, e.g. one swapped away before it could be read) counts: the
  reader has told it from a brush already.
* **The same visit.** A card back at the zone it counted at after losing the read for up to
  :data:`SAME_VISIT` seconds is the same tap (an RF drop-out, a card picked up to be read and
  put back), never a second play.
* **Across zones.** The same tag counted at a second zone soon after it counted at a first one
  (a card lying across two antennas, or slid from one to the other) is never a second play: if
  it then leaves the first zone and stays on the second, it is one tap there (where it dwelt);
  if it is still read on both after a moment, a person is asked.

Pure: no threads and no clock of its own (:meth:`TapFilter.poll` takes the time). Memory stays
bounded: what a card did is forgotten once nothing can depend on it any more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.hardware.readers.base import TagRead

MIN_DWELL = 0.05  #: seconds a card must lie on a zone in total to count (nfcpy reports >= 0.3 s)
SAME_VISIT = 3.0  #: seconds a counted card may be lost and come back as the same tap
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
class _Visit:
    """A card's stay at one zone, flickers and brief losses included."""

    since: float | None  #: present since (None: not read now)
    dwelt: float = 0.0  #: presence before ``since``
    left: float | None = None  #: when the read was last lost
    counted: bool = False  #: its tap was taken (or it was judged part of another zone's)
    card: str | None = None

    def presence(self, now: float) -> float:
        return self.dwelt + (now - self.since if self.since is not None else 0.0)


@dataclass
class _Counted:
    zone: str
    at: float


@dataclass
class _Conflict:
    first: str
    second: str
    since: float


@dataclass
class TapFilter:
    min_dwell: float = MIN_DWELL
    same_visit: float = SAME_VISIT
    crosstalk_window: float = CROSSTALK_WINDOW
    decide_after: float = DECIDE_AFTER
    _visits: dict[tuple[str, str], _Visit] = field(default_factory=dict)  # (uid, zone)
    _counted: dict[str, _Counted] = field(default_factory=dict)  # uid -> its last tap
    _conflicts: dict[str, _Conflict] = field(default_factory=dict)

    def feed(self, read: TagRead) -> list[Output]:
        """A read at its own time (after :meth:`poll` to that time)."""
        if read.kind == "arrived":
            return self._arrived(read)
        return self._departed(read)

    def poll(self, now: float) -> list[Output]:
        """Taps whose dwell was reached by ``now``, and conflicts that lasted too long (they
        become questions for a person)."""
        outputs: list[Output] = []
        due = [
            (visit.since + self.min_dwell - visit.dwelt, uid, zone)
            for (uid, zone), visit in self._visits.items()
            if not visit.counted
            and visit.since is not None
            and visit.presence(now) >= self.min_dwell
        ]
        for reached, uid, zone in sorted(due):
            outputs += self._count(uid, zone, reached)
        for uid, conflict in list(self._conflicts.items()):
            if now - conflict.since >= self.decide_after:
                del self._conflicts[uid]
                second = self._visits.get((uid, conflict.second))
                if second is not None:
                    second.counted = True  # the person's answer says where it is
                outputs.append(Crosstalk(uid, conflict.first, conflict.second, now))
        self._forget(now)
        return outputs

    def next_due(self, now: float) -> float | None:
        """When :meth:`poll` next has something to say, if reads stay as they are."""
        times = [
            visit.since + self.min_dwell - visit.dwelt
            for visit in self._visits.values()
            if not visit.counted and visit.since is not None
        ]
        times += [c.since + self.decide_after for c in self._conflicts.values()]
        return max(now, min(times)) if times else None

    def _arrived(self, read: TagRead) -> list[Output]:
        key, now = (read.uid, read.zone), read.at
        visit = self._visits.get(key)
        if visit is not None and visit.since is not None:
            return []  # read again while present: nothing new
        if visit is not None and visit.left is not None and now - visit.left <= self.same_visit:
            visit.since = now
            if visit.counted:
                return [Ignored(read, "the same card came back at once: one tap")]
            return []
        self._visits[key] = _Visit(since=now, card=read.card)
        return []

    def _departed(self, read: TagRead) -> list[Output]:
        uid, zone, now = read.uid, read.zone, read.at
        visit = self._visits.get((uid, zone))
        if visit is None or visit.since is None:
            return []
        outputs = self.poll(now)  # a dwell reached just before it left still counts
        unmeasured = visit.dwelt == 0.0 and now == visit.since
        visit.dwelt += now - visit.since
        visit.since, visit.left = None, now
        if unmeasured and not visit.counted and uid not in self._conflicts:
            visit.dwelt = self.min_dwell  # the reader vouches for it (see the module docstring)
            outputs += self._count(uid, zone, now)
        conflict = self._conflicts.get(uid)
        if conflict is None:
            return outputs
        del self._conflicts[uid]
        second = self._visits[(uid, conflict.second)]
        if zone == conflict.first and second.since is not None:
            # It left the first zone and stays on the second: it dwelt there, one tap there.
            second.counted = True
            self._counted[uid] = _Counted(conflict.second, now)
            return [*outputs, Tap(conflict.second, uid, now, second.card)]
        if zone == conflict.second:
            del self._visits[(uid, zone)]  # a blip on the second zone: the first tap stands
        return outputs

    def _count(self, uid: str, zone: str, at: float) -> list[Output]:
        """The visit at ``zone`` reached its dwell at ``at``: a tap, unless it is the same card
        still read (or just read) at the zone it counted at a moment ago."""
        visit = self._visits[(uid, zone)]
        last = self._counted.get(uid)
        if last is not None and last.zone != zone and uid not in self._conflicts:
            first = self._visits.get((uid, last.zone))
            recently = at - last.at <= self.crosstalk_window
            still_there = first is not None and first.since is not None
            just_left = (
                first is not None
                and first.left is not None
                and at - first.left <= self.crosstalk_window
            )
            if recently and still_there:
                self._conflicts[uid] = _Conflict(last.zone, zone, at)
                return []
            if recently and just_left:
                visit.counted = True
                read = TagRead(zone, uid, "arrived", at, visit.card)
                return [Ignored(read, f"slid over from {last.zone}: one tap")]
        if uid in self._conflicts:
            return []
        visit.counted = True
        self._counted[uid] = _Counted(zone, at)
        return [Tap(zone, uid, at, visit.card)]

    def _forget(self, now: float) -> None:
        """Drop what no later read can depend on (memory stays bounded however long the night)."""
        horizon = max(self.same_visit, self.crosstalk_window)
        for key, visit in list(self._visits.items()):
            gone = visit.since is None and visit.left is not None and now - visit.left > horizon
            if gone and key[0] not in self._conflicts:
                del self._visits[key]
        visiting = {uid for uid, _ in self._visits}
        for uid, last in list(self._counted.items()):
            if now - last.at > self.crosstalk_window and uid not in visiting:
                del self._counted[uid]
