"""The host side of a reader board: a Pico with up to four PN532 modules streaming JSON lines
over USB serial (the protocol is in ``firmware/README.md``; this module re-implements its
decoder so the host never imports firmware code).

One thread per board reads lines and hands arrivals and departures to the channel's zone; a
port that fails or vanishes is reopened with back-off, shown in every channel's health, and
never reported as cards leaving. After a reconnect the board's health line says which card
each channel still sees: the same card reports nothing, an empty channel reports it gone.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from companion.readers.base import Clock, Reader, Sink, TagRead

BAUD = 115200
BACKOFF_FIRST = 0.1
BACKOFF_MAX = 1.0
EVENTS = ("hello", "arrived", "left", "health", "error")


@dataclass(frozen=True, slots=True)
class BoardLine:
    event: str
    channel: int | None = None
    uid: str | None = None
    card: str | None = None
    channels: tuple[dict[str, Any], ...] = ()
    message: str | None = None


def decode_line(raw: bytes | str) -> BoardLine:
    """One protocol line. :raises ValueError: saying what is wrong with it."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("v") != 1:
        raise ValueError('not a version 1 board line (needs "v": 1)')
    event = data.get("ev")
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}")
    channel = data.get("ch")
    needs_channel = event in ("arrived", "left", "error")
    if needs_channel and (not isinstance(channel, int) or not 0 <= channel <= 3):
        raise ValueError(f'"{event}" needs "ch": 0 to 3')
    if event in ("arrived", "left"):
        uid = data.get("uid")
        if (
            not isinstance(uid, str)
            or not uid
            or any(c not in "0123456789abcdefABCDEF" for c in uid)
        ):
            raise ValueError(f'"{event}" needs "uid": hex digits')
        card = data.get("card")
        return BoardLine(event, channel, uid.upper(), card if isinstance(card, str) else None)
    if event == "health":
        listed = data.get("ch")
        if not isinstance(listed, list) or not all(isinstance(c, dict) for c in listed):
            raise ValueError('"health" needs "ch": a list of channel objects')
        return BoardLine(event, channels=tuple(listed))
    if event == "error":
        return BoardLine(event, channel, message=str(data.get("msg", "")))
    return BoardLine(event)


class BoardChannel(Reader):
    """One channel of a board, as a zone's reader."""

    def __init__(self, board: SerialBoard, number: int, zone: str, sink: Sink, clock: Clock):
        super().__init__(zone, sink, clock)
        self.board = board
        self.number = number
        self.present: str | None = None
        self.unsure = False
        self.running = False

    def start(self) -> None:
        self.running = True
        self.board.started(self)

    def stop(self, timeout: float = 3.0) -> None:
        self.running = False
        self.board.stopped(self, timeout)
        self.health.set_state("stopped")

    def report(self, uid: str, kind: str, card: str | None = None) -> None:
        self.present = uid if kind == "arrived" else None
        self.health.read()
        if self.running:
            self.sink(
                TagRead(
                    self.zone, uid, "arrived" if kind == "arrived" else "left", self.clock(), card
                )
            )


Opener = Callable[[str], Any]


class SerialBoard:
    def __init__(self, port: str, clock: Clock, *, opener: Opener | None = None) -> None:
        self.port = port
        self.clock = clock
        self._open_port: Opener = opener or (lambda path: serial.Serial(path, BAUD, timeout=0.1))
        self.channels: dict[int, BoardChannel] = {}
        self.garbled = 0
        #: set while the port is open (the board's lines can be read)
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def channel(self, number: int, zone: str, sink: Sink) -> BoardChannel:
        if number in self.channels:
            raise ValueError(
                f"channel {number} of {self.port} is already zone {self.channels[number].zone}"
            )
        self.channels[number] = BoardChannel(self, number, zone, sink, self.clock)
        return self.channels[number]

    def started(self, channel: BoardChannel) -> None:
        with self._lock:
            if self._thread is None:
                self._stop.clear()
                self._thread = threading.Thread(
                    target=self._run, name=f"board-{self.port}", daemon=True
                )
                self._thread.start()

    def stopped(self, channel: BoardChannel, timeout: float) -> None:
        if not any(c.running for c in self.channels.values()):
            self.close(timeout)

    def close(self, timeout: float = 3.0) -> None:
        self._stop.set()
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        delay = BACKOFF_FIRST
        while not self._stop.is_set():
            try:
                port = self._open_port(self.port)
            except (OSError, serial.SerialException) as exc:
                self._failed(f"cannot open {self.port}: {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            delay = BACKOFF_FIRST
            self.connected.set()
            try:
                self._read(port)
            except (OSError, serial.SerialException) as exc:
                self._failed(f"{self.port} failed: {exc}")
            finally:
                with contextlib.suppress(OSError, serial.SerialException):
                    port.close()
            self.connected.clear()
            for channel in self.channels.values():
                channel.unsure = channel.present is not None

    def _failed(self, message: str) -> None:
        for channel in self.channels.values():
            channel.health.failed(message)

    def _read(self, port: Any) -> None:
        buffer = b""
        while not self._stop.is_set():
            chunk = port.read(256)
            if not chunk:
                continue
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                if raw.strip():
                    self._handle(raw)

    def _handle(self, raw: bytes) -> None:
        try:
            line = decode_line(raw)
        except ValueError:
            self.garbled += 1
            for each in self.channels.values():
                each.health.failed(f"garbled line from {self.port}")
            return
        channel = self.channels.get(line.channel) if line.channel is not None else None
        if line.event in ("arrived", "left") and channel is not None and line.uid is not None:
            if line.event == "arrived" and channel.unsure and channel.present == line.uid:
                channel.unsure = False  # the same card, still there after a reconnect
                return
            channel.unsure = False
            channel.report(line.uid, line.event, line.card)
        elif line.event == "health":
            self._health(line)
        elif line.event == "error" and channel is not None:
            channel.health.failed(line.message or "reader error")

    def _health(self, line: BoardLine) -> None:
        for entry in line.channels:
            found = self.channels.get(entry.get("ch", -1))
            if found is None:
                continue
            channel = found
            if entry.get("ok"):
                channel.health.polled()
            else:
                channel.health.failed(str(entry.get("error", "the board reports it failing")))
            seen = entry.get("present")
            if channel.unsure and entry.get("ok"):
                channel.unsure = False
                if channel.present is not None and seen != channel.present:
                    channel.report(channel.present, "left")
                if isinstance(seen, str) and seen.upper() != channel.present:
                    channel.report(seen.upper(), "arrived")
