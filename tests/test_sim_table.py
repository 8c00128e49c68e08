"""sim: zones: emulated PN532s at a link profile (or UDP antennas), chosen by the reader spec or
the reader context, and the real nfcpy zone reader on them."""

from __future__ import annotations

import queue
import time

import pytest

from companion.hardware.readers.base import ReaderError, TagRead
from companion.hardware.readers.nfc_zone import NfcZoneReader
from companion.hardware.readers.ntag_sim import NtagCard, SimZone
from companion.hardware.readers.pn532_emulator import EmulatedPN532
from companion.hardware.readers.registry import ReaderContext, open_reader
from companion.hardware.readers.sim_table import SimulatedTable
from tests.waiting import eventually

UID = "04A1B2C3D4E5F6"


def test_the_spec_or_the_context_picks_the_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_SIM_PROFILE")
    context = ReaderContext(time.monotonic)
    assert context.sim_profile == "pi-uart-921600"  # the default outside the test suite
    reads: queue.Queue[TagRead] = queue.Queue()
    try:
        open_reader("sim:", "base-1", reads.put, time.monotonic, context)
        open_reader("sim:ftdi-default", "base-2", reads.put, time.monotonic, context)
        open_reader("sim:udp", "base-3", reads.put, time.monotonic, context)
        zones = context.simulator.zones
        assert isinstance(zones["base-1"], EmulatedPN532)
        assert zones["base-1"].profile.name == "pi-uart-921600"
        assert isinstance(zones["base-2"], EmulatedPN532)
        assert zones["base-2"].profile.name == "ftdi-default"
        assert isinstance(zones["base-3"], SimZone)
        with pytest.raises(ReaderError, match="unknown simulated reader 'sim:usb'; use sim:, "):
            open_reader("sim:usb", "base-4", reads.put, time.monotonic, context)
    finally:
        context.close()
    monkeypatch.setenv("COMPANION_SIM_PROFILE", "warp")
    with pytest.raises(ReaderError, match="no PN532 link profile 'warp'"):
        open_reader("sim:", "base-1", reads.put, time.monotonic, ReaderContext(time.monotonic))
    assert ReaderContext(time.monotonic, "ideal").sim_profile == "ideal"


def test_without_a_writable_dev_a_zone_falls_back_to_udp(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = SimulatedTable("ideal", device_dir="/proc")
    try:
        first, second = table.add_zone("base-1"), table.add_zone("base-2")
        assert isinstance(first, SimZone) and isinstance(second, SimZone)
        assert first.path.startswith("udp:")
        warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert len(warnings) == 1 and "uses the UDP simulator instead" in warnings[0]
        with pytest.raises(ValueError, match="already has a zone 'base-1'"):
            table.add_zone("base-1")
    finally:
        table.close()


def test_the_zone_reader_on_a_realistic_profile_reads_and_notices_removal() -> None:
    antenna = EmulatedPN532("base-1", "pi-uart-921600")
    reads: queue.Queue[TagRead] = queue.Queue()
    reader = NfcZoneReader("base-1", reads.put, time.monotonic, path=antenna.path)
    reader.start()
    try:
        eventually(  # opened: its init is not counted
            lambda: reader.health.snapshot().last_poll is not None,
            timeout=5,
            what="the reader thread's first poll",
        )
        before = antenna.stats
        antenna.place(NtagCard.for_card(UID, "core/zapbot", model="NTAG215"))
        arrived = reads.get(timeout=5)
        assert (arrived.kind, arrived.uid, arrived.card) == ("arrived", UID, "core/zapbot")
        # sense and three plain READs (16), after at most two empty polls (8); nfcpy's own
        # activation and NDEF read took 32 (exact counts: tests/test_nfc_arrival.py)
        assert (antenna.stats - before).round_trips <= 24
        antenna.lift()
        left = reads.get(timeout=5)
        assert (left.kind, left.uid) == ("left", UID)
        assert reader.health.snapshot().state == "ok"
    finally:
        reader.stop()
        antenna.close()


def test_an_emulated_reader_unplugged_and_back_gives_no_phantom_events() -> None:
    antenna = EmulatedPN532("base-2", "ideal")
    reads: queue.Queue[TagRead] = queue.Queue()
    reader = NfcZoneReader("base-2", reads.put, time.monotonic, path=antenna.path)
    reader.start()
    try:
        antenna.place(NtagCard.for_card(UID))
        assert reads.get(timeout=5).kind == "arrived"
        antenna.unplug()
        eventually(
            lambda: reader.health.snapshot().state == "reopening",
            timeout=5,
            what="the failure showing in the zone's health",
        )
        antenna.plug()
        eventually(
            lambda: reader.health.snapshot().reopens >= 1,
            timeout=5,
            what="the reader reopened once it is back",
        )
        with pytest.raises(queue.Empty):  # the same card, still there: nothing happened
            reads.get(timeout=0.3)
        antenna.lift()
        left = reads.get(timeout=5)
        assert (left.kind, left.uid) == ("left", UID)
    finally:
        reader.stop()
        antenna.close()
