"""The host side of a reader board: a Pico with up to four PN532 modules streaming JSON lines
over USB serial. ``firmware/README.md`` is the contract; :func:`decode_line` re-implements the
firmware's decoder (same rules, same messages) so the host never imports firmware code.

One thread per board reads lines and hands each channel's arrivals and departures to its zone.
A port that fails to open or vanishes is reopened with back-off (0.1 s doubling to 1 s), shown
in every channel's health and never reported as cards leaving; a board silent for ``silence``
seconds (it sends health every 2 s) is reopened too. Each zone remembers the uid it was last
told about, and every ``health`` line's ``present`` settles it: after a reconnect a card still
there reports nothing, a card that went meanwhile reports ``left``.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

import serial

from companion.hardware.readers.base import Clock, Reader, ReaderError, ReadKind, Sink, TagRead
from companion.hardware.readers.board_protocol import (
    CHANNELS,
    MAX_LINE,
    BoardError,
    ChannelStatus,
    HealthReport,
    Hello,
    TagEvent,
    decode_line,
)

log = logging.getLogger(__name__)

BAUD = 115200
BACKOFF_FIRST = 0.1
BACKOFF_MAX = 1.0
SILENCE = 6.0
READ_TIMEOUT = 0.05


def backoff(failures: int) -> float:
    """Seconds to wait before reopening the port after ``failures`` failures in a row."""
    return min(BACKOFF_FIRST * (1 << min(max(failures - 1, 0), 10)), BACKOFF_MAX)


class SerialPort(Protocol):
    """What the board thread needs of a :class:`serial.Serial`."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


def open_serial(path: str) -> SerialPort:
    """``path`` opened at 115200 baud, reads returning within :data:`READ_TIMEOUT`."""
    port: SerialPort = serial.Serial(path, BAUD, timeout=READ_TIMEOUT)
    return port


class BoardChannel(Reader):
    """Channel ``number`` (0-3) of a :class:`SerialBoard` as one zone's reader.

    Starting the first channel of a board starts its thread; stopping the last one stops it.
    Lines for a stopped channel are ignored; when it starts again the board's next ``health``
    line tells it what changed meanwhile.
    """

    def __init__(self, board: SerialBoard, number: int, zone: str, sink: Sink, clock: Clock):
        super().__init__(zone, sink, clock)
        self.board = board
        self.number = number
        #: the uid this zone was last told is on the antenna (kept while the port is down)
        self.present: str | None = None
        self.running = False
        self._board_ok = True

    def start(self) -> None:
        if self.running:
            return
        self.health.set_state("starting")
        self.running = True
        self.board._started()

    def stop(self, timeout: float = 3.0) -> None:
        self.running = False
        self.board._stopped(timeout)
        self.health.set_state("stopped")

    # Called in the board's thread.

    def tag(self, event: TagEvent) -> None:
        if event.kind == "arrived":
            self._observe(event.uid, event.card)
        elif event.uid == self.present:
            self._observe(None)
        # else: a tag this zone was never told about (it came while the zone was stopped)

    def status(self, status: ChannelStatus) -> None:
        if status.ok:
            self.health.polled()
            # The board kept this uid through any error and the lines before it: it is the
            # truth now. (A channel failing since the board reset does not know: wait.)
            self._observe(status.present)
        elif self._board_ok:
            self.health.failed(f"channel {self.number}: the board says its PN532 is failing")
        self._board_ok = status.ok

    def count_error(self, message: str) -> None:
        """Count an error without changing the state (a garbled line is no reader failure)."""
        state = self.health.state
        self.health.failed(message)
        self.health.set_state(state)

    def _observe(self, uid: str | None, card: str | None = None) -> None:
        if uid == self.present:
            return
        if self.present is not None:
            self._report(self.present, "left")
        self.present = uid
        if uid is not None:
            self._report(uid, "arrived", card)

    def _report(self, uid: str, kind: ReadKind, card: str | None = None) -> None:
        self.health.read()
        try:
            self.sink(TagRead(self.zone, uid, kind, self.clock(), card))
        except Exception as exc:
            log.exception("zone %s: the sink failed", self.zone)
            self.count_error(f"the sink failed: {exc!r}")


Opener = Callable[[str], SerialPort]


class SerialBoard:
    """A reader board on the USB serial ``port``; :meth:`channel` makes each zone's reader.

    :param opener: opens the port (default :func:`open_serial`); tests may script it.
    :param silence: seconds without a byte from the board before the port is reopened.
    """

    def __init__(
        self, port: str, clock: Clock, *, opener: Opener = open_serial, silence: float = SILENCE
    ) -> None:
        self.port = port
        self.clock = clock
        self.silence = silence
        self.garbled = 0  #: lines that could not be decoded (each counted in every zone's health)
        self.hello: Hello | None = None  #: the board's last ``hello`` line
        self.connected = threading.Event()  #: set while the port is open
        self._open = opener
        self._channels: dict[int, BoardChannel] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._decoded = 0

    def channel(self, number: int, zone: str, sink: Sink) -> BoardChannel:
        """Channel ``number``'s reader for ``zone`` (not started).

        :raises ReaderError: for a channel outside 0-3 or one another zone already has.
        """
        with self._lock:
            if not 0 <= number < CHANNELS:
                raise ReaderError(f"zone {zone}: a reader board has channels 0 to 3, not {number}")
            if number in self._channels:
                other = self._channels[number].zone
                raise ReaderError(f"zone {zone}: channel {number} of {self.port} is zone {other}'s")
            channel = self._channels[number] = BoardChannel(self, number, zone, sink, self.clock)
        return channel

    @property
    def channels(self) -> dict[int, BoardChannel]:
        with self._lock:
            return dict(self._channels)

    def close(self, timeout: float = 3.0) -> None:
        """Stop every channel and the board's thread, and close the port."""
        for channel in self.channels.values():
            channel.running = False
            channel.health.set_state("stopped")
        self._halt(timeout)

    def _started(self) -> None:
        with self._lock:
            if self._thread is None:
                self._stop = threading.Event()  # each thread has its own stop flag
                self._thread = threading.Thread(
                    target=self._run, args=(self._stop,), name=f"board {self.port}", daemon=True
                )
                self._thread.start()

    def _stopped(self, timeout: float) -> None:
        if not any(channel.running for channel in self.channels.values()):
            self._halt(timeout)

    def _halt(self, timeout: float) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
            self._stop.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self, stop: threading.Event) -> None:
        failures = 0
        while not stop.wait(backoff(failures) if failures else 0):
            try:
                port = self._open(self.port)
            except Exception as exc:  # usually OSError; nothing may end this thread
                failures += 1
                self._fail_all(f"cannot open {self.port}: {exc}")
                continue
            if failures:
                for channel in self._running():
                    channel.health.reopened()
            decoded = self._decoded
            self.connected.set()
            try:
                self._read(port, stop)
            except Exception as exc:  # the port vanished (SerialException is an OSError)
                self._fail_all(f"{self.port} failed: {exc}")
            finally:
                self.connected.clear()
                with contextlib.suppress(Exception):
                    port.close()
            # A port that opens but delivers nothing useful keeps backing off.
            failures = 1 if self._decoded > decoded else failures + 1

    def _read(self, port: SerialPort, stop: threading.Event) -> None:
        buffer = bytearray()
        skipping = False  # the rest of an overlong line
        last = time.monotonic()
        while not stop.is_set():
            chunk = port.read(port.in_waiting or 1)
            now = time.monotonic()
            if not chunk:
                if now - last > self.silence:
                    self._fail_all(f"no lines from {self.port} for {self.silence:g} s")
                    return
                continue
            last = now
            buffer += chunk
            while (end := buffer.find(b"\n")) >= 0:
                raw = bytes(buffer[:end])
                del buffer[: end + 1]
                if not skipping and raw.strip():
                    self._handle(raw)
                skipping = False
            if len(buffer) > MAX_LINE:
                self._garbled(f"a line longer than {MAX_LINE} bytes")
                buffer.clear()
                skipping = True

    def _handle(self, raw: bytes) -> None:
        try:
            line = decode_line(raw)
        except ValueError as exc:
            self._garbled(str(exc))
            return
        self._decoded += 1
        match line:
            case Hello():
                self.hello = line
            case TagEvent():
                if channel := self._running_channel(line.channel):
                    channel.tag(line)
            case BoardError():
                if channel := self._running_channel(line.channel):
                    channel.health.failed(f"channel {line.channel}: {line.message}")
            case HealthReport():
                for status in line.channels:
                    if channel := self._running_channel(status.channel):
                        channel.status(status)

    def _garbled(self, message: str) -> None:
        self.garbled += 1
        log.warning("%s: garbled line: %s", self.port, message)
        for channel in self._running():
            channel.count_error(f"garbled line from {self.port}: {message}")

    def _fail_all(self, message: str) -> None:
        log.warning("%s", message)
        for channel in self._running():
            channel.health.failed(message)

    def _running(self) -> list[BoardChannel]:
        return [channel for channel in self.channels.values() if channel.running]

    def _running_channel(self, number: int) -> BoardChannel | None:
        channel = self._channels.get(number)
        return channel if channel is not None and channel.running else None
