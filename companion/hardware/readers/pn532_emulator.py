"""An emulated PN532 on a pseudo-terminal, so that nfcpy's own ``pn532`` driver runs unchanged.

Usage (tests, benchmarks, ``sim:`` zones)::

    reader = EmulatedPN532("base-1", "pi-uart-921600")   # a pty, and /dev/<name> linking to it
    clf = nfc.ContactlessFrontend(reader.path)           # "tty:<name>:pn532", nfcpy's driver
    reader.place(NtagCard.for_card("04A1B2C3D4E5F6", "core/zapbot"))
    reader.lift()
    before = reader.stats; ...; spent = reader.stats - before   # round trips, UART bytes, time
    reader.unplug(); reader.plug()                         # the reader vanishes and comes back
    reader.close()

The chip (:mod:`.pn532_chip`) speaks the HSU frames of :mod:`.pn532_frames`; each answer is
delayed by the profile's modelled time (:mod:`.pn532_timing`: UART bytes, USB bridge latency,
firmware, RF) through ``sleep``, and that time is added to :attr:`EmulatedPN532.stats` whether
or not it was slept (tests pass a ``sleep`` that returns at once and read the accounting).
``realtime=False`` waits for nothing: no answer is delayed, and a search that finds no card
gives up at once (as after its tries), its modelled time still charged to the accounting; for
a host that times itself on :attr:`EmulatedPN532.stats` and needs no real-time behaviour.

nfcpy finds a ``tty:<name>:pn532`` device only in ``/dev``, so the emulator needs a writable
``/dev`` (root, or a CI container): :class:`EmulatorUnavailable` says so otherwise. An
InListPassiveTarget that finds no card at once goes on searching as the chip does
(:mod:`.pn532_search`): the host gets its ACK now and its answer when a card comes into the field
(on the next try after :meth:`EmulatedPN532.place`), when a finite search has made its
MxRtyPassiveActivation + 1 tries ("no target"), or never, if the host aborts it with an ACK frame
(or sends another command). ``drop_reads``, ``activation_miss`` (seeded by ``seed``) and
``endless_search`` are :class:`~.pn532_chip.Pn532Chip`'s; ``present=False`` makes a reader that
is missing (its path names no device until :meth:`EmulatedPN532.plug`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import re
import select
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass

from companion.hardware.readers import pn532_timing as timing
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_chip import Answer, Pn532Chip, SyntaxFault
from companion.hardware.readers.pn532_frames import (
    ACK,
    ERROR_FRAME,
    NACK,
    FrameParser,
    HostFrame,
    answer_frame,
)
from companion.hardware.readers.pn532_pty import answer_promptly, remove_stale
from companion.hardware.readers.pn532_search import Search

DEVICE_DIR = "/dev"
DEVICE_PREFIX = "pn532emu"
#: bytes before the start code that wake a powered-down PN532 on HSU (UM0701-02 §7.2.11: the
#: host sends a long preamble; nfcpy sends ten 00 bytes before its first command)
WAKE_LEADING = 3
_numbers = itertools.count(1)


class EmulatorUnavailable(OSError):
    """No emulated PN532 can be made here (``/dev`` is not writable)."""


@dataclass(frozen=True)
class LinkStats:
    """What crossed the link: command round trips, UART bytes each way (ACKs and preambles
    included) and the modelled time the host waited for answers."""

    round_trips: int = 0
    bytes_to_chip: int = 0
    bytes_from_chip: int = 0
    modelled_s: float = 0.0

    @property
    def uart_bytes(self) -> int:
        return self.bytes_to_chip + self.bytes_from_chip

    def __sub__(self, earlier: LinkStats) -> LinkStats:
        return LinkStats(
            self.round_trips - earlier.round_trips,
            self.bytes_to_chip - earlier.bytes_to_chip,
            self.bytes_from_chip - earlier.bytes_from_chip,
            self.modelled_s - earlier.modelled_s,
        )

    def __add__(self, other: LinkStats) -> LinkStats:
        return LinkStats(
            self.round_trips + other.round_trips,
            self.bytes_to_chip + other.bytes_to_chip,
            self.bytes_from_chip + other.bytes_from_chip,
            self.modelled_s + other.modelled_s,
        )


@dataclass(frozen=True)
class _Searching:
    """An InListPassiveTarget the chip is still searching for: ACKed, not yet answered."""

    search: Search
    received: float  #: the emulator's clock when its frame arrived
    rf_start: float  #: seconds after ``received`` that the chip began its RF work
    if_nothing: Answer  #: its answer if no card comes ("no target" when a finite one ends)

    def at(self, modelled_s: float) -> float:
        """A time of the search (modelled seconds since its RF work began) on the clock."""
        return self.received + self.rf_start + modelled_s


class EmulatedPN532:
    """One PN532 board with its antenna, on a pty linked from ``/dev/<device_name>``."""

    def __init__(
        self,
        name: str,
        profile: str = timing.DEFAULT_PROFILE,
        *,
        drop_reads: float = 0.0,
        activation_miss: float = 0.0,
        endless_search: bool = True,
        seed: int = 0,
        present: bool = True,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        realtime: bool = True,
        device_dir: str = DEVICE_DIR,
    ) -> None:
        self.name = name
        self.profile = timing.profile_named(profile)
        self.drop_reads, self.activation_miss = drop_reads, activation_miss
        self.endless_search = endless_search
        self.chip = self._power_up(random.Random(seed))
        self.sleep, self.clock = sleep, clock
        #: False: answers and finite searches are not waited for (:attr:`stats` keeps their time)
        self.realtime = realtime
        slug = re.sub(r"[^a-zA-Z0-9]+", "-", name).strip("-") or "zone"
        self.device_name = f"{DEVICE_PREFIX}{os.getpid()}x{next(_numbers)}-{slug}"
        self.device = os.path.join(device_dir, self.device_name)
        self._lock = threading.Lock()  # the chip, the card and the counters
        self._stats = LinkStats()
        self._fds: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._searching: _Searching | None = None  # the serving thread's (under _lock)
        self._placed_at = 0.0  # when the card in the field came (the emulator's clock)
        self._wake: tuple[int, int] | None = None  # a pipe: a card came, look again
        _check_writable(device_dir)
        remove_stale(device_dir, DEVICE_PREFIX)
        if present:
            self.plug()

    @property
    def path(self) -> str:
        """The nfcpy path of this reader."""
        return f"tty:{self.device_name}:pn532"

    @property
    def stats(self) -> LinkStats:
        with self._lock:
            return self._stats

    @property
    def plugged(self) -> bool:
        return self._fds is not None

    # the card on the antenna (the same calls as the simulator's antennas)

    @property
    def card(self) -> NtagCard | None:
        return self.chip.card

    def place(self, card: NtagCard) -> None:
        with self._lock:
            self.chip.place(card)
            self._placed_at = self.clock()
            wake = self._wake
        if wake is not None:  # a search in progress finds it on its next try
            with contextlib.suppress(OSError):
                os.write(wake[1], b"!")

    def lift(self) -> NtagCard | None:
        with self._lock:
            card = self.chip.card
            self.chip.place(None)
            return card

    # the board coming and going

    def plug(self) -> None:
        """A fresh pty and the ``/dev`` link to it: the reader is (back) on its port. The chip
        powers up again: 115200 baud, no field, no selected card."""
        if self._fds is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo or line editing before the host configures the port
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.device)
        try:
            os.symlink(os.ttyname(slave), self.device)
        except OSError as exc:
            os.close(master)
            os.close(slave)
            raise EmulatorUnavailable(_unwritable(os.path.dirname(self.device), exc)) from None
        with self._lock:
            card = self.chip.card
            self.chip = self._power_up(self.chip.rng)
            self.chip.place(card)
        self._fds = (master, slave)
        self._wake = os.pipe()
        self._stop = threading.Event()
        # "sim-": the benchmarks count simulator threads apart from the table's own
        name = f"sim-pn532-{self.name}"
        serving = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(serving,), name=name, daemon=True)
        self._thread.start()
        serving.wait()  # a host that opens the port at once finds the chip answering

    def _power_up(self, rng: random.Random) -> Pn532Chip:
        return Pn532Chip(
            self.profile,
            drop_reads=self.drop_reads,
            activation_miss=self.activation_miss,
            endless_search=self.endless_search,
            rng=rng,
        )

    def unplug(self) -> None:
        """The reader vanishes: its port closes under the host, the ``/dev`` link goes."""
        self._stop.set()
        if self._wake is not None:  # the serving thread sees the stop now, not 50 ms on
            with contextlib.suppress(OSError):
                os.write(self._wake[1], b"!")
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.device)
        for fds in (self._fds, self._wake):
            for fd in fds or ():
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._fds = self._wake = None
        self._searching = None

    # the simulator antennas' names for the same two
    close = unplug
    reopen = plug

    # the serving thread

    def _serve(self, serving: threading.Event) -> None:
        assert self._fds is not None and self._wake is not None
        master, wake, stop = self._fds[0], self._wake[0], self._stop
        try:
            answer_promptly()
        finally:
            serving.set()
        parser = FrameParser()
        while not stop.is_set():
            ready = select.select([master, wake], [], [], self._until_search_ends())[0]
            if wake in ready:
                with contextlib.suppress(OSError):
                    os.read(wake, 64)
            if master in ready:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    return
                received = self.clock()
                for frame in parser.feed(data):
                    self._send_all(master, received, self._answer(frame, received))
            self._send_all(master, 0.0, self._search_answer())

    def _send_all(self, master: int, received: float, replies: list[tuple[float, bytes]]) -> None:
        while replies:  # what the host sees at the same moment goes in one write
            at = replies[0][0]
            now = [reply for delay, reply in replies if delay == at]
            replies = [(delay, reply) for delay, reply in replies if delay != at]
            self._send(master, received + at, b"".join(now))

    def _send(self, master: int, at: float, reply: bytes) -> None:
        wait = at - self.clock()
        if wait > 0 and self.realtime:
            self.sleep(wait)
        with contextlib.suppress(OSError):  # the host may be gone already
            os.write(master, reply)

    def _until_search_ends(self) -> float:
        """How long the serving thread may wait for the host or a card (it looks at its stop
        event every 50 ms): until a finite search gives up."""
        with self._lock:
            searching = self._searching
        ends = searching.search.ends_s if searching is not None else None
        if searching is None or ends is None:
            return 0.05
        return min(0.05, max(0.0, searching.at(ends) - self.clock()))

    def _answer(self, frame: HostFrame, received: float) -> list[tuple[float, bytes]]:
        """The replies to one host frame, each with when the host sees it (seconds after
        ``received``), and the accounting of both."""
        with self._lock:
            chip, profile = self.chip, self.profile
            if frame.kind == "ack" or chip.pending_baud is not None:
                # nfcpy flushes the port's output as it reopens it at the new rate, which on a
                # pty can discard its ACK after SetSerialBaudrate: its next frame is the cue too
                chip.host_ack()
            if frame.kind in ("ack", "command"):
                # The host's ACK aborts a search still running: it answers nothing more. A
                # host that gave up on it without one sends its next command: the same.
                self._searching = None
            usb_out = profile.usb_out_s if profile.rf else 0.0
            wire_in = profile.uart_s(frame.size, chip.baud) + usb_out
            replies: list[tuple[float, bytes]] = []
            if frame.kind in ("ack", "nack"):
                pass  # an ACK aborts; a NACK asks for a resend, but every answer went out whole
            elif frame.kind == "bad":
                replies = [(wire_in, NACK)]
            elif chip.asleep and frame.leading < WAKE_LEADING:
                pass  # a sleeping PN532 misses a frame sent without a wake-up preamble
            else:
                return self._execute(frame, wire_in, received)
            self._count(LinkStats(bytes_to_chip=frame.size), replies)
            return replies

    def _execute(
        self, frame: HostFrame, wire_in: float, received: float
    ) -> list[tuple[float, bytes]]:
        chip, profile, body = self.chip, self.profile, frame.body
        try:
            answer = chip.command(body[1], body[2:])
            reply, busy = answer_frame(body[1], answer.data), answer.busy_s
        except SyntaxFault:
            answer, reply, busy = Answer(b""), ERROR_FRAME, 0.0
        ack_arrives = wire_in + profile.uart_s(len(ACK), chip.baud)
        # A round trip starts with the bridge empty: the host sent after it saw the last answer.
        bridge = timing.Bridge(profile.bridge_latency_s)
        ack_seen = bridge.deliver(ack_arrives)
        sent = LinkStats(round_trips=1, bytes_to_chip=frame.size)
        if answer.search is not None:  # no card yet: the answer waits (_search_answer)
            rf_start = ack_arrives + profile.firmware_s
            self._searching = _Searching(answer.search, received, rf_start, answer)
            replies = [(ack_seen, ACK)]
            self._count(sent, replies)
            return replies
        answer_arrives = (
            ack_arrives + profile.firmware_s + busy + profile.uart_s(len(reply), chip.baud)
        )
        replies = [(ack_seen, ACK), (bridge.deliver(answer_arrives), reply)]
        self._count(sent, replies)
        return replies

    def _search_answer(self) -> list[tuple[float, bytes]]:
        """The answer of the search in progress, once a card it wants has come (on its next
        try) or a finite one has given up; each time on the emulator's clock (a finite one
        gives up at once when the emulator is not in real time)."""
        with self._lock:
            searching, chip = self._searching, self.chip
            if searching is None:
                return []
            arrived = max(0.0, self._placed_at - searching.at(0.0))
            answer = chip.search_found(searching.search, arrived)
            ends = searching.search.ends_s
            # a finite search gives up after its tries: on the clock, or at once if not real time
            given_up = ends is not None and (
                not self.realtime or self.clock() >= searching.at(ends)
            )
            if answer is None and given_up:
                answer = searching.if_nothing
            if answer is None:
                return []
            self._searching = None
            reply = answer_frame(0x4A, answer.data)
            arrives = searching.at(answer.busy_s) + self.profile.uart_s(len(reply), chip.baud)
            seen = timing.Bridge(self.profile.bridge_latency_s).deliver(arrives)
            replies = [(seen, reply)]
            self._count(LinkStats(), replies, modelled_s=seen - searching.received)
            return replies

    def _count(
        self, sent: LinkStats, replies: list[tuple[float, bytes]], modelled_s: float | None = None
    ) -> None:
        """Count a host frame and its replies; a round trip's modelled time: its answer seen."""
        answered = sent.round_trips and len(replies) == 2
        if modelled_s is None:
            modelled_s = max((at for at, _ in replies), default=0.0) if answered else 0.0
        self._stats = (
            self._stats
            + sent
            + LinkStats(
                bytes_from_chip=sum(len(reply) for _, reply in replies), modelled_s=modelled_s
            )
        )


def _check_writable(device_dir: str) -> None:
    if not os.access(device_dir, os.W_OK):
        raise EmulatorUnavailable(_unwritable(device_dir, None))


def _unwritable(device_dir: str, error: OSError | None) -> str:
    why = f" ({error.strerror})" if error is not None else ""
    return (
        f"an emulated PN532 needs to link its pty from {device_dir} (nfcpy looks for "
        f"tty:<name> there), which this process cannot write{why}: run as root or in a "
        'container, or use the UDP simulator (reader = "sim:udp")'
    )
