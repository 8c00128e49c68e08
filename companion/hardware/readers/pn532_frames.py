"""PN532 host frames, seen from the chip's side: pure building and an incremental parser.

A normal information frame is ``00 00 FF LEN LCS TFI DATA... DCS 00`` with ``LEN + LCS = 0``
and ``TFI + DATA + DCS = 0`` (mod 256); an extended one ``00 00 FF FF FF LENM LENL LCS TFI
DATA... DCS 00`` (``LENM + LENL + LCS = 0``). ``00 00 FF 00 FF 00`` is an ACK,
``00 00 FF FF 00 00`` a NACK, and ``00 00 FF 01 FF 7F 81 00`` the chip's syntax-error frame
(PN532 user manual UM0701-02 §6.2). The parser needs no I/O: feed it bytes as they come.
"""

from __future__ import annotations

from dataclasses import dataclass

START = b"\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
#: the longest frame body the PN532 takes: TFI, command and 263 bytes of data (nfcpy's
#: ``host_command_frame_max_size`` is 265 for TFI + data)
MAX_BODY = 265


def information_frame(body: bytes) -> bytes:
    """The frame carrying ``body`` (TFI first): extended when it does not fit one LEN byte."""
    if len(body) < 0xFF:
        head = bytes([len(body), -len(body) & 0xFF])
    else:
        size = len(body).to_bytes(2, "big")
        head = b"\xff\xff" + size + bytes([-sum(size) & 0xFF])
    return b"\x00\x00\xff" + head + body + bytes([-sum(body) & 0xFF, 0x00])


def answer_frame(command: int, data: bytes) -> bytes:
    """The chip's answer to ``command``: TFI D5, the command plus one, then ``data``."""
    return information_frame(bytes([PN532_TO_HOST, command + 1]) + data)


@dataclass(frozen=True)
class HostFrame:
    """What the host sent. ``kind`` is ``command`` (``body`` holds TFI, command and data),
    ``ack``, ``nack``, or ``bad`` (``reason`` says why; ``body`` what could be read).
    ``leading`` counts the bytes before the start code (the wake-up preamble)."""

    kind: str
    body: bytes = b""
    leading: int = 0
    size: int = 0  #: bytes this frame took on the wire, leading bytes included
    reason: str = ""


class FrameParser:
    """Splits the host's byte stream into :class:`HostFrame` s."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._noise = 0  # bytes dropped before the next start code: part of its preamble

    def feed(self, data: bytes) -> list[HostFrame]:
        """The frames ``data`` completes (bytes of an unfinished frame are kept)."""
        self._buffer += data
        frames = []
        while (frame := self._next()) is not None:
            frames.append(frame)
        return frames

    def _next(self) -> HostFrame | None:
        buffer = self._buffer
        start = buffer.find(START)
        if start < 0:
            dropped = max(0, len(buffer) - 1)  # noise; a trailing 00 may start a frame
            del buffer[:dropped]
            self._noise += dropped
            return None
        if len(buffer) < start + 4:
            return None
        length, check = buffer[start + 2], buffer[start + 3]
        head = start + 4
        if (length, check) == (0x00, 0xFF):
            return self._take(head + 1, HostFrame("ack", leading=start))
        if (length, check) == (0xFF, 0x00):
            return self._take(head + 1, HostFrame("nack", leading=start))
        if (length, check) == (0xFF, 0xFF):
            if len(buffer) < head + 3:
                return None
            if sum(buffer[head : head + 3]) & 0xFF:
                return self._take(head + 3, HostFrame("bad", reason="extended length checksum"))
            length, head = int.from_bytes(buffer[head : head + 2], "big"), head + 3
        elif (length + check) & 0xFF:
            return self._take(head, HostFrame("bad", leading=start, reason="length checksum"))
        if length > MAX_BODY:
            return self._take(head, HostFrame("bad", leading=start, reason="frame too long"))
        end = head + length + 2  # the body, DCS and the postamble
        if len(buffer) < end:
            return None
        body = bytes(buffer[head : head + length])
        if (sum(body) + buffer[head + length]) & 0xFF:
            return self._take(end, HostFrame("bad", body, start, reason="data checksum"))
        if length < 2 or body[0] != HOST_TO_PN532:
            return self._take(end, HostFrame("bad", body, start, reason="not a host command"))
        return self._take(end, HostFrame("command", body, start))

    def _take(self, end: int, frame: HostFrame) -> HostFrame:
        # A wake-up preamble read apart from its frame (a loaded machine reads the pty in
        # pieces) still counts: a sleeping chip would otherwise miss the frame.
        del self._buffer[:end]
        leading, size, self._noise = frame.leading + self._noise, end + self._noise, 0
        return HostFrame(frame.kind, frame.body, leading, size, frame.reason)


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A of ``data`` (LSB first), as a Type A card appends it."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])
