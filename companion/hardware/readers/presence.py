"""Whether a card lies on an antenna, from what its reader's polls find: pure, with the
caller's times (no threads, no clock, no I/O).

A reader polls its antenna every few tens of milliseconds (nfcpy's ``sense()``) and says
what each poll found:

* the card already there (:meth:`Presence.seen`): it stays;
* a different uid: a new card, read at once (:meth:`Presence.read`); the card before it has
  gone, since an antenna holds one card (a card swapped onto a zone is two taps at once);
* nothing (:meth:`Presence.missed`): ``misses_to_leave`` misses in a row and the card has
  gone. One miss is not enough: a card at the antenna's edge flickers. What a card that left
  and came back means (one tap or two) is the tap filter's business, not this.

A new card that answered a poll but could not be read (:meth:`Presence.unreadable`: swapped
for the next one, or lifted, while nfcpy activated it) is tried again at the next poll, for
as long as it answers. If a poll finds another card in its place, it was there and was
replaced: it is reported by its uid alone (the tracker knows an enrolled tag by it) rather
than lost. If a poll finds nothing, it was brushed over the antenna, or it flickers at the
edge: nothing is reported (a tag known only by its NDEF record is read properly when it
settles). The card that last left, coming back and answering a poll it cannot be read in, is
back (with the card id read from it before): a card flickering at the antenna's edge stays
one card, however its glimpses fall.

A poll that failed is never reported here: a reader error is never a card leaving. While a
card lies on the antenna it is polled every ``present_period``, so that its removal is noticed
within about ``misses_to_leave * present_period``. An empty PN532 is not polled at all (its chip
waits for a card itself: ``chip_wait.py``); an empty antenna that is polled (``#poll``, the udp
simulator) is polled as often, so that a card put on waits half a period on average: an empty
poll and a resting card's are four PN532 round trips each (``bench/empty_period_bench.py`` has
the trade-off).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.hardware.readers.base import TagRead

MISSES_TO_LEAVE = 2
PRESENT_PERIOD = 0.035  #: seconds between polls while a card lies on the antenna
EMPTY_PERIOD = 0.035  #: seconds between polls of an empty antenna that is polled (docstring)


@dataclass
class Presence:
    zone: str
    misses_to_leave: int = MISSES_TO_LEAVE
    present_period: float = PRESENT_PERIOD
    empty_period: float = EMPTY_PERIOD
    #: the uid on the antenna (kept across reader errors: the card did not leave)
    present: str | None = None
    _misses: int = 0
    _unread: str | None = None  # a new uid whose reading failed
    _last: tuple[str, str | None] | None = None  # the uid that last left, and its card id
    _card: str | None = None  # the card id of the card present

    @property
    def period(self) -> float:
        """Seconds from the start of one poll to the start of the next."""
        return self.empty_period if self.present is None else self.present_period

    def is_new(self, uid: str) -> bool:
        """Whether a poll that found ``uid`` found a card to read (not the one already here)."""
        return uid != self.present

    def seen(self, uid: str) -> None:
        """A poll found the card that is already here. (A card that answered once in its
        place and could not be read was passing over it: forgotten.)"""
        if uid == self.present:
            self._misses = 0
            self._unread = None

    def missed(self, at: float) -> list[TagRead]:
        """A poll found no card."""
        self._unread = None
        if self.present is None:
            return []
        self._misses += 1
        if self._misses < self.misses_to_leave:
            return []
        return [self._leave(at)]

    def read(
        self, uid: str, card: str | None, at: float, activated: float | None = None
    ) -> list[TagRead]:
        """A new card (``uid``, naming ``card`` if its NDEF record was read) was read."""
        reads = self._unread_went(uid, at)
        if self.present is not None:
            reads.append(self._leave(at))
        self.present, self._card, self._misses = uid, card, 0
        self._unread = None
        return [*reads, TagRead(self.zone, uid, "arrived", at, card, activated)]

    def unreadable(self, uid: str, at: float) -> list[TagRead]:
        """A new card answered the poll but could not be read. The card before it did not
        answer: that counts as a miss."""
        reads = self._unread_went(uid, at)
        if self._last is not None and self._last[0] == uid:
            return [*reads, *self.read(uid, self._last[1], at)]  # the card that just left
        self._unread = uid
        if self.present is not None:
            self._misses += 1
            if self._misses >= self.misses_to_leave:
                reads.append(self._leave(at))
        return reads

    def _unread_went(self, found: str, at: float) -> list[TagRead]:
        """The unread card, reported by its uid alone, if another card took its place."""
        unread = self._unread
        if unread is None or unread == found:
            return []
        return self.read(unread, None, at)

    def _leave(self, at: float) -> TagRead:
        assert self.present is not None
        uid, self.present, self._misses = self.present, None, 0
        self._last = (uid, self._card)
        return TagRead(self.zone, uid, "left", at)
