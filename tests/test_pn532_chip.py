"""The emulated PN532's chip and frames without a pty: commands, status codes, the search and
activation model, the frame parser, and the timing constants' sources."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

import pytest

from companion.hardware.readers import pn532_timing as timing
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_chip import Pn532Chip, SyntaxFault
from companion.hardware.readers.pn532_frames import ACK, NACK, FrameParser, information_frame
from companion.hardware.readers.pn532_timing import profile_named

UID = "04A1B2C3D4E5F6"


def command(code: int, data: bytes = b"") -> bytes:
    return information_frame(bytes([0xD4, code]) + data)


def test_the_parser_keeps_partial_frames_and_skips_noise() -> None:
    parser = FrameParser()
    frame = command(0x4A, b"\x01\x00")
    assert parser.feed(b"\x55\x55" + frame[:5]) == []
    (got,) = parser.feed(frame[5:])
    assert (got.kind, got.body, got.leading) == ("command", b"\xd4\x4a\x01\x00", 3)
    kinds = [f.kind for f in parser.feed(b"\x12\x34" + ACK + NACK)]
    assert kinds == ["ack", "nack"]
    (wrong_tfi,) = parser.feed(information_frame(b"\xd5\x03"))
    assert (wrong_tfi.kind, wrong_tfi.reason) == ("bad", "not a host command")


def test_a_preamble_read_apart_from_its_frame_still_wakes_the_chip() -> None:
    # nfcpy's ten 00 bytes and its frame are one write, but a loaded machine may read the pty
    # in pieces: the preamble still counts as the frame's, or a sleeping chip would miss it
    frame = command(0x02)
    (whole,) = FrameParser().feed(bytes(10) + frame)
    parser = FrameParser()
    assert parser.feed(bytes(10)) == []
    (got,) = parser.feed(frame)
    assert (got.leading, got.size) == (whole.leading, whole.size) == (11, 10 + len(frame))


def test_the_relist_quirk_finds_a_selected_card_every_second_time() -> None:
    chip = Pn532Chip(profile_named("ideal"), relist_quirk=True)
    chip.place(NtagCard.for_card(UID))
    found = [chip.command(0x4A, b"\x01\x00").data[0] for _ in range(6)]
    assert found == [1, 0, 1, 0, 1, 0]
    chip.command(0x32, b"\x01\x00")  # the field off between polls: found every time
    plain = []
    for _ in range(3):
        plain.append(chip.command(0x4A, b"\x01\x00").data[0])
        chip.command(0x32, b"\x01\x00")
    assert plain == [1, 1, 1]


def ideal_chip() -> Pn532Chip:
    return Pn532Chip(profile_named("ideal"))


def test_in_data_exchange_release_and_status_codes() -> None:
    chip = ideal_chip()
    assert chip.command(0x40, b"\x01\x30\x00").data == b"\x27"  # nothing listed
    chip.place(NtagCard.for_card(UID))
    listed = chip.command(0x4A, b"\x01\x00").data
    assert listed == bytes.fromhex("01010044000704A1B2C3D4E5F6")
    read = chip.command(0x40, b"\x01\x30\x00").data  # CRC checked and stripped by the chip
    assert read[0] == 0 and len(read) == 17 and read[1:4] == bytes.fromhex(UID)[:3]
    assert chip.command(0x52, b"\x01").data == b"\x00"  # InRelease: the card halts
    assert chip.command(0x40, b"\x01\x30\x00").data == b"\x27"
    assert chip.command(0x42, b"\x30\x00").data == b"\x01"  # a halted card says nothing
    assert (
        chip.command(
            0x4A,
            b"\x01\x00",
        ).data[0]
        == 1
    )  # listed again
    assert chip.command(0x44, b"\x01").data == b"\x00"  # InDeselect
    assert chip.command(0x4A, b"\x01\x03\x00").data == b"\x00"  # type B: no such card here


def test_the_search_length_follows_mx_rty_passive_activation() -> None:
    chip = Pn532Chip(profile_named("pi-uart-921600"))
    endless = chip.command(0x4A, b"\x01\x00")  # the power-on 0xFF: searches until aborted
    assert endless.data == b"\x00" and endless.busy_s == pytest.approx(1.0 + 0.0051)
    chip.command(0x32, b"\x05\xff\x01\x05")  # MxRtyPassiveActivation 5: six tries
    six = chip.command(0x4A, b"\x01\x00")  # the field is on already: no guard
    assert six.busy_s == pytest.approx(6 * 0.002)
    assert chip.command(0x06, b"\x63\x39").data == b"\x26"  # the REQA still in the FIFO


@pytest.mark.parametrize(
    ("code", "data"),
    [(0x10, b"\x0c"), (0x06, b"\x63"), (0x08, b"\x63\x39"), (0x32, b"\x77"), (0x4A, b"\x05\x00")],
)
def test_bad_parameters_are_syntax_errors(code: int, data: bytes) -> None:
    with pytest.raises(SyntaxFault):
        ideal_chip().command(code, data)


def test_every_timing_constant_names_its_source() -> None:
    """Each figure of the model says where it comes from: a reference tag ([NT], [ISO3],
    [NFCPY], [HEAVY], [FTDI], ...), the notes' section, an estimate, or the emulator's choice."""
    source = Path(timing.__file__).read_text().splitlines()
    constants = [n for n, line in enumerate(source) if re.match(r"^[A-Z][A-Z0-9_]* = [0-9(]", line)]
    assert len(constants) >= 14
    for n in constants:
        comment = []
        for line in reversed(source[:n]):
            if not line.startswith("#:"):
                break
            comment.insert(0, line)
        said = " ".join(comment)
        assert re.search(r"\[[A-Z0-9]+|est\.|notes §|emulator's choice", said), source[n]


def test_activation_misses_after_field_on_cost_tries_and_sometimes_the_card() -> None:
    chip = Pn532Chip(profile_named("pi-uart-921600"), activation_miss=0.5, rng=Random(3))
    chip.command(0x32, b"\x05\xff\x01\x01")  # two tries, as nfcpy and the firmware set
    chip.place(NtagCard.for_card(UID))
    found, costs = [], set()
    for _ in range(200):
        chip.command(0x32, b"\x01\x00")  # the field off, as nfcpy mutes before each sense
        answer = chip.command(0x4A, b"\x01\x00")
        found.append(answer.data[0])
        costs.add(round(answer.busy_s * 1e4))
    assert 0.65 < sum(found) / len(found) < 0.85  # both tries miss a quarter of the time
    assert costs == {95, 115, 91}  # found at once, after one miss, or not at all (0.1 ms)
    chip.command(0x4A, b"\x01\x00")  # the field stays on: no misses
    assert all(chip.command(0x4A, b"\x01\x00").data[0] for _ in range(20))


def test_an_endless_search_finds_a_card_on_the_first_try_after_it_came() -> None:
    chip = Pn532Chip(profile_named("pi-uart-921600"))  # power-on MxRtyPassiveActivation 0xFF
    waiting = chip.command(0x4A, b"\x01\x00")
    search = waiting.search
    assert search is not None and search.tries is None and search.ends_s is None
    assert chip.search_found(search, 0.050) is None  # nothing in the field: still searching
    chip.place(NtagCard.for_card(UID))
    # the field came on cold: 5.1 ms guard, then a try every 2 ms; a card that comes at
    # 10.05 ms is met by the try at 11.1 ms and answers 4.4 ms later (its activation)
    found = chip.search_found(search, 0.01005)
    assert found is not None and found.data == bytes.fromhex("01010044000704A1B2C3D4E5F6")
    assert found.busy_s == pytest.approx(0.0051 + 3 * 0.002 + 0.0044)
    assert chip.command(0x40, b"\x01\x30\x00").data[0] == 0  # listed: it answers a READ


def test_a_card_already_there_at_the_first_try_answers_after_the_guard() -> None:
    chip = Pn532Chip(profile_named("pi-uart-921600"))
    search = chip.command(0x4A, b"\x01\x00").search
    assert search is not None
    chip.place(NtagCard.for_card(UID))
    found = chip.search_found(search, 0.001)  # came during the field-on guard
    assert found is not None and found.busy_s == pytest.approx(0.0051 + 0.0044)


def test_a_finite_search_gives_up_after_n_plus_one_tries() -> None:
    chip = Pn532Chip(profile_named("pi-uart-921600"))
    chip.command(0x32, b"\x05\xff\x01\x09")  # MxRtyPassiveActivation 9: ten tries
    answer = chip.command(0x4A, b"\x01\x00")
    assert answer.search is not None and answer.search.tries == 10
    assert answer.data == b"\x00" and answer.busy_s == pytest.approx(0.0051 + 10 * 0.002)
    assert answer.search.ends_s == pytest.approx(answer.busy_s)
    chip.place(NtagCard.for_card(UID))
    assert chip.search_found(answer.search, 0.0051 + 9 * 0.002 - 1e-6) is not None  # last try
    assert chip.search_found(answer.search, 0.0051 + 10 * 0.002 + 1e-6) is None  # given up


def test_a_search_for_one_uid_ignores_another_card() -> None:
    chip = Pn532Chip(profile_named("pi-uart-921600"))
    search = chip.command(0x4A, b"\x01\x00\x88\x04\xa1\xb2\xc3\xd4\xe5\xf6").search
    assert search is not None
    chip.place(NtagCard.for_card("04A1B2C3D4E5F7"))
    assert chip.search_found(search, 0.02) is None
    chip.place(NtagCard.for_card(UID))
    assert chip.search_found(search, 0.03) is not None


def test_an_ideal_chip_answers_a_card_the_moment_it_comes() -> None:
    chip = ideal_chip()
    search = chip.command(0x4A, b"\x01\x00").search
    assert search is not None
    chip.place(NtagCard.for_card(UID))
    found = chip.search_found(search, 0.25)
    assert found is not None and found.busy_s == 0.25
    chip.command(0x32, b"\x05\xff\x01\x01")
    chip.place(None)
    two_tries = chip.command(0x4A, b"\x01\x00")  # no RF time: it has given up at once
    assert two_tries.search is not None and two_tries.search.ends_s == 0


def test_a_chip_that_does_not_honour_endless_retries_gives_up_after_two_tries() -> None:
    chip = Pn532Chip(profile_named("pi-uart-921600"), endless_search=False)
    answer = chip.command(0x4A, b"\x01\x00")  # power-on 0xFF, taken as 1: two tries
    assert answer.search is not None and answer.search.tries == 2
    assert answer.busy_s == pytest.approx(0.0051 + 2 * 0.002)
