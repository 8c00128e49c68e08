"""One zone's nfcpy reader: its own thread and its own ContactlessFrontend (never shared).

The thread polls the antenna itself and leaves presence to
:class:`~companion.hardware.readers.presence.Presence`, rather than waiting in nfcpy's presence
loop (which notices a lifted card only after ~0.4 s and sees no other card until then). An empty
PN532 is not polled: the chip waits for a card itself (one InListPassiveTarget that searches until
a card answers, aborted and re-issued every ``chip_wait.SEARCH_TIMEOUT``, :mod:`.chip_wait`), so a
card put on is read at once; ``arrival="poll"`` (a spec's ``#poll``), and any reader that is not a
PN532 on nfcpy's driver, polls with ``sense()`` every empty period instead. Otherwise a poll is
``ContactlessFrontend.sense()``; while a card lies here and the last poll left it selected, a poll
first READs its first pages with ``exchange()`` (they hold its uid: one exchange instead of a whole
anticollision), and senses only if that fails. A new uid counts as read once the sense found it: a
uid the table already knows (``known``, the bindings) is not read at all, and an unknown Type 2
tag's card id is read with plain READs of its user memory, only as many as its NDEF message needs
(no ``nfc.tag.activate``: no AUTHENTICATE probe, no field-off re-select; that is 32 PN532 round
trips instead of 4 for a bound card). Activation is kept for writing a card id, and for tags of
other types. Two empty polls in a row and the card has gone. The same code runs on a PN532 (any
nfcpy reader) and on the simulated table.

A reader error is never reported as a card leaving. When the reader fails (an IOError, a USB
reset, the simulated antenna's port closing) the card that was on it stays present while the
reader is reopened with back-off; the polls after that decide (the same card: nothing; another
card or none: it left). A poll slower than ``watchdog`` seconds reopens the reader (nfcpy
issue #62: PN532 polls that slow down) and is not taken as a miss.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import nfc
import nfc.clf
import nfc.tag

from companion.hardware.readers.base import Clock, Reader, Sink, TagRead
from companion.hardware.readers.chip_wait import ChipWait
from companion.hardware.readers.ndef_card import card_record, decode_card_id, read_card_id
from companion.hardware.readers.ntag_sim import probe_udp, udp_alive
from companion.hardware.readers.presence import Presence

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.1
BACKOFF_MAX = 0.5
# A simulated antenna answers a poll at once; one this slow waited for nfcpy's 1 s udp timeout.
UDP_SILENT = 0.8
# While a card lies on the antenna a poll READs its first pages (they hold its uid), giving it
# an NTAG's own response timeout; only if that fails does the poll sense (a swap, a removal).
PRESENCE_READ = b"\x30\x00"
# The PN532's response timeouts are 100 us * 2**(n-1) and nfcpy rounds up to that grid, so the
# old 5 ms became 6.4 ms. An NTAG's READ answer starts ~87 us after the command and lasts
# 1.55 ms (NXP NTAG213/215/216 data sheet, section 10.2, Fig 15): 3.2 ms (n = 6) holds its whole
# answer twice over and saves 3.2 ms on every READ to a lifted card (pn532-timing.md 1.1, 5.4).
PRESENCE_TIMEOUT = 0.0032
# The READs of a new tag's card id: the same command, the same answer time.
ID_READ_TIMEOUT = PRESENCE_TIMEOUT
# An empty antenna's polls are spread +-20 % around their period, so that a card flickering
# at the antenna's edge in step with them cannot stay unseen for long.
EMPTY_SPREAD = 0.2
#: how an empty antenna waits for a card: the chip searches until one comes, or the host polls
ARRIVALS = ("wait", "poll")


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
        known: Callable[[str], bool] | None = None,
        frontend: Callable[[], Any] = nfc.ContactlessFrontend,
        arrival: str = "wait",
    ) -> None:
        super().__init__(zone, sink, clock)
        if arrival not in ARRIVALS:
            raise ValueError(f"arrival is one of {', '.join(ARRIVALS)}, not {arrival!r}")
        #: "wait": an empty PN532 searches for a card itself; "poll": sense() every period
        self.arrival = arrival
        self._chip_wait = ChipWait(zone=zone)
        #: whether the open reader's chip waits for cards (a PN532, ``arrival="wait"``)
        self.chip_waits = False
        self._waited = False  # whether the last poll was the chip's wait (no period to keep)
        self.path = path
        self.watchdog = watchdog
        #: whether the table already knows a uid (bound to a card): its card id is not read
        self.known: Callable[[str], bool] = known or _nobody_known
        self._frontend = frontend  # nfcpy's ContactlessFrontend (tests count its calls)
        #: what the polls say lies on the antenna (kept across reader errors)
        self.presence = Presence(zone)
        self._stop = threading.Event()
        self._reopen = threading.Event()
        self._thread: threading.Thread | None = None
        self._polls = 0  # polls completed since the reader was opened
        # the card the last poll left selected, and the target nfcpy's sense returned for it
        self._selected: tuple[str, Any] | None = None
        self._writes: dict[str, str] = {}
        self._written = threading.Condition()
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

    def begin_stop(self) -> None:
        self._stop.set()
        self._chip_wait.cancel()  # a waiting search ends now, not at its timeout
        with self._written:
            self._written.notify_all()

    def stop(self, timeout: float = 3.0) -> None:
        self.begin_stop()
        if self._thread is not None:
            self._thread.join(timeout)
        self._thread = None
        self.health.set_state("stopped")

    def reopen(self) -> None:
        """Close and open the reader again, in its own thread (a person asked)."""
        self._reopen.set()
        self._chip_wait.cancel()

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
                if self._reopen.is_set():
                    delay = BACKOFF_FIRST  # asked for (a person, the watchdog): no back-off
                    self._reopen.clear()
            except Exception as exc:
                self.health.failed(f"{type(exc).__name__}: {exc}")
                if self._polls:  # it worked for a while: start the back-off afresh
                    delay = BACKOFF_FIRST
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
            finally:
                with contextlib.suppress(Exception):
                    clf.close()

    def _open(self) -> Any:
        if self.path.startswith("udp"):
            probe_udp(self.path)
        self._polls = 0
        self._selected = None
        self._chip_wait.opened()
        clf = self._frontend()
        if not clf.open(self.path):
            raise OSError(errno.ENODEV, f"no reader at {self.path}")
        self.chip_waits = self.arrival == "wait" and ChipWait.available(clf)
        return clf

    def _poll(self, clf: Any) -> None:
        """Poll until asked to stop or to reopen. :raises: whatever the reader fails with."""
        wanted = nfc.clf.RemoteTarget("106A")
        while not self._ending():
            started = time.monotonic()
            if not self.poll_once(clf, wanted):
                return
            self._polls += 1
            self.health.polled()
            if self._waited:  # the chip waited: search again at once, or READ a period on
                started = time.monotonic()
                if self.presence.present is None:
                    continue
            period = self.presence.period
            if self.presence.present is None:
                period *= random.uniform(1 - EMPTY_SPREAD, 1 + EMPTY_SPREAD)
            # A plain sleep costs less CPU than an Event's wait; stop() waits one period at most.
            time.sleep(max(0.0, started + period - time.monotonic()))

    def poll_once(self, clf: Any, wanted: Any = None) -> bool:
        """One poll of an open frontend (the reader thread's loop body; a test may step it);
        False if it was too slow (the reader is to be reopened)."""
        started = time.monotonic()
        there = self._still_selected(clf)
        wanted = wanted or nfc.clf.RemoteTarget("106A")
        self._waited = there is None and self._waits()
        if there is not None:
            target = None
        elif self._waited:
            target = self._chip_wait.wait(clf)
        else:
            self._chip_wait.settle(clf)
            target = clf.sense(wanted, iterations=1)
        took = time.monotonic() - started
        if there is None and target is None and took > UDP_SILENT and not self._antenna_alive():
            raise ReaderGone(f"{self.path} stopped answering")  # not the card
        if took > self.watchdog:
            # nfcpy #62: polls that slow down over time; a fresh reader polls at full speed.
            self.health.failed(f"a poll took {took:.1f} s: reopening")
            self._reopen.set()
            return False
        if there is not None:
            self.presence.seen(there)
            self._write_while_here(clf, there)
        else:
            self._found(clf, target)
            if target is not None and self._waited:
                self._chip_wait.settle(clf)  # after the arrival: a removal's sense needs it
        return True

    def _still_selected(self, clf: Any) -> str | None:
        """The uid of the card lying here if it answers a READ of its first pages (which hold
        its uid) where the last poll left it selected: one exchange, not a whole sense."""
        uid, selected = self.presence.present, self._selected
        if uid is None or selected is None or selected[0] != uid:
            return None
        self._selected = None  # until it answers
        try:
            pages = clf.exchange(bytearray(PRESENCE_READ), PRESENCE_TIMEOUT)
        except nfc.clf.CommunicationError:
            return None  # gone, or another card: the sense that follows says which
        if pages is None or len(pages) < 8 or bytes(pages[0:3] + pages[4:8]).hex().upper() != uid:
            return None
        self._selected = selected
        return uid

    def _waits(self) -> bool:
        """Whether this poll is the chip's own wait: an empty antenna on a PN532."""
        return self.presence.present is None and self.chip_waits and self._chip_wait.honoured

    def _antenna_alive(self) -> bool:
        """Whether a simulated antenna's port still answers (hardware: always assumed)."""
        return not self.path.startswith("udp") or udp_alive(self.path)

    def _ending(self) -> bool:
        return self._stop.is_set() or self._reopen.is_set()

    def _found(self, clf: Any, target: Any) -> None:
        """What a sense found: nothing, the card already here, or a new card (read now)."""
        uid = _uid(target)
        # A Type 2 tag with a 7-byte uid stays selected: the next poll may just READ it.
        selectable = uid is not None and len(uid) == 14 and target.sel_res[0] & 0x60 == 0
        self._selected = (uid, target) if selectable and uid is not None else None
        if uid is None:
            self._deliver(self.presence.missed(self.clock()))
        elif not self.presence.is_new(uid):
            self.presence.seen(uid)
            self._write_while_here(clf, uid)
        else:
            self._arrived(clf, target, uid)

    def _arrived(self, clf: Any, target: Any, uid: str) -> None:
        """A new card the sense found (and left selected): read now, with as little as it
        takes: nothing for a known uid, plain READs of an unknown Type 2 tag's card id."""
        selected = self.clock()  # what nfcpy's activation used to finish
        writing = self._write_for(uid)
        if writing is None and self.known(uid):
            self._deliver(self.presence.read(uid, None, self.clock(), selected))
            return
        if writing is not None or self._selected is None:
            self._activate_and_read(clf, target, uid, writing)
            return
        try:
            card = read_card_id(lambda page: _read_pages(clf, page))
        except nfc.clf.CommunicationError:  # lifted as it landed: the next poll tries again
            self._selected = None
            self._deliver(self.presence.unreadable(uid, self.clock()))
            return
        self._deliver(self.presence.read(uid, card, self.clock(), selected))

    def _activate_and_read(self, clf: Any, target: Any, uid: str, writing: str | None) -> None:
        """nfcpy's own activation and NDEF read: to write ``writing`` (a card id), or for a
        tag that is not a Type 2 tag with a 7-byte uid."""
        self._chip_wait.settle(clf)  # activation re-selects with sense()
        tag = nfc.tag.activate(clf, target)
        activated = self.clock()
        if tag is None:  # lifted as it landed, or sliding: the next poll tries again
            self._selected = None
            self._deliver(self.presence.unreadable(uid, activated))
            return
        if writing is not None:
            self._write_pending(tag, writing)
        card = _card_id(tag)
        self._deliver(self.presence.read(uid, card, self.clock(), activated))

    def _write_while_here(self, clf: Any, uid: str) -> None:
        """A write asked for while the card lies here (enrolment from the tablet)."""
        if self._pending_write(uid) is None or self._selected is None:
            return
        self._chip_wait.settle(clf)
        tag = nfc.tag.activate(clf, self._selected[1])
        if tag is None:
            self._selected = None
        else:
            self._write_pending(tag)

    def _deliver(self, reads: list[TagRead]) -> None:
        for read in reads:
            self.health.read()
            self.sink(read)

    def _pending_write(self, uid: str) -> str | None:
        with self._written:
            return self._writes.get(uid)

    def _write_for(self, uid: str) -> str | None:
        """The card id to write to ``uid`` as it arrives, if any (asked once per arrival)."""
        card_id = self._pending_write(uid)
        if card_id is None and self.write_on_arrival is not None:
            card_id = self.write_on_arrival(uid)
        return card_id

    def _write_pending(self, tag: Any, card_id: str | None = None) -> None:
        """Write ``card_id`` (by default the write asked for this tag, if any) to ``tag``."""
        uid = bytes(tag.identifier).hex().upper()
        card_id = card_id or self._pending_write(uid)
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


def _uid(target: Any) -> str | None:
    """The uid a poll found, or None: no card, or a phone offering peer-to-peer (which
    nfcpy's own loop passes over too)."""
    if target is None or (target.sel_res and target.sel_res[0] & 0x40):
        return None
    identifier = target.sdd_res or target.rid_res
    return bytes(identifier).hex().upper() if identifier else None


def _nobody_known(uid: str) -> bool:
    return False


def _read_pages(clf: Any, page: int) -> bytes:
    """One READ (16 bytes from ``page``) of the tag the last sense selected: one exchange.
    :raises nfc.clf.CommunicationError: no answer, or a short one."""
    data = clf.exchange(bytearray([0x30, page]), ID_READ_TIMEOUT)
    if data is None or len(data) < 16:
        raise nfc.clf.ProtocolError(f"a READ of page {page} answered {data!r}")
    return bytes(data[:16])


def _card_id(tag: Any) -> str | None:
    try:
        ndef_data = tag.ndef
        return decode_card_id(list(ndef_data.records)) if ndef_data is not None else None
    except Exception:
        return None
