"""An in-memory reader for unit tests, shipped in the package (like gpiozero's MockPin)."""

from __future__ import annotations

from companion.hardware.readers.base import Clock, Reader, Sink, TagRead


class MockReader(Reader):
    """Stimulus methods :meth:`place` and :meth:`lift` report reads at once, in the caller's
    thread; :attr:`history` keeps every read."""

    def __init__(self, zone: str, sink: Sink, clock: Clock) -> None:
        super().__init__(zone, sink, clock)
        self.history: list[TagRead] = []
        self.present: str | None = None
        self.running = False

    def start(self) -> None:
        self.running = True
        self.health.polled()

    def stop(self, timeout: float = 3.0) -> None:
        self.running = False
        self.health.set_state("stopped")

    def place(self, uid: str, card: str | None = None) -> TagRead:
        """A card lands on the antenna (a card already there is lifted first: one at a time)."""
        if self.present is not None:
            self.lift()
        self.present = uid.upper()
        return self._report(TagRead(self.zone, self.present, "arrived", self.clock(), card))

    def lift(self) -> TagRead | None:
        if self.present is None:
            return None
        uid, self.present = self.present, None
        return self._report(TagRead(self.zone, uid, "left", self.clock()))

    def _report(self, read: TagRead) -> TagRead:
        self.history.append(read)
        self.health.read()
        if self.running:
            self.sink(read)
        return read
