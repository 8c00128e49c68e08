"""PN532 frames over SPI: pure frame building and parsing, and a thin driver class.

An information frame is ``00 00 FF LEN LCS TFI CMD DATA... DCS 00`` with ``LEN + LCS = 0`` and
``TFI + CMD + DATA + DCS = 0`` (mod 256); TFI is ``D4`` from the host, ``D5`` back, and the
answer's CMD is the command plus one. Over SPI each transfer starts with an operation byte
(``01`` write a frame, ``02`` read the status, ``03`` read a frame) and the PN532 sends bits LSB
first, so bytes are bit-reversed on the wire (the RP2040's SPI only does MSB first).
"""

PREAMBLE = b"\x00\x00\xff"
START = b"\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
SPI_WRITE, SPI_STATUS, SPI_READ = 0x01, 0x02, 0x03

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_DATA_EXCHANGE = 0x40
IN_LIST_PASSIVE_TARGET = 0x4A

SAM_NORMAL = b"\x01\x14\x01"  # normal mode, 1 s virtual card timeout, use IRQ
# CfgItem 5, MaxRetries: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation. The default 0xFF makes
# InListPassiveTarget wait for a tag forever; 1 makes it answer "no target" after two tries.
MAX_RETRIES = b"\x05\xff\x01\x01"
LIST_ONE_106A = b"\x01\x00"  # MaxTg 1, BrTy 0 (106 kbps type A)
NTAG_READ = 0x30  # reads 4 pages (16 bytes)


def frame(command, params=b""):
    """The information frame (host to PN532) for ``command`` with ``params``."""
    body = bytes([HOST_TO_PN532, command]) + bytes(params)
    length = len(body)
    return PREAMBLE + bytes([length, -length & 0xFF]) + body + bytes([-sum(body) & 0xFF, 0x00])


def is_ack(data):
    """Whether ``data`` (leading zero bytes allowed) is an ACK frame."""
    start = bytes(data).find(START)
    return start >= 0 and bytes(data[start + 2 : start + 4]) == b"\x00\xff"


def parse(data, command):
    """The response data of the frame in ``data`` answering ``command`` (bytes after TFI and
    CMD). Leading bytes before the start code and trailing bytes after the frame are ignored.
    Raises ValueError for a missing start code, a bad checksum, a short frame, the PN532's
    error frame, or an answer to another command."""
    data = bytes(data)
    start = data.find(START)
    if start < 0:
        raise ValueError("no PN532 frame start code")
    data = data[start + 2 :]
    if len(data) < 2:
        raise ValueError("PN532 frame too short")
    length, lcs = data[0], data[1]
    if (length, lcs) == (0x00, 0xFF):
        raise ValueError("an ACK frame, not an answer")
    if (length + lcs) & 0xFF:
        raise ValueError("bad PN532 length checksum")
    if len(data) < 3 + length:
        raise ValueError("PN532 frame too short")
    body = data[2 : 2 + length]
    if (sum(body) + data[2 + length]) & 0xFF:
        raise ValueError("bad PN532 data checksum")
    if body == b"\x7f":
        raise ValueError("PN532 error frame (syntax error)")
    if len(body) < 2 or body[0] != PN532_TO_HOST or body[1] != command + 1:
        raise ValueError("not an answer to command 0x%02X" % command)
    return body[2:]


def target_uid(response):
    """The uid (upper-case hex) in an InListPassiveTarget (106A) answer, or None for no target.

    The answer is ``NbTg [Tg SENS_RES(2) SEL_RES NFCIDLength NFCID... ATS...]``.
    """
    if not response or response[0] == 0:
        return None
    if len(response) < 6:
        raise ValueError("truncated target data")
    length = response[5]
    uid = response[6 : 6 + length]
    if length not in (4, 7, 10) or len(uid) != length:
        raise ValueError("bad NFCID1 length %d" % length)
    return "".join("%02X" % b for b in uid)


def pages(response):
    """The 16 bytes in an InDataExchange answer to an NTAG READ; OSError if the tag failed."""
    if not response:
        raise ValueError("empty InDataExchange answer")
    if response[0] & 0x3F:
        raise OSError("tag error 0x%02X" % (response[0] & 0x3F))
    if len(response) < 17:
        raise ValueError("short NTAG READ answer")
    return bytes(response[1:17])


_REVERSED = bytearray(256)
for _byte in range(256):
    for _bit in range(8):
        if _byte & (1 << _bit):
            _REVERSED[_byte] |= 1 << (7 - _bit)


def reverse_bits(data):
    """Each byte with its bits in reverse order (LSB-first wire order)."""
    out = bytearray(len(data))
    for i, byte in enumerate(data):
        out[i] = _REVERSED[byte]
    return bytes(out)


class PN532:
    """One PN532 on a shared SPI bus with its own chip select (``spi`` has ``write(buf)`` and
    ``read(n)``, ``cs`` has ``value(level)``). Commands raise OSError when the chip does not
    acknowledge or answer, ValueError for a garbled frame."""

    def __init__(self, spi, cs, sleep_ms):
        self.spi, self.cs, self.sleep_ms = spi, cs, sleep_ms
        self.cs.value(1)

    def init(self):
        """Wake the chip and set it up to poll; OSError if it is not a PN532."""
        self.cs.value(0)
        self.sleep_ms(2)  # a falling chip select wakes the PN532 from power-down
        self.cs.value(1)
        self.sleep_ms(2)
        version = self.call(GET_FIRMWARE_VERSION)
        if len(version) < 4 or version[0] != 0x32:
            raise OSError("not a PN532 (firmware version %r)" % (bytes(version),))
        self.call(SAM_CONFIGURATION, SAM_NORMAL)
        self.call(RF_CONFIGURATION, MAX_RETRIES)

    def poll(self):
        """The uid of the tag on the antenna, or None."""
        return target_uid(self.call(IN_LIST_PASSIVE_TARGET, LIST_ONE_106A, timeout_ms=150))

    def read(self, page):
        """16 bytes of the listed tag from ``page`` on (NTAG READ)."""
        return pages(self.call(IN_DATA_EXCHANGE, bytes([1, NTAG_READ, page])))

    def call(self, command, params=b"", timeout_ms=100, answer_len=64):
        """Send a command and return its answer's data."""
        self._transfer(bytes([SPI_WRITE]) + frame(command, params), settle=True)
        if not self._ready(timeout_ms) or not is_ack(self._transfer(bytes([SPI_READ]), 6, True)):
            raise OSError("PN532 did not acknowledge")
        if not self._ready(timeout_ms):
            self._transfer(bytes([SPI_WRITE]) + ACK, settle=True)  # an ACK aborts the command
            raise OSError("PN532 did not answer")
        return parse(self._transfer(bytes([SPI_READ]), answer_len, True), command)

    def _transfer(self, out, read=0, settle=False):
        self.cs.value(0)
        try:
            if settle:
                self.sleep_ms(1)
            self.spi.write(reverse_bits(out))
            return reverse_bits(self.spi.read(read)) if read else b""
        finally:
            self.cs.value(1)

    def _ready(self, timeout_ms):
        for _ in range(timeout_ms):
            if self._transfer(bytes([SPI_STATUS]), 1)[0] & 0x01:
                return True
            self.sleep_ms(1)
        return False
