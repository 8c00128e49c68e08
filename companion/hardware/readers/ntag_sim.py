"""A simulated NFC table: NTAG213/215 cards on simulated antennas that speak nfcpy's ``udp``
driver protocol, so the real nfcpy reader code runs against them (only the transport differs).

Wire format (nfcpy ``clf/udp.py``): one datagram per RF frame, ``b"106A <hex>"``; ``b"RFOFF"``
is "field off". Each :class:`SimZone` is one UDP port on 127.0.0.1 (one antenna) answering
REQA/WUPA, two-level anticollision and SELECT, READ, FAST_READ, GET_VERSION, READ_SIG,
READ_CNT, PWD_AUTH, WRITE and HLTA like an NTAG21x, and going mute on anything else (as nfcpy
expects of a Type 2 tag). ``fast_empty`` answers polls of an empty antenna (and 106B/212F
polls) with ``RFOFF`` at once, as real hardware answers "no target" in milliseconds; so it does an
anticollision step no card answers (the card was lifted or swapped mid-poll, so the step
comes out of turn, or a SELECT names a card that was swapped for another: nfcpy re-selects a
tag by its uid while activating it), where nfcpy's udp driver would otherwise wait 0.5 s for
each step.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from dataclasses import dataclass, field

from companion.hardware.readers.ndef_card import encode_card_id

VERSIONS = {
    "NTAG213": (bytes.fromhex("0004040201000F03"), 45, 0x12),
    "NTAG215": (bytes.fromhex("0004040201001103"), 135, 0x3E),
}
ACK = b"\x0a"
NAK = b"\x00"  #: a WRITE that did not take (4 bits, 0): the tag goes back to idle


@dataclass
class NtagCard:
    """An NTAG21x: a 7-byte uid and its memory, page by page (4 bytes a page)."""

    uid: bytes
    model: str = "NTAG213"
    memory: bytearray = field(default_factory=bytearray)
    #: PWD and PACK as delivered (FF FF FF FF, 00 00); memory reads them back as zeros
    password: bytes = b"\xff\xff\xff\xff"
    pack: bytes = b"\x00\x00"
    #: WRITEs still to refuse (NAK, nothing written), as a card slid off mid-write: a test's
    #: failed write, deterministically
    refuse_writes: int = 0

    def __post_init__(self) -> None:
        if len(self.uid) != 7:
            raise ValueError("an NTAG uid has 7 bytes")
        if not self.memory:
            version, pages, size = VERSIONS[self.model]
            memory = bytearray(pages * 4)
            u = self.uid
            memory[0:4] = bytes([u[0], u[1], u[2], 0x88 ^ u[0] ^ u[1] ^ u[2]])
            memory[4:8] = u[3:7]
            memory[8] = u[3] ^ u[4] ^ u[5] ^ u[6]
            memory[9] = 0x48  # internal
            memory[12:16] = bytes([0xE1, 0x10, size, 0x00])  # capability container
            memory[16:19] = bytes([0x03, 0x00, 0xFE])  # an empty NDEF message
            dynamic_lock = (pages - 5) * 4
            memory[dynamic_lock : dynamic_lock + 4] = bytes([0x00, 0x00, 0x00, 0xBD])
            config = (pages - 4) * 4
            memory[config : config + 4] = bytes([0x04, 0x00, 0x00, 0xFF])  # CFG0, AUTH0=FF
            memory[config + 4 : config + 8] = bytes([0x00, 0x05, 0x00, 0x00])  # CFG1 (ACCESS)
            # PWD (FF FF FF FF on the chip) always reads back as zeros; PACK is 00 00.
            self.memory = memory

    @classmethod
    def for_card(cls, uid_hex: str, card_id: str | None = None, model: str = "NTAG213") -> NtagCard:
        card = cls(bytes.fromhex(uid_hex), model)
        if card_id is not None:
            card.write_ndef(encode_card_id(card_id))
        return card

    @classmethod
    def garbled(cls, uid_hex: str) -> NtagCard:
        """A tag whose NDEF area holds junk (a torn write, a foreign format)."""
        card = cls(bytes.fromhex(uid_hex))
        card.memory[16:24] = bytes([0x03, 0x05, 0xD1, 0xFF, 0x13, 0x37, 0x00, 0x00])
        return card

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    @property
    def pages(self) -> int:
        return len(self.memory) // 4

    def write_ndef(self, message: bytes) -> None:
        tlv = bytes([0x03, len(message)]) + message + b"\xfe"
        user_end = (self.pages - 5) * 4
        if 16 + len(tlv) > user_end:
            raise ValueError("the NDEF message does not fit the tag")
        self.memory[16 : 16 + len(tlv)] = tlv

    def read(self, page: int) -> bytes:
        """READ: four pages from ``page``, rolling over at the end of memory."""
        return bytes(
            self.memory[((page + n) % self.pages) * 4 + b] for n in range(4) for b in range(4)
        )

    def answer(self, frame: bytes) -> bytes | None:
        """The answer to a command in the ACTIVE state, or None (mute, back to idle)."""
        command = frame[0]
        if command == 0x30 and len(frame) == 2 and frame[1] < self.pages:
            return self.read(frame[1])
        if command == 0x3A and len(frame) == 3 and frame[1] <= frame[2] < self.pages:
            return bytes(self.memory[frame[1] * 4 : (frame[2] + 1) * 4])
        if command == 0x60 and len(frame) == 1:
            return VERSIONS[self.model][0]
        if command == 0x3C and len(frame) == 2:
            return bytes(32)  # an originality signature of zeros (unsigned sample)
        if command == 0x39 and len(frame) == 2 and frame[1] == 0x02:
            return bytes(3)
        if command == 0x1B and len(frame) == 5:  # PWD_AUTH: PACK, or a NAK (4 bits, 0)
            return self.pack if frame[1:5] == self.password else NAK
        if command == 0xA2 and len(frame) == 6 and 4 <= frame[1] < self.pages - 5:
            if self.refuse_writes > 0:
                self.refuse_writes -= 1
                return NAK
            self.memory[frame[1] * 4 : frame[1] * 4 + 4] = frame[2:6]
            return ACK
        return None


class SimZone:
    """One simulated antenna on a UDP port of 127.0.0.1, served by its own thread."""

    def __init__(self, name: str, *, fast_empty: bool = True, port: int = 0) -> None:
        self.name = name
        self.fast_empty = fast_empty
        self._lock = threading.Lock()
        self._card: NtagCard | None = None
        self._state = "idle"  # idle, ready1, ready2, active, halt
        self._port = port
        self._socket: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        #: polls (REQA/WUPA) that found no card: how a test knows the reader saw a card go
        self.empty_polls = 0
        #: seconds the antenna takes to answer each frame: a reader whose polls have slowed
        #: down (nfcpy issue #62), without waiting out nfcpy's 1 s udp timeout of a silent one
        self.answer_delay = 0.0
        self.reopen()

    @property
    def port(self) -> int:
        return self._port

    @property
    def path(self) -> str:
        """The nfcpy device path of this antenna."""
        return f"udp:127.0.0.1:{self._port}"

    @property
    def card(self) -> NtagCard | None:
        return self._card

    def place(self, card: NtagCard) -> None:
        with self._lock:
            self._card = card
            self._state = "idle"

    def lift(self) -> NtagCard | None:
        with self._lock:
            card, self._card = self._card, None
            self._state = "idle"
            return card

    def close(self) -> None:
        """The antenna's port closes, as if its reader were unplugged."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def reopen(self) -> None:
        """Bind the same port again (the reader is back)."""
        if self._socket is not None:
            return
        sock = _bind(self._port)
        self._port = sock.getsockname()[1]
        self._socket = sock
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"sim-{self.name}", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        sock, stop = self._socket, self._stop
        assert sock is not None
        while not stop.is_set():
            if not select.select([sock], [], [], 0.05)[0]:
                continue
            try:
                datagram, peer = sock.recvfrom(1024)
            except OSError:
                return
            reply = self.handle(datagram)
            if reply is not None and self.answer_delay and stop.wait(self.answer_delay):
                return  # closed while it waited
            if reply is not None:
                with contextlib.suppress(OSError):  # the reader's socket may be gone already
                    sock.sendto(reply, peer)

    def handle(self, datagram: bytes) -> bytes | None:
        """One frame from the reader, one frame back (or silence)."""
        if datagram.startswith(b"RFOFF"):
            with self._lock:
                self._state = "idle"
            return None
        try:
            brty, data = datagram.split()
            frame = bytes.fromhex(data.decode("ascii"))
        except ValueError:
            return None
        if brty != b"106A":
            return b"RFOFF" if self.fast_empty else None
        with self._lock:
            answer = self._step(frame)
        if answer is None:
            return None
        return answer if answer == b"RFOFF" else b"106A " + answer.hex().encode("ascii")

    def _step(self, frame: bytes) -> bytes | None:
        card = self._card
        if frame in (b"\x26", b"\x52"):  # REQA / WUPA
            if card is None or (self._state == "halt" and frame == b"\x26"):
                self.empty_polls += card is None
                return b"RFOFF" if self.fast_empty else None  # no card answers this poll
            self._state = "ready1"
            return bytes.fromhex("4400")
        no_target = b"RFOFF" if self.fast_empty else None
        if card is None:
            return no_target if frame[:1] in (b"\x93", b"\x95") else None
        memory, state = card.memory, self._state
        cascade1 = b"\x88" + bytes(memory[0:4])  # cascade tag, uid0-2, BCC0
        if frame == b"\x93\x20" and state == "ready1":
            return cascade1
        if frame[:2] == b"\x93\x70" and state == "ready1":
            if frame[2:7] == cascade1:
                self._state = "ready2"
                return b"\x04"
            self._state = "idle"
            return no_target  # a SELECT of another card: none answers
        if frame == b"\x95\x20" and state == "ready2":
            return bytes(memory[4:9])
        if frame[:2] == b"\x95\x70" and state == "ready2":
            if frame[2:7] == bytes(memory[4:9]):
                self._state = "active"
                return b"\x00"
            self._state = "idle"
            return no_target
        if frame[:1] in (b"\x93", b"\x95"):  # a step out of turn: the card was swapped mid-poll
            self._state = "idle"
            return no_target
        if state != "active":
            return None
        if frame[:1] == b"\x50":  # HLTA: only a WUPA (or the field going off) wakes it
            self._state = "halt"
            return None
        answer = card.answer(frame)
        if answer is None or (frame[:1] == b"\xa2" and answer == NAK):
            self._state = "idle"  # an NTAG goes mute on what it does not know, idle after a NAK
        return answer


def _bind(port: int) -> socket.socket:
    """A UDP socket on 127.0.0.1. An ephemeral port must not be a named service: nfcpy's
    udp driver turns the port back into a number through getnameinfo without NI_NUMERICSERV,
    so port 60177 comes back as "tfido" and nfcpy fails."""
    for _ in range(50):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", port))
        if port or not _named(sock.getsockname()[1]):
            return sock
        sock.close()
    raise OSError("no unnamed UDP port found for the simulator")


def _named(port: int) -> bool:
    try:
        socket.getservbyport(port)
    except OSError:
        return False
    return True


class Simulator:
    """The simulated table: named antennas (thread-safe)."""

    def __init__(self) -> None:
        self._zones: dict[str, SimZone] = {}
        self._lock = threading.Lock()

    @property
    def zones(self) -> dict[str, SimZone]:
        """The antennas by name (a copy)."""
        with self._lock:
            return dict(self._zones)

    def add_zone(self, name: str, fast_empty: bool = True) -> SimZone:
        with self._lock:
            if name in self._zones:
                raise ValueError(f"the simulator already has a zone {name!r}")
            self._zones[name] = SimZone(name, fast_empty=fast_empty)
            return self._zones[name]

    def zone(self, name: str) -> SimZone:
        with self._lock:
            return self._zones[name]

    def close(self) -> None:
        for zone in self.zones.values():
            zone.close()


# an nfcpy udp path's antenna, as the zone reader checks it


def udp_address(path: str) -> tuple[str, int]:
    parts = path.split(":")
    host = parts[1] if len(parts) > 1 and parts[1] else "localhost"
    port = int(parts[2]) if len(parts) > 2 and parts[2] else 54321
    return host, port


def udp_alive(path: str) -> bool:
    """Whether a simulated antenna's port answers (a closed port refuses at once)."""
    try:
        probe_udp(path)
    except OSError:
        return False
    return True


def probe_udp(path: str) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(udp_address(path))
        probe.settimeout(0.2)
        probe.send(b"106B 050010")  # a Type B poll the antenna answers and otherwise ignores
        # An antenna without fast_empty may stay silent; only a refusal is fatal.
        with contextlib.suppress(TimeoutError):
            probe.recv(64)
