"""From raw reads to taps: a card counts on its first read, decided from the reads' own times.

* **No wait.** A card counts the moment a zone first reads it: no dwell is waited for (a tap
  reaches the tracker as fast as its read). What a first read cannot know is corrected after.
* **The same visit.** A card back at the zone it counted at after losing the read for up to
  :data:`SAME_VISIT` seconds is the same tap (a tag flapping at an antenna's edge, an RF
  drop-out, a card picked up to be read and put back), never a second play.
* **Across zones.** A card counted at one zone and read at a second within
  :data:`CROSSTALK_WINDOW` seconds of its tap is never a second play. If it only brushed the
  first on its way (it lay there less than :data:`BRUSH` seconds in all, or it left the first
  while the second still read it), it rests on the second: :class:`Moved`, a correction of the
  same play to where it rests. A card that lay on the first, was lifted and was read next door
  as it went, keeps its tap; one still read on both after :data:`DECIDE_AFTER` seconds is a
  question for a person (:class:`Crosstalk`).

Pure: no threads and no clock of its own (:meth:`TapFilter.poll` takes the time). Memory stays
bounded: what a card did is forgotten once nothing can depend on it any more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.hardware.readers.base import TagRead

SAME_VISIT = 3.0  #: seconds a counted card may be lost and come back as the same tap
CROSSTALK_WINDOW = 0.8  #: seconds after a tap in which a read elsewhere is suspect
DECIDE_AFTER = 1.5  #: seconds a tag may sit on two zones before a person is asked
#: seconds of presence below which a card only brushed a zone on its way to another: an nfcpy
#: zone reports a card it glimpsed at one poll as present until two more polls miss it (2 x
#: 35 ms, plus the polls' own time: ~80-100 ms on a PN532 at 921600 or behind a CP210x); a
#: card put down rests for far longer
BRUSH = 0.15


@dataclass(frozen=True, slots=True)
class Tap:
    zone: str
    uid: str
    at: float
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Moved:
    """The card counted at ``origin`` a moment ago only passed over it: it rests at ``zone``.
    A correction of that same play (never a second one)."""

    uid: str
    origin: str
    zone: str
    at: float


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


Output = Tap | Moved | Crosstalk | Ignored


@dataclass
class _Visit:
    """A card's stay at one zone, flickers and brief losses included."""

    since: float | None  #: present since (None: not read now)
    dwelt: float = 0.0  #: presence before ``since`` (a brush is shorter than BRUSH in all)
    left: float | None = None  #: when the read was last lost
    counted: bool = False  #: its tap was taken (or it was judged part of another zone's)
    card: str | None = None


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
    same_visit: float = SAME_VISIT
    crosstalk_window: float = CROSSTALK_WINDOW
    decide_after: float = DECIDE_AFTER
    brush: float = BRUSH
    _visits: dict[tuple[str, str], _Visit] = field(default_factory=dict)  # (uid, zone)
    _counted: dict[str, _Counted] = field(default_factory=dict)  # uid -> its last tap
    _conflicts: dict[str, _Conflict] = field(default_factory=dict)

    def feed(self, read: TagRead) -> list[Output]:
        """A read at its own time (after :meth:`poll` to that time)."""
        if read.kind == "arrived":
            return self._arrived(read)
        return self._departed(read)

    def poll(self, now: float) -> list[Output]:
        """Conflicts that lasted too long by ``now``: they become questions for a person."""
        outputs: list[Output] = []
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
        times = [c.since + self.decide_after for c in self._conflicts.values()]
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
        return self._count(read.uid, read.zone, now)

    def _departed(self, read: TagRead) -> list[Output]:
        uid, zone, now = read.uid, read.zone, read.at
        visit = self._visits.get((uid, zone))
        if visit is None or visit.since is None:
            return []
        outputs = self.poll(now)  # a conflict due before it left is asked about first
        visit.dwelt += now - visit.since
        visit.since, visit.left = None, now
        conflict = self._conflicts.get(uid)
        if conflict is None:
            return outputs
        del self._conflicts[uid]
        second = self._visits[(uid, conflict.second)]
        if zone == conflict.first and second.since is not None:
            # It left the first zone and stays on the second: it rests there, the same play.
            return [*outputs, self._move(uid, conflict.first, conflict.second, now)]
        if zone == conflict.second:
            del self._visits[(uid, zone)]  # a blip on the second zone: the first tap stands
        return outputs

    def _count(self, uid: str, zone: str, at: float) -> list[Output]:
        """The card's first read at ``zone``, at ``at``: a tap, unless the same card counted
        at another zone a moment ago (see the module docstring)."""
        visit = self._visits[(uid, zone)]
        last = self._counted.get(uid)
        recently = last is not None and last.zone != zone and at - last.at <= self.crosstalk_window
        if last is not None and recently and uid not in self._conflicts:
            first = self._visits.get((uid, last.zone))
            if first is not None and first.since is not None:
                self._conflicts[uid] = _Conflict(last.zone, zone, at)
                return []
            if (
                first is not None
                and first.left is not None
                and at - first.left <= self.crosstalk_window
            ):
                if first.dwelt < self.brush:  # it only passed over the first zone
                    return [self._move(uid, last.zone, zone, at)]
                visit.counted = True
                read = TagRead(zone, uid, "arrived", at, visit.card)
                return [Ignored(read, f"slid over from {last.zone}: one tap")]
        if uid in self._conflicts:
            return []
        visit.counted = True
        self._counted[uid] = _Counted(zone, at)
        return [Tap(zone, uid, at, visit.card)]

    def _move(self, uid: str, origin: str, zone: str, at: float) -> Moved:
        """The card counted at ``origin`` rests at ``zone``: its tap moves there. The window
        for further corrections still runs from the tap."""
        self._visits[(uid, zone)].counted = True
        last = self._counted.get(uid)
        self._counted[uid] = _Counted(zone, last.at if last is not None else at)
        return Moved(uid, origin, zone, at)

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
