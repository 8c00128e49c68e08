"""One reader measured through nfcpy's public API, whatever driver opens it: a PN532 on a
serial port (``tty:nfc-zone1:pn532``), an emulated one, a simulated antenna (``udp:``).

Each measurement repeats one thing the table's loop does and times it: the chip's
GetFirmwareVersion (a round trip over the link and nothing else), an empty ``sense()``, a
READ of a resting card's first pages through ``clf.exchange`` (the loop's presence check).
The probe holds the reader open; the table must not be running at the same time.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import nfc
import nfc.clf

from companion.hardware.checkup import Series
from companion.hardware.readers.base import Clock, ReaderError
from companion.hardware.readers.chip_wait import ChipWait
from companion.hardware.readers.nfc_zone import PRESENCE_READ, PRESENCE_TIMEOUT

__all__ = ["ReaderProbe", "firmware_text"]

#: how long the chip's own wait for a card is held with no card (a chip that waits holds it
#: until the host gives up; one that ignores MxRtyPassiveActivation 0xFF answers at once)
CHIP_WAIT_S = 0.3
#: how often a waiting probe senses for the card a person is laying down
WAIT_PERIOD = 0.05
#: link failures in a row after which the reader counts as gone (one is a late answer)
LINK_ERRORS_IN_A_ROW = 3
#: what a call the link failed returns instead of an answer
LINK_ERROR = object()
#: opens tried before a reader counts as failing (the table's reader retries with back-off;
#: an occasional failed first open is normal, §6 no. 2), and the pause between them
OPEN_ATTEMPTS = 3
OPEN_PAUSE = 0.2


class ReaderProbe:
    """A reader opened for measuring (a context manager: it closes the reader)."""

    def __init__(self, path: str, *, clock: Clock = time.perf_counter) -> None:
        self.path = path
        self.clock = clock
        self._clf: Any = None
        self._target: Any = None  # the resting card's target, while it is selected
        #: seconds the last :meth:`open` took (nfcpy's driver init, baud switch included)
        self.open_time = 0.0
        self.open_attempts = 0  #: how many opens the last :meth:`open` took
        self.commands = 0  #: nfcpy calls made through the open reader
        self.link_errors = 0  #: of them, those the link failed (not the card)
        self.reopens = 0  #: times the reader was opened again after a link error
        self._in_a_row = 0
        self._wanted = nfc.clf.RemoteTarget("106A")

    def __enter__(self) -> ReaderProbe:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self, attempts: int = OPEN_ATTEMPTS) -> None:
        """Open the reader, as the table does: a failed open is tried again after a pause.

        :raises ReaderError: nfcpy found no reader at the path, or failed ``attempts`` times.
        """
        self._clf, self.open_attempts, self.open_time = self._connect(attempts)

    def _connect(self, attempts: int) -> tuple[Any, int, float]:
        """An opened ContactlessFrontend, at which try it opened, and how long that try took."""
        error = ""
        for attempt in range(1, attempts + 1):
            clf = nfc.ContactlessFrontend()
            started = self.clock()
            try:
                if clf.open(self.path):
                    return clf, attempt, self.clock() - started
                error = f"nfcpy found no reader at {self.path}"
            except Exception as exc:  # nfcpy raises IOError, ValueError, its own errors
                error = f"nfcpy cannot open {self.path}: {exc}"
            if attempt < attempts:
                time.sleep(OPEN_PAUSE)
        raise ReaderError(f"{error} ({attempts} tries)")

    def _reopen(self) -> None:
        """Close and open again after the link failed a command (as the table's reader does:
        a late answer would otherwise be taken for the next command's); the card is no longer
        selected. :raises ReaderError: it does not open again."""
        self.close()
        self._clf, _, _ = self._connect(OPEN_ATTEMPTS)
        self.reopens += 1

    def close(self) -> None:
        if self._clf is not None:
            with contextlib.suppress(Exception):
                self._clf.close()
        self._clf = None
        self._target = None

    @property
    def clf(self) -> Any:
        if self._clf is None:
            raise ReaderError(f"{self.path} is not open")
        return self._clf

    def firmware(self, tries: int) -> tuple[str, Series] | None:
        """The chip's firmware version and ``tries`` timed GetFirmwareVersion round trips;
        None where the driver has no PN53x chip behind it (a simulated antenna)."""
        chipset = getattr(self.clf.device, "chipset", None)
        if chipset is None or not hasattr(chipset, "get_firmware_version"):
            return None
        answer = self._call(chipset.get_firmware_version)
        while answer is LINK_ERROR:  # until it answers, or ReaderError after a few in a row
            answer = self._call(chipset.get_firmware_version)
        return firmware_text(bytes(answer)), self._timed(chipset.get_firmware_version, tries)

    def chip_wait(self, seconds: float = CHIP_WAIT_S) -> tuple[float, bool] | None:
        """One waiting search (:mod:`.chip_wait`) on what should be an empty antenna: how
        long it ran before the chip answered or the host gave up (wall-clock seconds, whatever
        the probe's clock: this is about holding, not speed), and whether a card answered;
        None where the reader is not a PN532 on nfcpy's driver, or the link failed it."""
        if not ChipWait.available(self.clf):
            return None
        wait = ChipWait(seconds, spread=0.0)
        started = time.monotonic()
        found = self._call(wait.wait, self.clf)
        held = time.monotonic() - started
        if found is LINK_ERROR or self._call(wait.settle, self.clf) is LINK_ERROR:
            return None
        return held, found is not None

    def empty_senses(self, tries: int) -> tuple[Series, int]:
        """``tries`` timed ``sense()`` calls on what should be an empty antenna, and how many
        of them found a card anyway (a try the link failed is left out, and counted)."""
        found = 0
        durations = []
        for _ in range(tries):
            started = self.clock()
            target = self._sense()
            if target is LINK_ERROR:
                continue
            durations.append(self.clock() - started)
            found += target is not None
        self._target = None
        return Series.of(durations), found

    def wait_for_card(self, timeout: float, sleep: Callable[[float], None] = time.sleep) -> bool:
        """Sense until a card answers (it stays selected), or ``timeout`` seconds pass."""
        deadline = self.clock() + timeout
        while True:
            target = self._sense()
            if target is not None and target is not LINK_ERROR and _uid(target):
                self._target = target
                return True
            if self.clock() >= deadline:
                return False
            sleep(WAIT_PERIOD)

    @property
    def resting_uid(self) -> str | None:
        """The uid of the card :meth:`wait_for_card` found (upper-case hex)."""
        return _uid(self._target) if self._target is not None else None

    def resting_reads(self, tries: int) -> Series:
        """``tries`` timed presence READs of the card :meth:`wait_for_card` found, as the
        table's loop makes them. One the card does not answer (or another uid answers) is a
        failure, and so is a try whose re-select finds no card; one the link fails is left out
        (and counted in :attr:`link_errors`). After either the card is selected again, untimed
        (as the loop senses after a miss)."""
        if self._target is None:
            raise ReaderError("no resting card to read: wait_for_card() first")
        uid = _uid(self._target)
        durations: list[float] = []
        failures = 0
        selected = True
        for _ in range(tries):
            if not selected:
                found = self._sense()
                if found is LINK_ERROR:
                    continue
                if found is None or _uid(found) != uid:
                    failures += 1
                    continue
                self._target, selected = found, True
            started = self.clock()
            answered = self._read_uid()
            took = self.clock() - started
            if answered == uid:
                durations.append(took)
                continue
            selected = False
            failures += answered is not LINK_ERROR
        return Series.of(durations, failures)

    def _read_uid(self) -> object:
        """The uid a presence READ answers, None without an answer, or :data:`LINK_ERROR`."""
        try:
            pages = self._call(self.clf.exchange, bytearray(PRESENCE_READ), PRESENCE_TIMEOUT)
        except nfc.clf.CommunicationError:
            return None
        if pages is LINK_ERROR:
            return LINK_ERROR
        if pages is None or len(pages) < 8:
            return None
        return bytes(pages[0:3] + pages[4:8]).hex().upper()

    def _sense(self) -> Any:
        """What one ``sense()`` found: a target, None, or :data:`LINK_ERROR`."""
        try:
            return self._call(self.clf.sense, self._wanted, iterations=1)
        except nfc.clf.CommunicationError:
            return None

    def _call(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``call(...)``, or :data:`LINK_ERROR` if the link failed it (nfcpy's IOError: no ACK
        within 100 ms, a garbled frame). RF outcomes (nfcpy's CommunicationError) pass through.

        :raises ReaderError: after :data:`LINK_ERRORS_IN_A_ROW` link failures in a row.
        """
        self.commands += 1
        try:
            result = call(*args, **kwargs)
        except nfc.clf.CommunicationError:
            self._in_a_row = 0
            raise
        except Exception as exc:  # IOError from the link; nfcpy raises others as it fails
            self.link_errors += 1
            self._in_a_row += 1
            if self._in_a_row >= LINK_ERRORS_IN_A_ROW:
                raise ReaderError(f"{self.path} stopped answering: {exc}") from None
            self._reopen()
            return LINK_ERROR
        self._in_a_row = 0
        return result

    def _timed(self, call: Callable[[], object], tries: int) -> Series:
        durations: list[float] = []
        failures = 0
        for _ in range(tries):
            started = self.clock()
            try:
                answer = self._call(call)
            except nfc.clf.CommunicationError:
                answer = LINK_ERROR
            if answer is LINK_ERROR:
                failures += 1
                continue
            durations.append(self.clock() - started)
        return Series.of(durations, failures)


def firmware_text(answer: bytes) -> str:
    """GetFirmwareVersion's answer as people know it: ``PN532 v1.6``."""
    if len(answer) < 3:
        return f"unexpected answer {answer.hex()}"
    return f"PN5{answer[0]:02X} v{answer[1]}.{answer[2]}"


def _uid(target: Any) -> str | None:
    identifier = getattr(target, "sdd_res", None)
    return bytes(identifier).hex().upper() if identifier else None
