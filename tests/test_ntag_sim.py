"""The NTAG213/215 simulator, byte by byte (no nfcpy threads)."""

from __future__ import annotations

import pytest

from companion.hardware.readers.ndef_card import decode_card_id, encode_card_id
from companion.hardware.readers.ntag_sim import NtagCard, SimZone

UID = "04A1B2C3D4E5F6"


@pytest.fixture
def zone() -> SimZone:
    antenna = SimZone("base-1")
    yield antenna
    antenna.close()


def frame(zone: SimZone, hex_frame: str) -> bytes | None:
    return zone.handle(b"106A " + hex_frame.encode())


def activate(zone: SimZone) -> None:
    assert frame(zone, "26") == b"106A 4400"
    cl1 = frame(zone, "9320")
    assert cl1 == b"106A 8804a1b29f"  # cascade tag, uid0-2, BCC0 = 88^04^A1^B2
    assert frame(zone, "9370" + cl1[5:].decode()) == b"106A 04"
    cl2 = frame(zone, "9520")
    assert cl2 == b"106A c3d4e5f604"  # uid3-6, BCC1 = C3^D4^E5^F6
    assert frame(zone, "9570" + cl2[5:].decode()) == b"106A 00"


def test_memory_map_of_an_ntag213() -> None:
    card = NtagCard.for_card(UID)
    assert card.pages == 45
    assert card.read(0)[:9] == bytes.fromhex("04A1B29F C3D4E5F6 04".replace(" ", ""))
    assert card.read(3)[:4] == bytes.fromhex("E1101200")  # capability container, 144 bytes
    assert card.read(4)[:3] == bytes.fromhex("0300FE")  # an empty NDEF message
    assert NtagCard.for_card(UID, model="NTAG215").read(3)[:4] == bytes.fromhex("E1103E00")


def test_config_pages_of_an_ntag213_and_215() -> None:
    for model, pages in (("NTAG213", 45), ("NTAG215", 135)):
        card = NtagCard.for_card(UID, model=model)
        assert card.pages == pages
        assert card.read(pages - 5)[:4] == bytes.fromhex("000000BD")  # dynamic lock bytes
        assert card.read(pages - 4)[:8] == bytes.fromhex("040000FF 00050000".replace(" ", ""))
        assert card.read(pages - 2)[:8] == bytes(8)  # PWD reads as zeros, PACK 00 00
        assert card.read(2)[2:4] == bytes(2)  # static lock bytes: unlocked


def test_an_ndef_message_is_a_tlv_ending_in_a_terminator() -> None:
    message = encode_card_id("core/king-rex")
    card = NtagCard.for_card(UID, "core/king-rex")
    area = b"".join(card.read(page) for page in range(4, 16, 4))
    assert area[: 2 + len(message) + 1] == bytes([0x03, len(message)]) + message + b"\xfe"
    assert decode_card_id(area[2 : 2 + len(message)]) == "core/king-rex"


def test_a_message_too_big_for_the_tag_is_refused() -> None:
    with pytest.raises(ValueError):
        NtagCard.for_card(UID, "x" * 200)


def test_read_rolls_over_at_the_end_of_memory() -> None:
    card = NtagCard.for_card(UID)
    assert card.read(44)[4:8] == card.read(0)[:4]


def test_empty_antenna_answers_polls_with_rfoff_at_once(zone: SimZone) -> None:
    assert frame(zone, "26") == b"RFOFF"
    assert zone.handle(b"106B 050010") == b"RFOFF"
    quiet = SimZone("quiet", fast_empty=False)
    assert quiet.handle(b"106A 26") is None
    quiet.close()


def test_anticollision_select_and_commands(zone: SimZone) -> None:
    zone.place(NtagCard.for_card(UID, "munchkin/fence"))
    activate(zone)
    assert frame(zone, "60") == b"106A 0004040201000f03"  # GET_VERSION: NTAG213
    assert len(bytes.fromhex(frame(zone, "3000")[5:].decode())) == 16
    fast = bytes.fromhex(frame(zone, "3A0405")[5:].decode())
    assert fast[:2] == bytes([0x03, len(encode_card_id("munchkin/fence"))])
    assert frame(zone, "3C00") == b"106A " + b"00" * 32
    assert frame(zone, "3902") == b"106A 000000"
    assert frame(zone, "A20611223344") == b"106A 0a"  # WRITE acknowledged
    assert zone.card is not None and zone.card.read(6)[:4] == bytes.fromhex("11223344")


def test_unknown_command_goes_mute_and_back_to_idle(zone: SimZone) -> None:
    zone.place(NtagCard.for_card(UID))
    activate(zone)
    assert frame(zone, "1A00") is None  # nfcpy's Ultralight C probe
    assert frame(zone, "3000") is None  # idle now: needs REQA again
    activate(zone)
    assert zone.handle(b"RFOFF") is None
    assert frame(zone, "9320") == b"RFOFF"  # anticollision out of turn: no target, at once


def test_read_past_the_end_and_halt_go_mute(zone: SimZone) -> None:
    zone.place(NtagCard.for_card(UID))
    activate(zone)
    assert frame(zone, "3A0030") is None  # FAST_READ past the last page
    activate(zone)
    assert frame(zone, "5000") is None  # HLTA: halted
    assert frame(zone, "3000") is None
    assert frame(zone, "26") == b"RFOFF"  # a REQA does not wake a halted tag
    assert frame(zone, "52") == b"106A 4400"  # a WUPA does
    zone.handle(b"RFOFF")
    activate(zone)
    assert frame(zone, "9320") == b"RFOFF"  # anticollision only from READY


def test_no_card_answering_an_anticollision_step_is_no_target_at_once(zone: SimZone) -> None:
    zone.place(NtagCard.for_card(UID))
    assert frame(zone, "26") == b"106A 4400"
    assert frame(zone, "9370" + "8804a1b2ff") == b"RFOFF"  # a SELECT naming another card
    assert frame(zone, "26") == b"106A 4400"
    assert frame(zone, "9370" + "8804a1b29f") == b"106A 04"
    assert frame(zone, "9570" + "c3d4e5f600") == b"RFOFF"
    assert frame(zone, "26") == b"106A 4400"
    zone.lift()  # lifted mid-poll
    assert frame(zone, "9320") == b"RFOFF"
    zone.place(NtagCard.for_card(UID))  # swapped mid-poll: the next step comes out of turn
    assert frame(zone, "26") == b"106A 4400"
    zone.place(NtagCard.for_card("04112233445566"))
    assert frame(zone, "9320") == b"RFOFF"
    quiet = SimZone("quiet", fast_empty=False)
    quiet.place(NtagCard.for_card(UID))
    assert quiet.handle(b"106A 26") == b"106A 4400"
    assert quiet.handle(b"106A 93708804a1b2ff") is None  # nfcpy waits out its timeout
    quiet.close()


def test_lifting_the_card_mid_session_silences_the_antenna(zone: SimZone) -> None:
    zone.place(NtagCard.for_card(UID))
    activate(zone)
    assert zone.lift() is not None
    assert frame(zone, "3000") is None
    assert frame(zone, "26") == b"RFOFF"


def test_writes_cannot_touch_the_uid_or_config_pages(zone: SimZone) -> None:
    zone.place(NtagCard.for_card(UID))
    activate(zone)
    assert frame(zone, "A20000000000") is None


def test_ndef_round_trip_and_garbage() -> None:
    assert decode_card_id(encode_card_id("oops/sheriff")) == "oops/sheriff"
    assert decode_card_id(b"\xd1\x01\x03T\x02en") is None
    assert decode_card_id(b"\xff\x00") is None
    assert decode_card_id(None) is None
    assert decode_card_id([object()]) is None
    assert decode_card_id("not bytes") is None  # type: ignore[arg-type]
    garbled = NtagCard.garbled(UID)
    assert garbled.read(4)[:2] == bytes([0x03, 0x05])
    assert decode_card_id(garbled.read(4)[2:7]) is None


def test_antenna_ports_are_never_named_services() -> None:
    # nfcpy reads the port back through getnameinfo: a named port ("tfido") would break it.
    import socket

    zones = [SimZone(f"z{n}") for n in range(20)]
    try:
        for antenna in zones:
            with pytest.raises(OSError):
                socket.getservbyport(antenna.port)
    finally:
        for antenna in zones:
            antenna.close()
