"""How long a PN532 and its link take, per profile: the timing model of the PN532 emulator.

Every constant names its source as a tag of ``shared/reference/pn532-timing.md`` (the research
notes; "est." marks an estimate there, not a measurement): [NT] the NTAG21x data sheet, [ISO3]
ISO/IEC 14443-3, [NFCPY] nfcpy 1.0.4's source, [HEAVY] a measured serial-port echo latency,
[FTDI] FTDI's latency-timer note, [ROSSERIAL] the Linux default of that timer.

The model is deterministic: the same commands cost the same modelled time, so tests compare the
emulator's accounting (never the wall clock) against the figures the notes predict.
"""

from __future__ import annotations

from dataclasses import dataclass

#: bits on the wire per UART byte: start, 8 data, stop (8N1) [NFCPY transport, HSU]
BITS_PER_UART_BYTE = 10
#: one elementary time unit at 106 kbit/s, 128/fc [NT §1.1]
ETU_S = 128 / 13.56e6
#: tag response delay after a reader frame, FDT = (9 * 128 + 84) / fc [NT §9.2]
FDT_S = (9 * 128 + 84) / 13.56e6
#: REQA -> SAK for a 7-byte uid, both cascade levels and the gaps [NT §9.4; notes §3 table]
ACTIVATION_7_BYTE_UID_S = 4.4e-3
#: one REQA that no card answers: a 7-bit short frame and the ATQA window [notes §3 table]
EMPTY_REQA_S = 0.4e-3
#: one activation try of InListPassiveTarget that no card answers, the PN532 firmware's retry
#: loop included: the low end of the notes' 2-8 ms planning range for an empty search (est.,
#: notes §1.2, §6 no. 3: undocumented; on air a try is only EMPTY_REQA_S). A search repeats it
#: MxRtyPassiveActivation + 1 times, or until a card answers at 0xFF [LIBNFC; notes §1.1]
EMPTY_TRY_S = 2.0e-3
#: unmodulated field before the first REQA after the field comes on [ISO3 §5: "at least 5.1 ms"]
FIELD_ON_GUARD_S = 5.1e-3
#: an NTAG's EEPROM programming time per WRITE (est.: the notes give no figure; NTAG21x data
#: sheets quote about 4 ms, not re-read here)
NTAG_WRITE_PROGRAMMING_S = 4.1e-3
#: fRetryTimeout the PN532 starts with: 0x0A, 51.2 ms [LIBNFC pn53x.c; NFCPY pn532.py]
DEFAULT_RETRY_TIMEOUT_INDEX = 0x0A
#: MxRtyPassiveActivation at power-on: 0xFF, retry for ever [LIBNFC; Adafruit docs]
DEFAULT_PASSIVE_ACTIVATION_RETRIES = 0xFF
#: MxRtyPassiveActivation 0xFF: InListPassiveTarget tries until a card answers, or the host
#: aborts it with an ACK frame [LIBNFC pn53x.c; Adafruit docs "0xFF to wait forever"; notes §1.1;
#: the ACK abort: UM0701-02's HSU frame rules, as NFCPY pn53x.py ``command`` applies them: it
#: writes an ACK to "cancel command" when its wait for an answer times out]
ENDLESS_RETRIES = 0xFF
#: what an endless InListPassiveTarget costs where nothing can arrive or abort it (the SPI
#: bus model: the emulator's choice, no PN532 figure)
ENDLESS_SEARCH_CAP_S = 1.0


def timeout_s(index: int) -> float:
    """An RFConfiguration timeout byte as seconds: 100 us * 2^(n-1), 0 = none [NFCPY pn53x.py
    ``send_cmd_recv_rsp``; LIBNFC ``pn53x_int_to_timeout``]."""
    return 0.0 if index == 0 else 100e-6 * (1 << (min(index, 16) - 1))


def air_frame_s(data_bytes: int) -> float:
    """A standard Type A frame of ``data_bytes`` bytes (CRC included) on air: S + 9 bits a byte
    + E [NT §8.2]. A 4-page READ answer (16 + 2 bytes) is 1.548 ms, as [NT Fig 15] gives."""
    return (data_bytes * 9 + 2) * ETU_S


def exchange_air_s(sent: int, answered: int) -> float:
    """A tag command of ``sent`` bytes and its answer of ``answered`` bytes (CRC_A added to both
    where they carry data): command, FDT, answer. READ: 0.36 + 0.09 + 1.55 = 2.0 ms [NT §10.2]."""
    answer = air_frame_s(answered + 2) if answered > 1 else 4 * ETU_S  # a 4-bit ACK/NAK
    return air_frame_s(sent + 2) + FDT_S + answer


@dataclass(frozen=True)
class Profile:
    """One way a PN532 is wired to the host, and how fast its firmware runs.

    ``baud`` caps the UART rate (nfcpy asks for 921600 whenever ``stty`` accepts it; a profile
    at 115200 models a link that stays there). ``bridge_latency_s`` is how long a USB-serial
    bridge holds received bytes before the host sees them (0 for a native UART);
    ``usb_out_s`` the wait for the next USB frame on the way out. ``firmware_s`` is the PN532's
    own handling time per command. ``ideal`` models nothing: every answer is immediate.
    """

    name: str
    baud: int
    bridge_latency_s: float
    usb_out_s: float
    firmware_s: float
    rf: bool  #: whether RF air time, guard time and timeouts cost time at all

    def uart_s(self, count: int, baud: int) -> float:
        """``count`` bytes on the UART at ``baud`` (capped at the profile's rate)."""
        return count * BITS_PER_UART_BYTE / min(baud, self.baud) if self.rf else 0.0


#: the PN532's own handling time per command: 0.7 ms mid of 0.3-1.5 ms (est., notes §2, from
#: NXP's remark that a 17-byte frame took over 5 ms end to end [NXPSLOW])
FIRMWARE_S = 0.7e-3
#: CP210x/CH340: 1-3 ms per round trip (est., notes §1.4, after [HEAVY]'s 0.58/1.0/2.0 ms echo)
CP210X_LATENCY_S = 2.0e-3
#: FTDI's latency timer: 16 ms by default on Linux >= 4.10 [FTDI AN232B-04; ROSSERIAL #383]
FTDI_DEFAULT_LATENCY_S = 16e-3
#: FTDI with ``latency_timer`` set to 1 by udev: about 1 ms [HEAVY: 1.0 ms average echo]
FTDI_1MS_LATENCY_S = 1.0e-3
#: a USB full-speed OUT transfer waits for the next 1 ms frame: 0.5 ms on average [notes §5.1]
USB_OUT_S = 0.5e-3

PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile("ideal", 921600, 0.0, 0.0, 0.0, rf=False),
        Profile("pi-uart-921600", 921600, 0.0, 0.0, FIRMWARE_S, rf=True),
        Profile("cp210x-115200", 115200, CP210X_LATENCY_S, USB_OUT_S, FIRMWARE_S, rf=True),
        Profile("cp210x-921600", 921600, CP210X_LATENCY_S, USB_OUT_S, FIRMWARE_S, rf=True),
        Profile("ftdi-default", 921600, FTDI_DEFAULT_LATENCY_S, USB_OUT_S, FIRMWARE_S, rf=True),
        Profile("ftdi-1ms", 921600, FTDI_1MS_LATENCY_S, USB_OUT_S, FIRMWARE_S, rf=True),
    )
}
DEFAULT_PROFILE = "pi-uart-921600"


def profile_named(name: str) -> Profile:
    """:raises ValueError: naming the profiles there are."""
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise ValueError(f"no PN532 link profile {name!r}; use one of {known}") from None


class Bridge:
    """When bytes the PN532 sends become visible to the host through a USB-serial bridge.

    The bridge holds bytes until its latency timer runs out, counted from the first byte put in
    an empty buffer; bytes arriving before that flush ride along [FTDI AN232B-04]. A native
    UART (latency 0) delivers at once.
    """

    def __init__(self, latency_s: float) -> None:
        self.latency_s = latency_s
        self._flush_at: float | None = None

    def deliver(self, arrives: float) -> float:
        """The modelled time the host sees bytes that reach the bridge at ``arrives``."""
        if self.latency_s <= 0:
            return arrives
        if self._flush_at is None or arrives > self._flush_at:
            self._flush_at = arrives + self.latency_s
        return self._flush_at
