"""One channel's poll and debounce state machine: pure, fed the time and each poll's outcome.

* A tag is reported ``arrived`` on the first poll that sees it, and ``left`` only after
  ``misses`` polls in a row without it (a card shifting on the antenna stays put). A different
  uid replaces it at once (``left`` then ``arrived``).
* A reader error is never a removal: the tag stays present, the channel is marked failing and
  its PN532 is re-initialised with back-off (100 ms doubling to 2 s); the first good poll after
  that settles what is there. One ``error`` event is reported per failing spell (which only a
  good poll ends); every error is counted in :meth:`ChannelPoller.health`.

Events are ``(name, fields)`` pairs that :func:`protocol.encode` turns into lines.
"""

MISSES = 3
BACKOFF_FIRST_MS = 100
BACKOFF_MAX_MS = 2000


class ChannelPoller:
    """The state of channel ``channel``; times are board milliseconds that never wrap."""

    def __init__(self, channel, misses=MISSES):
        self.channel = channel
        self.misses_to_leave = misses
        self.present = None  #: the uid reported present (kept through reader errors)
        self.misses = 0  #: polls in a row without ``present``
        self.polls = 0
        self.errors = 0
        self.ok = False  #: the PN532 is initialised and answered its last command
        self.failing = False  #: errors since the last good poll
        self.backoff_ms = BACKOFF_FIRST_MS
        self.next_init_ms = 0

    def needs_init(self, now_ms):
        """Whether to (re-)initialise the PN532 now (failing, and its back-off has passed)."""
        return not self.ok and now_ms >= self.next_init_ms

    def initialised(self, now_ms):
        """The PN532 answered its set-up commands: poll it again."""
        self.ok = True

    def update(self, now_ms, result):
        """Feed one outcome: a uid (upper-case hex), None for an empty antenna, or the
        exception a failed poll or initialisation raised. Returns the events to report."""
        if isinstance(result, BaseException):
            return self._failed(now_ms, result)
        self.polls += 1
        self.ok, self.failing = True, False
        self.backoff_ms = BACKOFF_FIRST_MS
        if result is not None:
            self.misses = 0
            if result == self.present:
                return []
            events = [] if self.present is None else [self._event("left", now_ms)]
            self.present = result
            events.append(self._event("arrived", now_ms))
            return events
        if self.present is None:
            return []
        self.misses += 1
        if self.misses < self.misses_to_leave:
            return []
        event = self._event("left", now_ms)
        self.present, self.misses = None, 0
        return [event]

    def health(self):
        """This channel's entry in a ``health`` line."""
        return {
            "ch": self.channel,
            "ok": self.ok,
            "polls": self.polls,
            "errors": self.errors,
            "present": self.present,
        }

    def _failed(self, now_ms, error):
        first = not self.failing
        self.errors += 1
        self.ok, self.failing = False, True
        self.next_init_ms = now_ms + self.backoff_ms
        self.backoff_ms = min(self.backoff_ms * 2, BACKOFF_MAX_MS)
        if not first:
            return []
        message = str(error) or type(error).__name__
        return [("error", {"ch": self.channel, "msg": message, "t": now_ms})]

    def _event(self, name, now_ms):
        return (name, {"ch": self.channel, "uid": self.present, "t": now_ms})
