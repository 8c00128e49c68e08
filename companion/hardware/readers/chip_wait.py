"""An empty antenna's wait for a card, done by the PN532 itself.

Polling an empty antenna (``sense()`` every 35 ms: four round trips and a field cycle) makes a
card put on wait half a period for the poll in flight. A PN532 can wait for the card itself:
with MxRtyPassiveActivation = 0xFF (its power-on default, "retry forever":
``shared/reference/pn532-timing.md`` §1.1) one InListPassiveTarget keeps searching with the
field on and answers the moment a card answers a try. The host thread blocks on the serial
read (no CPU) and sends one command per ``timeout`` instead of four round trips per 35 ms.

nfcpy has no call for this: ``sense()`` mutes the field and searches with the two tries nfcpy's
``pn532`` driver programs, and ``in_list_passive_target`` waits a fixed second. So this module,
and only this module, uses nfcpy internals: the driver's chipset (``clf.device.chipset``:
``rf_configuration``, ``command``, ``read_frame``, ``send_ack``, ``read_register``/
``write_register``) and the frontend's ``target`` (which ``exchange()`` talks to). When the
host's ``timeout`` runs out it sends the ACK frame that aborts the search (as nfcpy's
``Chipset.command`` does on a timeout, its "cancel command"), so the chip takes the next
command; a new reader (the driver's init) programs two tries again.

The search's answer is read here, not by ``Chipset.command``, because of one race: a card that
answers just as the host gives up. The chip's answer then crosses the ACK, and may reach the
host after its next command went out, in place of that command's ACK; ``Chipset.command`` would
take it as the next command's answer and every command after would be one frame out of step
(EIO, a reopen: 190 ms lost, measured on the emulator). Read here, a search skips the ACK that
follows such a stray answer (``command`` with timeout 0 has already consumed the stray frame in
place of the ACK, with a warning) and takes its own answer: the card, still in the field, is
found again at once.

A stop or a reopen asked from another thread need not wait out the search: :meth:`ChipWait.cancel`
wakes the serial read (pyserial's ``cancel_read``), and the search is aborted with its ACK as on
a timeout. pyserial keeps a cancel that lands after the read returned for the next read (a
command's ACK during the driver's close would then seem lost), so such a cancel is taken back
at once.

Everything else still uses the two tries (a removal or swap is decided by ``sense()``; nfcpy's
activation re-selects with it): :meth:`ChipWait.settle` programs them back first.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import threading
import time
from typing import Any

import nfc.clf
import nfc.clf.pn532

from companion.hardware.readers.pn532_frames import ACK

#: how long one waiting search may run before the host aborts it and searches again: bounds how
#: long ``stop()`` and a reopen wait for the reader thread, and how stale its health may get
SEARCH_TIMEOUT = 0.25
#: each search's timeout is spread +-20 % around it, so that the zones of a table, started
#: together, do not all abort and re-issue their searches at the same moment (a stall of the
#: process then caught every zone waiting for its ACK at once: nfcpy's 100 ms ran out on all)
SEARCH_SPREAD = 0.2
#: RFConfiguration item 5: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
MAX_RETRIES = 0x05
ENDLESS = b"\x01\x00\xff"  # search until a card answers
NFCPY_TRIES = b"\x01\x00\x01"  # two tries: what nfcpy's pn532 driver programs at open
IN_LIST_PASSIVE_TARGET = 0x4A
ONE_TYPE_A_106 = b"\x01\x00"  # MaxTg 1, BrTy 106 kbps type A, any uid
CIU_RX_MODE = "CIU_RxMode"
RX_CRC_ENABLED = 0x80
#: "no target" answers to a search that was to wait, after which the chip is taken not to wait
REFUSALS = 3

log = logging.getLogger(__name__)


class ChipWait:
    """The waiting search of one open reader (one per reader thread: nfcpy's driver is not
    thread-safe)."""

    def __init__(
        self, timeout: float = SEARCH_TIMEOUT, zone: str = "", spread: float = SEARCH_SPREAD
    ) -> None:
        self.timeout = timeout
        self.spread = spread
        self.zone = zone
        self._endless = False  # whether the chip is programmed to search until found
        #: "no target" answers: a chip that waits never gives one (it searches until aborted)
        self.refusals = 0
        self._reading = threading.Lock()  # guards the three below, between threads
        self._cancelled = False  # this open's searches are over (a stop, a reopen)
        self._port: Any = None  # the serial port a search is blocked on, while it is
        self._woken = False  # a cancel woke that port's read

    def cancel(self) -> None:
        """End the searches of this open (from another thread: a stop, a reopen): one blocked
        on the serial read wakes now and aborts as on a timeout, and none starts after. A port
        that cannot be woken ends its search at its timeout, as before."""
        with self._reading:
            self._cancelled = True
            if self._port is not None:
                self._port.cancel_read()
                self._woken = True

    @property
    def honoured(self) -> bool:
        """Whether the chip still counts as waiting for cards. One that answers "no target" to
        a search at 0xFF does not (no source says a PN532 does that: a safeguard): the reader
        then polls it every period, rather than asking again and again at full speed."""
        return self.refusals < REFUSALS

    @staticmethod
    def available(clf: Any) -> bool:
        """Whether ``clf`` is a PN532 on nfcpy's ``pn532`` driver (the udp simulator and other
        readers poll as before)."""
        return isinstance(getattr(clf, "device", None), nfc.clf.pn532.Device)

    def opened(self) -> None:
        """A fresh reader: nfcpy's driver has programmed its two tries."""
        self._endless = False
        with self._reading:
            self._cancelled = False

    def wait(self, clf: Any) -> nfc.clf.RemoteTarget | None:
        """The card that came within ``timeout`` seconds (selected, as ``sense()`` leaves a
        Type 2 tag: ``exchange()`` talks to it), or None.

        :raises OSError: the reader failed (not a timeout)."""
        chipset = clf.device.chipset
        with clf.lock:
            clf.target = None  # as sense() forgets what it had selected
            if not self._endless:
                chipset.rf_configuration(MAX_RETRIES, ENDLESS)
                self._endless = True
            # timeout 0: nfcpy sends the frame and reads its ACK, not the answer
            chipset.command(IN_LIST_PASSIVE_TARGET, bytearray(ONE_TYPE_A_106), 0)
            answer = self._answer(chipset)
            if answer is None:
                return None  # aborted: nothing came
            if not answer or answer[0] == 0:
                self._refused()
                return None
            clf.target = _selected(chipset, answer[2:])
            return clf.target

    def _answer(self, chipset: Any) -> bytes | None:
        """The search's answer (NbTg and its targets), or None: the host gave up and aborted
        it. :raises OSError: a garbled or wrong answer (EIO), the link failing."""
        spread = random.uniform(1 - self.spread, 1 + self.spread)
        deadline = time.monotonic() + self.timeout * spread
        while True:
            left = deadline - time.monotonic()
            try:
                frame = self._read_frame(chipset, left) if left > 0 else None
            except OSError as exc:
                if exc.errno != errno.ETIMEDOUT:
                    raise
                frame = None
            if frame is None or self._cancelled:
                chipset.send_ack()  # abort: the chip answers nothing more for this search
                return None
            if bytes(frame) != ACK:  # an ACK here follows a stray answer nfcpy took for one
                return _search_answer(frame)

    def _read_frame(self, chipset: Any, seconds: float) -> bytes | None:
        """One frame within ``seconds``, from a read :meth:`cancel` can wake; None once
        cancelled. :raises OSError: as nfcpy's ``read_frame`` (ETIMEDOUT: nothing came)."""
        port = _cancellable_port(chipset)
        with self._reading:
            if self._cancelled:
                return None
            self._port = port
        try:
            frame: bytes | None = chipset.read_frame(max(1, int(seconds * 1000)))
            return frame
        finally:
            with self._reading:
                self._port = None
                if self._woken:
                    self._woken = False
                    _take_back_cancel(port)

    def _refused(self) -> None:
        self.refusals += 1
        if self.refusals == REFUSALS:
            log.warning(
                "zone %s: the PN532 answered 'no target' to a search that should wait for a "
                "card: polling it every period instead (add #poll to its reader to say so)",
                self.zone,
            )

    def settle(self, clf: Any) -> None:
        """Program nfcpy's two tries back, before ``sense()`` or an activation."""
        if self._endless:
            clf.device.chipset.rf_configuration(MAX_RETRIES, NFCPY_TRIES)
            self._endless = False


def _cancellable_port(chipset: Any) -> Any:
    """The pyserial port under nfcpy's tty transport, if its read can be woken (not USB, and
    not pyserial's VTIME variant)."""
    port = getattr(getattr(chipset, "transport", None), "tty", None)
    wakes = callable(getattr(port, "cancel_read", None))
    return port if wakes and getattr(port, "pipe_abort_read_r", None) is not None else None


def _take_back_cancel(port: Any) -> None:
    """Empty pyserial's wake-up pipe: a cancel that came after the read returned would
    otherwise end the next read at once (its pipe is non-blocking: nothing there is fine)."""
    with contextlib.suppress(OSError):  # BlockingIOError is one
        os.read(port.pipe_abort_read_r, 1000)


def _search_answer(frame: bytes) -> bytes:
    """The data of an InListPassiveTarget answer frame (``00 00 FF LEN LCS D5 4B data DCS
    00``). :raises OSError: EIO for anything else (an error frame, a checksum, another answer)."""
    frame = bytes(frame)
    length = frame[3] if len(frame) > 4 else 0
    body = frame[5 : 5 + length]
    if (
        frame[:3] != b"\x00\x00\xff"
        or (frame[3] + frame[4]) & 0xFF
        or len(frame) < 7 + length
        or (sum(body) + frame[5 + length]) & 0xFF
        or body[:2] != bytes([0xD5, IN_LIST_PASSIVE_TARGET + 1])
    ):
        raise OSError(errno.EIO, f"not an InListPassiveTarget answer: {frame.hex()}")
    return body[2:]


def _selected(chipset: Any, found: bytes) -> nfc.clf.RemoteTarget:
    """The target InListPassiveTarget found (SENS_RES, SEL_RES, uid length, uid), as nfcpy's
    ``sense_tta`` builds it: a Type 2 tag's CRC is checked by nfcpy, so the chip's is off."""
    sens_res, sel_res, sdd_res = found[1::-1], found[2:3], found[4:]
    if sel_res[0] & 0x60 == 0x00:
        rx_mode = chipset.read_register(CIU_RX_MODE)
        chipset.write_register(CIU_RX_MODE, rx_mode & ~RX_CRC_ENABLED & 0xFF)
    return nfc.clf.RemoteTarget("106A", sens_res=sens_res, sel_res=sel_res, sdd_res=sdd_res)
