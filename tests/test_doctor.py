"""`companion doctor`'s reader checks against the simulated table: the real nfcpy code, the
real reader loop, a test laying and lifting the cards the doctor asks for."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hardware.checkup import Check, Verdict
from companion.hardware.devices import System
from companion.hardware.doctor import ReaderOptions, check_reader
from companion.hardware.readers.ntag_sim import NtagCard, SimZone
from companion.hardware.readers.trial import Move, TapTrial

UID = "04A1B2C3D4E501"


class DroppingZone(SimZone):
    """An antenna whose card leaves one presence READ in ``every`` unanswered."""

    def __init__(self, name: str, every: int) -> None:
        self.every = every
        self.reads = 0
        super().__init__(name)

    def handle(self, datagram: bytes) -> bytes | None:
        if datagram == b"106A 3000":
            self.reads += 1
            if self.reads % self.every == 0:
                return None
        return super().handle(datagram)


class Hand:
    """Does what the doctor asks on a simulated antenna, and remembers what it was asked."""

    def __init__(self, antenna: SimZone, *, knows_when: bool = True, obeys: bool = True) -> None:
        self.antenna = antenna
        self.knows_when = knows_when
        self.obeys = obeys
        self.asked: list[tuple[str, Move, str]] = []

    def __call__(self, zone: str, move: Move, words: str) -> float | None:
        self.asked.append((zone, move, words))
        if self.obeys:
            if move == "lay":
                self.antenna.place(NtagCard.for_card(UID))
            else:
                self.antenna.lift()
        return time.monotonic() if self.knows_when else None


@pytest.fixture
def antenna() -> Iterator[SimZone]:
    zone = SimZone("base-1")
    yield zone
    zone.close()


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {check.name: check for check in checks}


def options(prompt: Hand | None, timeout: float = 3.0) -> ReaderOptions:
    return ReaderOptions(prompt=prompt, tries=40, taps=2, timeout=timeout)


def test_a_working_zone_is_measured_line_by_line_and_passes(antenna: SimZone) -> None:
    hand = Hand(antenna)
    checks = by_name(check_reader("base-1", antenna.path, options(hand)))
    assert [name for name in checks] == [
        "reader opens",
        "firmware",
        "link round trip",
        "empty poll",
        "chip waits for a card",
        "resting-card READ",
        "READ failures",
        "reader answers",
        "place -> event",
        "removal",
    ]
    # a simulated antenna has no PN53x chip: nothing to ask its firmware, and it is polled
    assert checks["firmware"].verdict is Verdict.SKIP
    assert checks["chip waits for a card"].verdict is Verdict.SKIP
    for name in (
        "reader opens",
        "empty poll",
        "resting-card READ",
        "READ failures",
        "reader answers",
    ):
        assert checks[name].verdict is Verdict.OK, checks[name]
    assert checks["empty poll"].details["tries"] == 40
    assert checks["READ failures"].measured == "0 of 40 (0.0 %)"
    # taps through the table's own loop: 2 lay-and-lift cycles after the resting card
    assert [move for _, move, _ in hand.asked] == ["lay", "lift", "lay", "lift", "lay", "lift"]
    place, removal = checks["place -> event"], checks["removal"]
    assert place.details["tries"] == 2 and removal.details["tries"] == 3
    # the simulated loop's figures: a poll every 50 ms while empty, two 35 ms misses to leave
    assert place.value is not None and 0 < place.value < 200
    assert removal.value is not None and 30 < removal.value < 200
    assert place.verdict is Verdict.OK and removal.verdict is Verdict.OK
    assert all(check.fix == "" for check in checks.values())


def test_a_reader_that_drops_5_percent_of_reads_fails_with_its_rate(antenna: SimZone) -> None:
    dropping = DroppingZone("base-2", every=20)
    try:
        checks = by_name(check_reader("base-2", dropping.path, options(Hand(dropping))))
    finally:
        dropping.close()
    failures = checks["READ failures"]
    assert failures.verdict is Verdict.FAIL
    assert failures.measured == "2 of 40 (5.0 %)"
    assert failures.value == pytest.approx(5.0)
    assert "sticker" in failures.fix and "placement.md" in failures.fix
    assert checks["resting-card READ"].details["failures"] == 2


def test_no_cards_skips_every_step_with_a_card(antenna: SimZone) -> None:
    checks = check_reader("base-1", antenna.path, options(None))
    skipped = [c.name for c in checks if c.verdict is Verdict.SKIP and c.measured == "--no-cards"]
    assert skipped == ["resting-card READ", "READ failures", "place -> event", "removal"]
    assert by_name(checks)["empty poll"].verdict is Verdict.OK


def test_a_card_never_laid_skips_the_card_steps_after_the_wait(antenna: SimZone) -> None:
    hand = Hand(antenna, obeys=False)
    checks = by_name(check_reader("base-1", antenna.path, options(hand, timeout=0.3)))
    for name in ("resting-card READ", "READ failures", "place -> event", "removal"):
        assert checks[name].verdict is Verdict.SKIP
        assert checks[name].measured == "no card was laid on base-1 within 0.3 s"
    assert hand.asked == [("base-1", "lay", "Lay a card on base-1, flat, and leave it there.")]


def test_a_card_left_on_the_antenna_warns_at_the_empty_poll(antenna: SimZone) -> None:
    antenna.place(NtagCard.for_card(UID))
    checks = by_name(check_reader("base-1", antenna.path, options(None)))
    empty = checks["empty poll"]
    assert empty.verdict is Verdict.WARN
    assert "a card answered 40 of them" in empty.measured
    assert "Take every card off base-1" in empty.fix


def test_a_person_s_taps_are_estimated_from_the_polls(antenna: SimZone) -> None:
    """A person's moment is unknown: it is placed between the polls around it."""
    antenna.place(NtagCard.for_card(UID))
    hand = Hand(antenna, knows_when=False)
    result = TapTrial("base-1", antenna.path, hand, timeout=3.0, empty_poll=0.001).run(3)
    assert result.estimated and result.stopped is None
    assert len(result.place_to_event) == 3 and len(result.removal) == 4
    # within about half a poll of the true times (tens of ms; more on a loaded machine)
    assert all(0 <= t < 0.3 for t in result.place_to_event), result.place_to_event
    assert all(0 <= t < 0.3 for t in result.removal), result.removal


def test_a_missing_reader_fails_and_skips_everything_after(tmp_path: Path) -> None:
    system = System(dev=tmp_path, sysfs=tmp_path / "sys")
    checks = check_reader("base-3", "tty:nfc-zone3:pn532", ReaderOptions(system=system))
    found = checks[0]
    assert (found.name, found.verdict) == ("reader found", Verdict.FAIL)
    assert found.measured == f"{tmp_path}/nfc-zone3 does not exist"
    assert "99-companion-nfc.rules" in found.fix and "hub port" in found.fix
    assert {c.verdict for c in checks[1:]} == {Verdict.SKIP}
    assert len(checks) == 9  # found, then 8 skipped (the chip-wait line among them)
