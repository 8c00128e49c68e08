"""One channel's poll and debounce logic: pure, fed with the time and each poll's result.

* A card is reported on the first poll that sees it, and reported gone only after
  ``MISSES`` polls in a row without it (a card shifting on the antenna stays put).
* A reader error is never a removal: the card stays present, the channel is marked failing
  and re-initialised with back-off; the first good poll after that settles what is there.
"""

MISSES = 3
BACKOFF_FIRST_MS = 100
BACKOFF_MAX_MS = 2000


class ChannelPoller:
    def __init__(self, channel, misses=MISSES):
        self.channel = channel
        self.misses_to_leave = misses
        self.present = None
        self.misses = 0
        self.polls = 0
        self.errors = 0
        self.ok = False
        self.backoff_ms = BACKOFF_FIRST_MS
        self.next_init_ms = 0

    def needs_init(self, now_ms):
        return not self.ok and now_ms >= self.next_init_ms

    def initialised(self, now_ms):
        self.ok = True
        self.backoff_ms = BACKOFF_FIRST_MS

    def failed(self, now_ms, message):
        """A reader error: report it, keep the card, try again later."""
        self.errors += 1
        self.ok = False
        self.next_init_ms = now_ms + self.backoff_ms
        self.backoff_ms = min(self.backoff_ms * 2, BACKOFF_MAX_MS)
        return [("error", {"ch": self.channel, "msg": message, "t": now_ms})]

    def result(self, now_ms, uid):
        """A completed poll: ``uid`` (upper-case hex) or None for an empty antenna."""
        self.polls += 1
        events = []
        if uid is not None:
            self.misses = 0
            if uid != self.present:
                if self.present is not None:
                    events.append(("left", {"ch": self.channel, "uid": self.present, "t": now_ms}))
                self.present = uid
                events.append(("arrived", {"ch": self.channel, "uid": uid, "t": now_ms}))
            return events
        if self.present is not None:
            self.misses += 1
            if self.misses >= self.misses_to_leave:
                events.append(("left", {"ch": self.channel, "uid": self.present, "t": now_ms}))
                self.present = None
                self.misses = 0
        return events

    def health(self):
        return {
            "ch": self.channel,
            "ok": self.ok,
            "polls": self.polls,
            "errors": self.errors,
            "present": self.present,
        }
