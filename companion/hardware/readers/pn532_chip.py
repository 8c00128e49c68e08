"""The PN532 behind the emulator: its commands, registers and RF field, with an NTAG21x (or
nothing) in the field. Pure: a command body in, the answer and its modelled duration out.

It answers what nfcpy's ``pn532`` driver and the reader board's firmware send (UM0701-02 §7):
Diagnose, GetFirmwareVersion, GetGeneralStatus, ReadRegister, WriteRegister, ReadGPIO,
WriteGPIO, SetSerialBaudrate, SetParameters, SAMConfiguration, PowerDown, RFConfiguration,
InListPassiveTarget (106 kbps type A; other types find nothing), InDataExchange,
InCommunicateThru, InDeselect, InRelease and InSelect. Any other command gets the syntax-error
frame, as a PN532 answers a command it does not know; so do the target-mode and DEP commands,
which a real chip knows but no card here would use.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.hardware.readers import pn532_timing as timing
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_frames import crc_a
from companion.hardware.readers.pn532_search import Search

FIRMWARE_VERSION = bytes.fromhex("32010607")  # IC PN532, version 1.6, supports ISO A/B/18092
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
CIU_RX_MODE, CIU_TX_CONTROL, CIU_FIFO_DATA, CIU_FIFO_LEVEL = 0x6303, 0x6304, 0x6339, 0x633A
RX_CRC_ENABLED = 0x80
REQA = 0x26
# status bytes of In* answers (UM0701-02 table 30)
TIMEOUT, INVALID_PARAMETER, WRONG_CONTEXT, RELEASED = 0x01, 0x10, 0x27, 0x29
NTAG_READ, NTAG_WRITE = 0x30, 0xA2


class SyntaxFault(Exception):
    """The command is unknown or malformed: the chip answers its syntax-error frame."""


@dataclass(frozen=True)
class Answer:
    """A command's answer data (after TFI and the response code) and how long the chip took
    between its ACK and the answer, in modelled seconds. An InListPassiveTarget still
    searching carries its :class:`~.pn532_search.Search`."""

    data: bytes
    busy_s: float = 0.0
    #: an InListPassiveTarget that found no card at once and goes on searching: ``data`` and
    #: ``busy_s`` are its answer if nothing comes (see :mod:`.pn532_search`)
    search: Search | None = None


class Pn532Chip:
    """One PN532 with an antenna. ``drop_reads`` is the fraction of NTAG READs whose answer is
    lost on air (a card at the edge of the field, crosstalk); ``rng`` decides which.
    ``relist_quirk``: an InListPassiveTarget while the field stays on finds a card it already
    selected only every second time (the ACTIVE card ignores the REQA and falls back to idle),
    as reported for NTAG216 on PN532 firmware 1.6 [NXPQ 832756/481864; ADA52]; off by default
    (nfcpy switches the field off before each sense and never meets it). ``activation_miss``:
    the chance that one activation try just after the field comes on misses a card lying there
    (0 by default; one public bench saw half of the senses miss, [SPIKE], unconfirmed).
    ``endless_search=False``: a chip that does not honour MxRtyPassiveActivation 0xFF and
    makes two tries as if it were 1 (no source says a PN532 does; whether a real one waits is
    for ``companion doctor`` to find out, hardware/README.md)."""

    def __init__(
        self,
        profile: timing.Profile,
        *,
        drop_reads: float = 0.0,
        rng: random.Random | None = None,
        relist_quirk: bool = False,
        activation_miss: float = 0.0,
        endless_search: bool = True,
    ) -> None:
        self.profile = profile
        self.endless_search = endless_search
        self.drop_reads = drop_reads
        self.relist_quirk = relist_quirk
        self.activation_miss = activation_miss
        self.rng = rng or random.Random(0)
        self.card: NtagCard | None = None
        self.card_state = "idle"  #: idle, active (listed by InListPassiveTarget) or halt
        self.field_on = False
        self.listed = False
        self.asleep = False
        self.baud = 115200  #: the HSU rate (SetSerialBaudrate takes effect on the host's ACK)
        self.pending_baud: int | None = None
        self.retry_timeout = timing.DEFAULT_RETRY_TIMEOUT_INDEX
        self.passive_activation_retries = timing.DEFAULT_PASSIVE_ACTIVATION_RETRIES
        self.communication_retries = 0
        self.sam_mode = 1
        self.registers: dict[int, int] = {CIU_RX_MODE: RX_CRC_ENABLED, 0x6302: RX_CRC_ENABLED}
        self._handlers: dict[int, Callable[[bytes], Answer]] = {
            0x00: self._diagnose,
            0x02: lambda data: Answer(FIRMWARE_VERSION),
            0x04: self._general_status,
            0x06: self._read_register,
            0x08: self._write_register,
            0x0C: lambda data: Answer(b"\xff\xff\x00"),
            0x0E: lambda data: Answer(b""),
            0x10: self._set_serial_baudrate,
            0x12: lambda data: Answer(b""),
            0x14: self._sam_configuration,
            0x16: self._power_down,
            0x32: self._rf_configuration,
            0x40: self._in_data_exchange,
            0x42: self._in_communicate_thru,
            0x44: self._release,
            0x4A: self._in_list_passive_target,
            0x52: self._release,
            0x54: lambda data: Answer(b"\x00" if self.listed else bytes([WRONG_CONTEXT])),
        }

    # the card

    def place(self, card: NtagCard | None) -> None:
        """Put ``card`` in the field (None: take it away); it starts unselected."""
        self.card, self.card_state = card, "idle"

    # the host's commands

    def command(self, code: int, data: bytes) -> Answer:
        """:raises SyntaxFault: for a command this chip does not take, or bad parameters."""
        handler = self._handlers.get(code)
        if handler is None:
            raise SyntaxFault(f"unknown command 0x{code:02X}")
        self.asleep = False
        return handler(data)

    def host_ack(self) -> None:
        """The host's ACK: it aborts a pending command; after SetSerialBaudrate it is the cue to
        switch the UART rate."""
        if self.pending_baud is not None:
            self.baud, self.pending_baud = self.pending_baud, None

    def _diagnose(self, data: bytes) -> Answer:
        if not data:
            raise SyntaxFault("Diagnose needs a test number")
        if data[0] == 0x00:  # communication line test: the data comes back
            return Answer(data)
        return Answer(b"\x00")  # ROM and RAM tests: status OK

    def _general_status(self, data: bytes) -> Answer:
        targets = b"\x01\x01\x00\x00\x00" if self.listed else b"\x00"
        return Answer(bytes([0x00, int(self.field_on)]) + targets + b"\x00")

    def _read_register(self, data: bytes) -> Answer:
        if not data or len(data) % 2:
            raise SyntaxFault("ReadRegister takes 16-bit addresses")
        addresses = [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]
        return Answer(bytes(self.registers.get(address, 0) for address in addresses))

    def _write_register(self, data: bytes) -> Answer:
        if not data or len(data) % 3:
            raise SyntaxFault("WriteRegister takes address and value triples")
        for i in range(0, len(data), 3):
            self.registers[int.from_bytes(data[i : i + 2], "big")] = data[i + 2]
        return Answer(b"")

    def _set_serial_baudrate(self, data: bytes) -> Answer:
        if len(data) != 1 or data[0] >= len(BAUD_RATES):
            raise SyntaxFault("SetSerialBaudrate takes one rate index")
        self.pending_baud = BAUD_RATES[data[0]]
        return Answer(b"")

    def _sam_configuration(self, data: bytes) -> Answer:
        if not data or not 1 <= data[0] <= 4:
            raise SyntaxFault("SAMConfiguration mode is 1 to 4")
        self.sam_mode = data[0]
        return Answer(b"")

    def _power_down(self, data: bytes) -> Answer:
        if not data:
            raise SyntaxFault("PowerDown needs its wake-up sources")
        self._field(False)
        self.asleep = True  # set after the answer goes out; command() clears it on the next
        return Answer(b"\x00")

    def _rf_configuration(self, data: bytes) -> Answer:
        if not data:
            raise SyntaxFault("RFConfiguration needs an item")
        item, values = data[0], data[1:]
        if item == 0x01 and values:
            self._field(bool(values[0] & 0x01))
        elif item == 0x02 and len(values) == 3:
            self.retry_timeout = values[2]
        elif item == 0x04 and values:
            self.communication_retries = values[0]
        elif item == 0x05 and len(values) == 3:
            self.passive_activation_retries = values[2]
        elif item not in (0x0A, 0x0B, 0x0C, 0x0D, 0x02, 0x04, 0x05):
            raise SyntaxFault(f"RFConfiguration item 0x{item:02X}")
        return Answer(b"")

    def _field(self, on: bool) -> None:
        if not on:
            self.listed = False
            if self.card_state != "idle":
                self.card_state = "idle"  # a card without power forgets its state
        self.field_on = on
        self.registers[CIU_TX_CONTROL] = 0x83 if on else 0x80

    def _release(self, data: bytes) -> Answer:
        if not data:
            raise SyntaxFault("InRelease/InDeselect need a target number")
        if self.listed and self.card_state == "active":
            self.card_state = "halt"
        self.listed = False
        return Answer(b"\x00")

    # RF

    def _in_list_passive_target(self, data: bytes) -> Answer:
        if len(data) < 2 or not 1 <= data[0] <= 2:
            raise SyntaxFault("InListPassiveTarget takes MaxTg 1-2 and BrTy")
        cold = not self.field_on
        guard = timing.FIELD_ON_GUARD_S if cold else 0.0
        ignored = self.relist_quirk and self.field_on and self.card_state == "active"
        self._field(True)
        wanted = _uid_from_cascade(data[2:]) if data[1] == 0x00 else None
        card = self.card if data[1] == 0x00 and not ignored else None
        if ignored:
            self.card_state = "idle"
        retries = self.passive_activation_retries
        if retries == timing.ENDLESS_RETRIES and not self.endless_search:
            retries = 1
        tries = retries + 1 if retries != timing.ENDLESS_RETRIES else None  # None: until found
        if card is not None and (wanted is None or wanted == card.uid):
            missed = self._missed_tries(tries) if cold else 0
            if tries is None or missed < tries:
                busy = guard + missed * timing.EMPTY_TRY_S + timing.ACTIVATION_7_BYTE_UID_S
                return self._listed(card, self._rf(busy))
        self.registers[CIU_FIFO_DATA] = REQA  # no SENS_RES: the REQA is still in the FIFO
        searching = timing.ENDLESS_SEARCH_CAP_S if tries is None else tries * timing.EMPTY_TRY_S
        # No card answered yet: the search goes on, and a card that comes is found (a card
        # lying here that every try missed has had its chance: the answer is final).
        search = None
        if data[1] == 0x00 and card is None:
            rf = self._rf
            search = Search(
                wanted, tries, rf(guard), rf(timing.EMPTY_TRY_S), rf(timing.ACTIVATION_7_BYTE_UID_S)
            )
        return Answer(b"\x00", self._rf(guard + searching), search)

    def search_found(self, search: Search, arrived_s: float) -> Answer | None:
        """The answer of a running ``search`` to the card in the field now, which came at
        ``arrived_s`` (modelled seconds since the search began); None while no card it wants
        is here, or if the search gave up before a try met it."""
        card = self.card
        if card is None or (search.wanted is not None and search.wanted != card.uid):
            return None
        answered = search.answered_s(arrived_s)
        return None if answered is None else self._listed(card, answered)

    def _listed(self, card: NtagCard, busy_s: float) -> Answer:
        self.card_state, self.listed = "active", True
        self.registers[CIU_FIFO_LEVEL] = 0
        # NbTg, Tg, SENS_RES, SEL_RES, NFCIDLength, uid
        return Answer(b"\x01\x01\x00\x44\x00\x07" + card.uid, busy_s)

    def _missed_tries(self, tries: int | None) -> int:
        """How many tries in a row miss a card that lies there, the field just switched on."""
        missed = 0
        while self.activation_miss and self.rng.random() < self.activation_miss:
            missed += 1
            if tries is not None and missed >= tries:
                break
        return missed

    def _in_data_exchange(self, data: bytes) -> Answer:
        if len(data) < 2:
            raise SyntaxFault("InDataExchange takes a target and data")
        if not self.listed or data[0] & 0x3F != 1:
            return Answer(bytes([WRONG_CONTEXT]))
        tries = self.communication_retries + 1
        answer, busy = self._exchange(data[1:], crc=True)
        if answer is None:
            return Answer(bytes([TIMEOUT]), busy * tries)
        return Answer(b"\x00" + answer, busy)

    def _in_communicate_thru(self, data: bytes) -> Answer:
        if not data:
            raise SyntaxFault("InCommunicateThru takes data")
        if not self.field_on:
            return Answer(bytes([TIMEOUT]), self._rf(timing.timeout_s(self.retry_timeout)))
        crc = bool(self.registers.get(CIU_RX_MODE, RX_CRC_ENABLED) & RX_CRC_ENABLED)
        answer, busy = self._exchange(data, crc=crc)
        return Answer(bytes([TIMEOUT]) if answer is None else b"\x00" + answer, busy)

    def _exchange(self, frame: bytes, *, crc: bool) -> tuple[bytes | None, float]:
        """The card's answer to a tag command (None: silence) and the air time it took."""
        card, timeout = self.card, self._rf(timing.timeout_s(self.retry_timeout))
        if card is None or self.card_state != "active":
            return None, timeout
        if frame[0] == NTAG_READ and self.drop_reads and self.rng.random() < self.drop_reads:
            return None, timeout  # lost on air; the card stays selected
        if frame[:1] == b"\x50":  # HLTA: the card halts and says nothing
            self.card_state = "halt"
            return None, timeout
        answer = card.answer(frame)
        if answer is None:
            self.card_state = "idle"  # an NTAG goes mute (back to idle) on what it refuses
            return None, timeout
        busy = timing.exchange_air_s(len(frame), len(answer))
        if frame[0] == NTAG_WRITE:
            busy += timing.NTAG_WRITE_PROGRAMMING_S
        if not crc and len(answer) > 1:  # CRC check off (nfcpy, Type 2): the CRC comes along
            answer += crc_a(answer)
        return answer, self._rf(busy)

    def _rf(self, seconds: float) -> float:
        return seconds if self.profile.rf else 0.0


def _uid_from_cascade(data: bytes) -> bytes | None:
    """The uid in InListPassiveTarget's initiator data (cascade tags 88 dropped), or None."""
    if not data:
        return None
    if len(data) == 8 and data[0] == 0x88:
        return data[1:]
    return bytes(data)
