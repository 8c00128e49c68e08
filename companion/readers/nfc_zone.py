"""One zone's nfcpy reader: its own thread and its own ContactlessFrontend (never shared).

The thread loops on ``clf.connect(rdwr=...)``: a tag's arrival and release are reported as
:class:`TagRead` events. nfcpy calls ``terminate`` between polls, which tells us a poll round
completed (health) and lets ``stop`` end the loop within a poll.

A reader error is never reported as a card leaving. When the reader fails (an IOError, a USB
reset, the simulated antenna's port closing) the card that was on it stays "present" while the
reader is reopened with back-off; afterwards the same card being found again reports nothing,
and an empty antenna reports the card as gone. A watchdog reopens a reader whose polls stop
completing (nfcpy issue #62).
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

from companion.readers.base import Clock, Reader, Sink, TagRead
from companion.readers.ndef_card import card_record, decode_card_id

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.1
BACKOFF_MAX = 0.5
# Two polls a round, at least 10 ms apart: a round is ~10 ms (terminate is checked each round),
# and an empty antenna is not polled in a busy loop.
ITERATIONS = 2
INTERVAL = 0.01


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
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(zone, sink, clock)
        self.path = path
        self.watchdog = watchdog
        self._sleep = sleep
        self._stop = threading.Event()
        self._reopen = threading.Event()
        self._thread: threading.Thread | None = None
        self._watch: threading.Thread | None = None
        self._clf: Any = None
        self._present: str | None = None  # uid on the antenna, kept across reader errors
        self._unsure = False  # after a reopen: is the card we had still there?
        self._polls_since_open = 0
        self._last_poll = time.monotonic()
        self._gone = False
        self._writes: dict[str, str] = {}
        self._written = threading.Condition()
        #: milliseconds from nfcpy handing us an activated tag to the read reaching the sink
        self.connect_ms: deque[float] = deque(maxlen=1000)
        #: decides, in the reader thread when a tag arrives, which card id to write to it
        self.write_on_arrival: Callable[[str], str | None] | None = None

    # Reader interface

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"nfc-{self.zone}", daemon=True)
        self._thread.start()
        self._watch = threading.Thread(
            target=self._watchdog, name=f"nfc-watch-{self.zone}", daemon=True
        )
        self._watch.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        for thread in (self._thread, self._watch):
            if thread is not None:
                thread.join(timeout)
        self._thread = self._watch = None
        self.health.set_state("stopped")

    def reopen(self) -> None:
        self._reopen.set()

    def write_card_id(self, uid: str, card_id: str, timeout: float = 5.0) -> bool:
        """Write the card id record when ``uid`` next arrives (lift and tap it again)."""
        uid = uid.upper()
        with self._written:
            self._writes[uid] = card_id
            self._written.wait_for(lambda: uid not in self._writes, timeout)
            written = uid not in self._writes
            self._writes.pop(uid, None)
            return written

    # The reader thread

    def _run(self) -> None:
        delay = BACKOFF_FIRST
        opened_before = False
        while not self._stop.is_set():
            try:
                self._open()
            except Exception as exc:  # nfcpy raises more than OSError here
                self.health.failed(f"cannot open {self.path}: {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            if opened_before:
                self.health.reopened()
            opened_before = True
            delay = BACKOFF_FIRST
            try:
                self._poll()
            except Exception as exc:
                self.health.failed(f"{type(exc).__name__}: {exc}")
            finally:
                self._close()
            if self._reopen.is_set() or self._gone:
                self._reopen.clear()
                self._unsure = self._present is not None
            elif not self._stop.is_set():
                self.health.failed("the reader stopped answering")
                self._unsure = self._present is not None
                self._stop.wait(delay)

    def _open(self) -> None:
        if self.path.startswith("udp"):
            _probe_udp(self.path)
        self._gone = False
        self._polls_since_open = 0
        self._last_poll = time.monotonic()
        clf = nfc.ContactlessFrontend()
        if not clf.open(self.path):
            raise OSError(errno.ENODEV, f"no reader at {self.path}")
        self._clf = clf

    def _close(self) -> None:
        clf, self._clf = self._clf, None
        if clf is not None:
            with contextlib.suppress(Exception):
                clf.close()

    def _poll(self) -> None:
        options = {
            "targets": ["106A"],
            "iterations": ITERATIONS,
            "interval": INTERVAL,
            "beep-on-connect": False,
            "on-connect": self._on_connect,
            "on-release": self._on_release,
        }
        while not self._stop.is_set() and not self._reopen.is_set() and not self._gone:
            result = self._clf.connect(rdwr=options, terminate=self._terminate)
            if result is False:
                raise ReaderGone("the reader reported an I/O error")

    def _terminate(self) -> bool:
        """nfcpy asks between polls (and every 0.1 s while a card is on the antenna)."""
        now = time.monotonic()
        quiet = now - self._last_poll
        self._last_poll = now
        self._polls_since_open += 1
        self.health.polled()
        if self._present is None and self.path.startswith("udp") and quiet > 0.8:
            # A simulated antenna answers an empty poll at once; a poll that waited for
            # nfcpy's 1 s timeout means the antenna's port is gone.
            self._gone = not _udp_alive(self.path)
        if self._unsure and self._polls_since_open > 2 and self._present is not None:
            # A whole poll after reopening found nothing: the card went while we were away.
            self._report_left(self._present)
            self._unsure = False
        return self._stop.is_set() or self._reopen.is_set() or self._gone

    def _on_connect(self, tag: Any) -> bool:
        started = time.perf_counter()
        try:
            return self._connected(tag)
        finally:
            self.connect_ms.append((time.perf_counter() - started) * 1000)

    def _connected(self, tag: Any) -> bool:
        uid = bytes(tag.identifier).hex().upper()
        self._write_pending(tag, uid)
        if self._unsure:
            self._unsure = False
            if uid == self._present:
                return True  # the same card, still there: nothing happened
            if self._present is not None:
                self._report_left(self._present)
        self._present = uid
        self.health.read()
        self.sink(TagRead(self.zone, uid, "arrived", self.clock(), _card_id(tag)))
        return True

    def _on_release(self, tag: Any) -> bool:
        uid = bytes(tag.identifier).hex().upper()
        if self._stop.is_set() or self._reopen.is_set():
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

    def _write_pending(self, tag: Any, uid: str) -> None:
        card_id = self._writes.get(uid)
        if card_id is None and self.write_on_arrival is not None:
            card_id = self.write_on_arrival(uid)
        if card_id is None:
            return
        try:
            if tag.ndef is not None:
                tag.ndef.records = [card_record(card_id)]
        except Exception as exc:
            log.warning("zone %s: writing %s to %s failed: %s", self.zone, card_id, uid, exc)
            return
        with self._written:
            self._writes.pop(uid, None)
            self._written.notify_all()

    def _watchdog(self) -> None:
        while not self._stop.wait(0.5):
            if self._clf is None or self._present is not None:
                continue
            if time.monotonic() - self._last_poll > self.watchdog:
                self.health.failed(f"no poll for {self.watchdog:.0f} s: reopening")
                self._last_poll = time.monotonic()
                self._reopen.set()


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
