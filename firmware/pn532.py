"""PN532 frames over SPI: pure frame building and parsing, and a thin driver class.

Frames: ``00 00 FF LEN LCS TFI DATA... DCS 00``; TFI is D4 host to PN532, D5 back. Over SPI
each transfer starts with an operation byte (01 write, 02 status, 03 read) and the PN532 sends
bits LSB first, so bytes are bit-reversed on the wire when the SPI peripheral only does MSB.
"""

PREAMBLE = b"\x00\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
SPI_WRITE, SPI_STATUS, SPI_READ = 0x01, 0x02, 0x03

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
IN_LIST_PASSIVE_TARGET = 0x4A


def frame(command, params=b""):
    """The information frame for a command."""
    body = bytes([HOST_TO_PN532, command]) + bytes(params)
    length = len(body)
    checksum = (0x100 - sum(body)) & 0xFF
    return PREAMBLE + bytes([length, (0x100 - length) & 0xFF]) + body + bytes([checksum, 0x00])


def parse(data, command):
    """The response data of a frame answering ``command``; raises ValueError if malformed."""
    data = bytes(data)
    start = data.find(PREAMBLE)
    if start < 0:
        raise ValueError("no frame preamble")
    data = data[start + 3 :]
    if len(data) < 2:
        raise ValueError("frame too short")
    length, lcs = data[0], data[1]
    if (length + lcs) & 0xFF != 0:
        raise ValueError("bad length checksum")
    body = data[2 : 2 + length]
    if len(body) != length or len(data) < 3 + length:
        raise ValueError("frame too short")
    if (sum(body) + data[2 + length]) & 0xFF != 0:
        raise ValueError("bad data checksum")
    if body[0] != PN532_TO_HOST or body[1] != command + 1:
        raise ValueError("not an answer to command 0x%02X" % command)
    return body[2:]


def target_uid(response):
    """The uid (upper-case hex) in an InListPassiveTarget(106A) response, or None."""
    if not response or response[0] == 0:
        return None
    # Tg, SENS_RES (2), SEL_RES, NFCID length, NFCID
    length = response[5]
    uid = response[6 : 6 + length]
    if len(uid) != length:
        raise ValueError("truncated target data")
    return "".join("%02X" % b for b in uid)


def reverse_bits(data):
    """Each byte with its bits in reverse order (LSB-first wire order)."""
    out = bytearray(len(data))
    for i, byte in enumerate(data):
        value = 0
        for bit in range(8):
            if byte & (1 << bit):
                value |= 1 << (7 - bit)
        out[i] = value
    return bytes(out)


class PN532:
    """One PN532 on a shared SPI bus with its own chip select (hardware access only here)."""

    def __init__(self, spi, cs, sleep_ms, ticks_ms):
        self.spi, self.cs, self.sleep_ms, self.ticks_ms = spi, cs, sleep_ms, ticks_ms
        self.cs.value(1)

    def _transfer(self, out, read=0):
        self.cs.value(0)
        self.sleep_ms(1)
        self.spi.write(reverse_bits(out))
        data = reverse_bits(self.spi.read(read)) if read else b""
        self.cs.value(1)
        return data

    def _ready(self, timeout_ms):
        start = self.ticks_ms()
        while self.ticks_ms() - start < timeout_ms:
            if self._transfer(bytes([SPI_STATUS]), 1)[0] & 0x01:
                return True
            self.sleep_ms(2)
        return False

    def call(self, command, params=b"", timeout_ms=100, answer_len=32):
        self._transfer(bytes([SPI_WRITE]) + frame(command, params))
        if not self._ready(timeout_ms) or self._transfer(bytes([SPI_READ]), 6) != ACK:
            raise OSError("PN532 did not acknowledge")
        if not self._ready(timeout_ms):
            raise OSError("PN532 did not answer")
        return parse(self._transfer(bytes([SPI_READ]), answer_len), command)

    def init(self):
        self.call(GET_FIRMWARE_VERSION)
        self.call(SAM_CONFIGURATION, b"\x01\x14\x01")

    def poll(self):
        """The uid on the antenna, or None."""
        try:
            response = self.call(IN_LIST_PASSIVE_TARGET, b"\x01\x00", timeout_ms=60)
        except OSError as exc:
            if "did not answer" in str(exc):
                return None  # no target within the timeout
            raise
        return target_uid(response)
