"""One zone's nfcpy reader: its own thread and its own ContactlessFrontend (never shared).

The thread loops on ``clf.connect(rdwr=...)``: a tag's arrival and release are reported as
:class:`TagRead` events. nfcpy calls ``terminate`` between polls, which tells us a poll round
completed (health) and lets ``stop`` end the loop within a poll.

A reader error is never reported as a card leaving. When the reader fails (an IOError, a USB
reset, the simulated antenna's port closing) the card that was on it stays "present" while the
reader is reopened with back-off; afterwards the same card being found again reports nothing,
and an empty antenna reports the card as gone. A poll round that takes longer than ``watchdog``
seconds with no tag present reopens the reader (nfcpy issue #62: PN532 polls that slow down).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import nfc

from companion.hardware.readers.base import Clock, Reader, Sink, TagRead
from companion.hardware.readers.ndef_card import card_record, decode_card_id

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.1
BACKOFF_MAX = 0.5
# Two polls a round, at least 50 ms apart: terminate is checked each round (so stop() and a
# pending write wait at most ~0.1 s), and an empty antenna is not polled in a busy loop.
ITERATIONS = 2
INTERVAL = 0.05
PRESENCE_PERIOD = 0.1  # nfcpy's presence loop sleeps this long between checks


class ReaderGone(Exception):
    """The reader stopped answering (not a card leaving)."""


class NfcZoneReader(Reader):
    def __init__(
        self,
        zone: str,
        sink: Sink,
        clock: Clock,
        *,
        path: str,
        watchdog: float = 5.0,
    ) -> None:
        super().__init__(zone, sink, clock)
        self.path = path
        self.watchdog = watchdog
        self._stop = threading.Event()
        self._reopen = threading.Event()
        self._thread: threading.Thread | None = None
        self._present: str | None = None  # uid on the antenna, kept across reader errors
        self._tag: Any = None  # the tag nfcpy holds in its presence loop
        self._unsure = False  # after a reopen: is the card we had still there?
        self._entered = False  # connect() entered: its first terminate() precedes any poll
        self._last_poll = time.monotonic()
        self._gone = False
        self._rounds = 0  # poll rounds completed since the reader was opened
        self._writes: dict[str, str] = {}
        self._written = threading.Condition()
        #: milliseconds from nfcpy handing us an activated tag to the read reaching the sink
        #: (NDEF read and decode included): the time our code adds to nfcpy's
        self.connect_ms: deque[float] = deque(maxlen=1000)
        #: decides, in the reader thread when a tag arrives, which card id to write to it
        self.write_on_arrival: Callable[[str], str | None] | None = None

    # Reader interface

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._reopen.clear()
        self._thread = threading.Thread(target=self._run, name=f"nfc-{self.zone}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        with self._written:
            self._written.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
        self._thread = None
        self.health.set_state("stopped")

    def reopen(self) -> None:
        """Close and open the reader again, in its own thread (a person asked)."""
        self._reopen.set()

    def write_card_id(self, uid: str, card_id: str, timeout: float = 5.0) -> bool:
        """Write the card id record to ``uid``: now if it is on the antenna, else when it next
        arrives. True once written; False after ``timeout`` seconds (or a stop)."""
        uid = uid.upper()
        with self._written:
            self._writes[uid] = card_id
            self._written.wait_for(
                lambda: self._writes.get(uid) != card_id or self._stop.is_set(), timeout
            )
            written = self._writes.get(uid) != card_id
            if not written:
                del self._writes[uid]
            return written

    # The reader thread

    def _run(self) -> None:
        delay = BACKOFF_FIRST
        opened_before = False
        while not self._stop.is_set():
            try:
                clf = self._open()
            except Exception as exc:  # nfcpy raises more than OSError here
                self.health.failed(f"cannot open {self.path}: {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            if opened_before:
                self.health.reopened()
            opened_before = True
            try:
                self._poll(clf)
                if self._gone:
                    raise ReaderGone(f"{self.path} stopped answering")
                if self._reopen.is_set():
                    delay = BACKOFF_FIRST  # asked for (a person, the watchdog): no back-off
                    self._reopen.clear()
            except Exception as exc:
                self.health.failed(f"{type(exc).__name__}: {exc}")
                if self._rounds:  # it worked for a while: start the back-off afresh
                    delay = BACKOFF_FIRST
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
            finally:
                self._tag = None
                self._unsure = self._present is not None
                with contextlib.suppress(Exception):
                    clf.close()

    def _open(self) -> Any:
        if self.path.startswith("udp"):
            _probe_udp(self.path)
        self._gone = False
        self._rounds = 0
        self._last_poll = time.monotonic()
        clf = nfc.ContactlessFrontend()
        if not clf.open(self.path):
            raise OSError(errno.ENODEV, f"no reader at {self.path}")
        return clf

    def _poll(self, clf: Any) -> None:
        options = {
            "targets": ["106A"],
            "iterations": ITERATIONS,
            "interval": INTERVAL,
            "beep-on-connect": False,
            "on-connect": self._on_connect,
            "on-release": self._on_release,
        }
        while not self._ending():
            self._entered = True
            if clf.connect(rdwr=options, terminate=self._terminate) is False:
                raise ReaderGone("the reader reported an I/O error")

    def _ending(self) -> bool:
        return self._stop.is_set() or self._reopen.is_set() or self._gone

    def _terminate(self) -> bool:
        """nfcpy asks before each poll round and every 0.1 s in its presence loop."""
        if self._entered:  # connect() just began: no poll has completed yet
            self._entered = False
            return self._ending()
        now = time.monotonic()
        quiet, self._last_poll = now - self._last_poll, now
        self._rounds += 1
        self.health.polled()
        if self._tag is not None:
            self._write_pending(self._tag)
        elif quiet > self.watchdog:
            # nfcpy #62: polls that slow down over time; a fresh reader polls at full speed.
            self.health.failed(f"a poll took {quiet:.1f} s: reopening")
            self._reopen.set()
        elif self.path.startswith("udp") and quiet > 0.8:
            # A simulated antenna answers an empty poll at once; a poll that waited for
            # nfcpy's 1 s timeout means the antenna's port is gone.
            self._gone = not _udp_alive(self.path)
        if self._unsure and self._present is not None and not self._gone:
            # The first poll after reopening found nothing: the card went while we were away.
            self._unsure = False
            self._report_left(self._present)
        return self._ending()

    def _on_connect(self, tag: Any) -> bool:
        started = time.perf_counter()
        uid = bytes(tag.identifier).hex().upper()
        self._write_pending(tag, arriving=True)
        self._tag = tag
        if self._unsure:
            self._unsure = False
            if uid == self._present:
                return True  # the same card, still there: nothing happened
            if self._present is not None:
                self._report_left(self._present)
        self._present = uid
        self.health.read()
        self.sink(TagRead(self.zone, uid, "arrived", self.clock(), _card_id(tag)))
        self.connect_ms.append((time.perf_counter() - started) * 1000)
        return True

    def _on_release(self, tag: Any) -> bool:
        self._tag = None
        uid = bytes(tag.identifier).hex().upper()
        if self._ending():
            return True  # we stopped looking; the card may still be there
        if self.path.startswith("udp") and not _udp_alive(self.path):
            self._gone = True  # the antenna went, not the card
            return True
        if self._present == uid:
            self._report_left(uid)
        return True

    def _report_left(self, uid: str) -> None:
        self._present = None
        self.health.read()
        self.sink(TagRead(self.zone, uid, "left", self.clock()))

    def _write_pending(self, tag: Any, *, arriving: bool = False) -> None:
        uid = bytes(tag.identifier).hex().upper()
        with self._written:
            card_id = self._writes.get(uid)
        if card_id is None and arriving and self.write_on_arrival is not None:
            card_id = self.write_on_arrival(uid)
        if card_id is None:
            return
        try:
            if tag.ndef is None:
                raise ValueError("the tag is not NDEF formatted")
            tag.ndef.records = [card_record(card_id)]
        except Exception as exc:  # a tag lifted mid-write, a locked tag: try again next time
            log.warning("zone %s: writing %s to %s failed: %s", self.zone, card_id, uid, exc)
            return
        with self._written:
            if self._writes.get(uid) == card_id:
                del self._writes[uid]
            self._written.notify_all()


def _card_id(tag: Any) -> str | None:
    try:
        ndef_data = tag.ndef
        return decode_card_id(list(ndef_data.records)) if ndef_data is not None else None
    except Exception:
        return None


def _udp_address(path: str) -> tuple[str, int]:
    parts = path.split(":")
    host = parts[1] if len(parts) > 1 and parts[1] else "localhost"
    port = int(parts[2]) if len(parts) > 2 and parts[2] else 54321
    return host, port


def _udp_alive(path: str) -> bool:
    """Whether a simulated antenna's port answers (a closed port refuses at once)."""
    try:
        _probe_udp(path)
    except OSError:
        return False
    return True


def _probe_udp(path: str) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_udp_address(path))
        probe.settimeout(0.2)
        probe.send(b"106B 050010")  # a Type B poll the antenna answers and otherwise ignores
        # An antenna without fast_empty may stay silent; only a refusal is fatal.
        with contextlib.suppress(TimeoutError):
            probe.recv(64)
