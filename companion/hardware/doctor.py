"""The reader half of `companion doctor`: one zone's reader checked and measured, line by line.

For an nfcpy reader (``nfc:tty:nfc-zone1:pn532``, or the path of a simulated or emulated
one): its device (:mod:`.devices`), then through nfcpy (:mod:`.readers.probe`) its firmware,
the link's round trip, an empty poll, a resting card's READ and how often it fails, then taps
through the table's own loop (:mod:`.readers.trial`): card laid -> event, lift -> event. Every
figure is set against :mod:`.expected`. The steps with a card ask for it through a prompt and
are skipped with ``cards=False``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from companion.hardware.checkup import Check, Limits, Series, Verdict, ok, skipped
from companion.hardware.devices import DeviceFacts, System, device_checks
from companion.hardware.expected import (
    LINK_ERRORS,
    OPEN_TIME,
    READ_FAILURES,
    Expected,
    expected_for,
)
from companion.hardware.readers.base import Clock, ReaderError
from companion.hardware.readers.probe import CHIP_WAIT_S, ReaderProbe
from companion.hardware.readers.trial import Prompt, TapTrial

__all__ = ["ReaderOptions", "check_reader"]

_CARD_STEPS = ("resting-card READ", "READ failures", "place -> event", "removal")


@dataclass(frozen=True, slots=True)
class ReaderOptions:
    prompt: Prompt | None = None  #: None: no card steps (``--no-cards``)
    #: round trips, empty polls and resting READs to time
    tries: int = 200
    taps: int = 3  #: lay-and-lift cycles through the table's loop
    timeout: float = 60.0  #: seconds to wait for a person to move a card
    system: System = field(default_factory=System)
    #: the probe's clock (tests pass an emulator's modelled time, to judge the model itself)
    clock: Clock = time.perf_counter


def check_reader(zone: str, nfc_path: str, options: ReaderOptions) -> list[Check]:
    """Every line about ``zone``'s nfcpy reader at ``nfc_path``."""
    checks, facts = device_checks(zone, nfc_path, options.system)
    if facts.device is not None and not facts.found:
        return checks + _all_skipped(zone, "the reader was not found")
    expected = expected_for(facts.driver)
    try:
        with ReaderProbe(nfc_path, clock=options.clock) as probe:
            checks.append(_opened(zone, nfc_path, probe, expected))
            checks += _link_checks(zone, probe, expected, options)
            checks += _empty_check(zone, probe, expected, options)
            checks.append(_wait_check(zone, probe))
            if options.prompt is None:
                checks.append(_answers(zone, probe))
                return checks + [skipped(zone, name, "--no-cards") for name in _CARD_STEPS]
            resting = _resting_checks(zone, probe, expected, options)
            checks += [*resting, _answers(zone, probe)]
    except ReaderError as exc:
        if any(check.name == "reader opens" for check in checks):
            return checks + [_stopped(zone, str(exc))]
        unopened = _unopened(zone, nfc_path, str(exc), facts)
        return [*checks, unopened, *_all_skipped(zone, "the reader did not open")]
    if resting[0].verdict is Verdict.SKIP:  # no card was laid: nothing to tap with
        return checks + [skipped(zone, name, resting[0].measured) for name in _CARD_STEPS[2:]]
    empty = next((c.value for c in checks if c.name == "empty poll"), None)
    return checks + _tap_checks(zone, nfc_path, expected, options, empty)


def _all_skipped(zone: str, why: str) -> list[Check]:
    names = ("firmware", "link round trip", "empty poll", "chip waits for a card", *_CARD_STEPS)
    return [skipped(zone, name, why) for name in names]


def _opened(zone: str, path: str, probe: ReaderProbe, expected: Expected) -> Check:
    """nfcpy opened the reader; in how long (§6 no. 2: 0.1-0.3 s, the baud switch included),
    and at which try (an occasional failed first open is normal; two are not)."""
    took = probe.open_time * 1000
    verdict = OPEN_TIME.verdict(took)
    tries = f", at the {_ordinal(probe.open_attempts)} try" if probe.open_attempts > 1 else ""
    if probe.open_attempts > 2:
        verdict = Verdict.FAIL if verdict is Verdict.FAIL else Verdict.WARN
    return Check(
        zone,
        "reader opens",
        verdict,
        f"nfcpy opened {path} in {took:.0f} ms{tries}; link: {expected.link}",
        OPEN_TIME.expected,
        fix=""
        if verdict is Verdict.OK
        else (
            "Opening the reader is slow or fails at first: nfcpy waits for a PN532 that "
            "answers late. Check its 5 V supply (a powered hub) and the wires to it "
            "(hardware/wiring.md)."
        ),
        value=round(took, 1),
        details={"link": expected.link, "attempts": probe.open_attempts},
    )


def _ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def _answers(zone: str, probe: ReaderProbe) -> Check:
    """How many of the probe's commands the link failed (no ACK within nfcpy's 100 ms, a
    garbled frame): the table's reader reopens on each, so a few are a warning."""
    rate = 100 * probe.link_errors / max(1, probe.commands)
    measured = f"{probe.link_errors} of {probe.commands} commands without an answer"
    if probe.reopens:
        times = "once" if probe.reopens == 1 else f"{probe.reopens} times"
        measured += f" (reopened {times}, as the table would)"
    # one lost answer is a warning whatever the count of commands; more are judged by rate
    verdict = LINK_ERRORS.verdict(rate) if probe.link_errors > 1 else Verdict.OK
    if probe.link_errors == 1:
        verdict = Verdict.WARN
    return Check(
        zone,
        "reader answers",
        verdict,
        measured,
        f"none (over {LINK_ERRORS.fail:g} %: failing)",
        fix=""
        if verdict is Verdict.OK
        else (
            "The link to the reader loses commands; the table then reopens the reader and "
            "misses cards meanwhile. Check the wires between the PN532 and its bridge (short, "
            "firmly seated), the USB cable, and the 5 V supply (a powered hub)."
        ),
        value=round(rate, 2),
        details={
            "commands": probe.commands,
            "link_errors": probe.link_errors,
            "reopens": probe.reopens,
        },
    )


def _stopped(zone: str, error: str) -> Check:
    return Check(
        zone,
        "reader answers",
        Verdict.FAIL,
        error,
        "answers throughout",
        fix=(
            "The reader stopped answering in the middle of the checks: a loose USB cable or "
            "wire, or a 5 V supply that sags when the field is on (use a powered hub). Fix it "
            "and run the doctor again."
        ),
    )


def _unopened(zone: str, path: str, error: str, facts: DeviceFacts) -> Check:
    return Check(
        zone,
        "reader opens",
        Verdict.FAIL,
        error,
        "nfcpy opens the reader",
        fix=(
            "The device is there but no PN532 answers on it. Check, with the power off: the "
            "PN532's two mode switches both OFF (HSU/UART mode), its TXD wired to the bridge's "
            "RXD and RXD to TXD (crossed), VCC to 5V and GND to GND (hardware/wiring.md). Stop "
            "the table first if it runs (`sudo systemctl stop companion`): only one program at "
            "a time can use a reader."
        ),
        details={"path": path, "driver": facts.driver},
    )


def _link_checks(
    zone: str, probe: ReaderProbe, expected: Expected, options: ReaderOptions
) -> list[Check]:
    answer = probe.firmware(options.tries)
    if answer is None:
        why = "no PN53x behind this reader (a simulated antenna)"
        return [skipped(zone, "firmware", why), skipped(zone, "link round trip", why)]
    version, series = answer
    firmware = ok(zone, "firmware", version, "PN532 v1.x")
    if not version.startswith("PN532"):
        firmware = Check(
            zone,
            "firmware",
            Verdict.WARN,
            version,
            "PN532 v1.x",
            fix="This is not a PN532; the expected figures below are a PN532's.",
        )
    fix = (
        "Every exchange with this reader is slow. If it hangs on an FTDI USB bridge, set the "
        "bridge's latency timer to 1 ms (`sudo companion install` adds the udev rule; then "
        "replug the reader), or better use a CP2102/CH340 bridge or the Pi's own UART "
        "(hardware/wiring.md). Otherwise the link may not have switched to 921600 baud: try "
        "another bridge."
    )
    return [firmware, _timed(zone, "link round trip", series, expected.round_trip, fix)]


def _empty_check(
    zone: str, probe: ReaderProbe, expected: Expected, options: ReaderOptions
) -> list[Check]:
    series, found = probe.empty_senses(options.tries)
    fix = (
        "An empty poll is slow, so lifted cards will be noticed late (and on a #poll zone, "
        "laid ones too). Check the link line above; "
        "a reader that is slow here but fast there may be a bad module or a weak 5 V supply "
        "(use a powered USB hub)."
    )
    check = _timed(zone, "empty poll", series, expected.empty_sense, fix)
    if found:  # a card left on the zone; with one laid on purpose: its hit rate (§6 no. 5)
        return [
            Check(
                zone,
                "empty poll",
                Verdict.FAIL if check.verdict is Verdict.FAIL else Verdict.WARN,
                f"{check.measured}; a card answered {found} of them "
                f"({100 * found / max(1, len(series.durations)):.0f} %)",
                check.expected,
                fix=f"Take every card off {zone} before running the doctor, then run it again. "
                "(With a card laid there on purpose, this is how often a poll finds it: "
                "95 % or more is expected, hardware/README.md no. 5.)",
                value=check.value,
                details=check.details,
            )
        ]
    return [check]


def _wait_check(zone: str, probe: ReaderProbe) -> Check:
    """Whether the chip waits for a card itself (MxRtyPassiveActivation 0xFF: the table's
    default for an empty PN532), or answers "no target" at once (then the zone needs ``#poll``:
    hardware/README.md's checklist)."""
    name, expected = "chip waits for a card", f"holds a search {CHIP_WAIT_S * 1000:.0f} ms"
    held = probe.chip_wait()
    if held is None:
        return skipped(zone, name, "not a PN532 on nfcpy's pn532 driver: polled every period")
    seconds, found = held
    measured = f"held a search with no card {seconds * 1000:.0f} ms"
    if found:
        return Check(
            zone,
            name,
            Verdict.WARN,
            f"a card answered after {seconds * 1000:.0f} ms",
            expected,
            fix=f"Take every card off {zone} and run the doctor again.",
        )
    if seconds >= 0.9 * CHIP_WAIT_S:
        return ok(zone, name, measured, expected)
    return Check(
        zone,
        name,
        Verdict.WARN,
        measured,
        expected,
        fix=f"This reader's chip answers at once instead of waiting for a card, so the table "
        f"would ask it again and again. Add #poll at the end of {zone}'s reader in the table "
        'config (reader = "nfc:tty:nfc-zone1:pn532#poll"): the table then polls it every '
        "35 ms instead (hardware/README.md, acceptance checklist).",
        value=round(seconds * 1000, 1),
    )


def _resting_checks(
    zone: str, probe: ReaderProbe, expected: Expected, options: ReaderOptions
) -> list[Check]:
    assert options.prompt is not None
    options.prompt(zone, "lay", f"Lay a card on {zone}, flat, and leave it there.")
    if not probe.wait_for_card(options.timeout):
        why = f"no card was laid on {zone} within {options.timeout:g} s"
        return [skipped(zone, "resting-card READ", why), skipped(zone, "READ failures", why)]
    uid = probe.resting_uid or ""
    if len(uid) != 14:  # an NTAG21x has a 7-byte uid; the presence READ assumes one
        why = f"the card laid (uid {uid}) is not an NTAG sticker: lay one of the game's cards"
        return [skipped(zone, "resting-card READ", why), skipped(zone, "READ failures", why)]
    series = probe.resting_reads(options.tries)
    fix = (
        "Reading a card that lies still is slow, so lifts are noticed late. Check the link "
        "line above."
    )
    timing = _timed(zone, "resting-card READ", series, expected.resting_read, fix)
    rate = 100 * series.failure_rate
    verdict = READ_FAILURES.verdict(rate)
    failures = Check(
        zone,
        "READ failures",
        verdict,
        f"{series.failures} of {series.tries} ({rate:.1f} %)",
        f"under {READ_FAILURES.high:g} %",
        fix=""
        if verdict is Verdict.OK
        else (
            "A card lying still sometimes does not answer, which can show as a card lifted "
            "and laid again. Centre the sticker over the antenna, keep metal (screws, "
            "brackets) and cables away from it, use a thinner table top or larger stickers, "
            "and move neighbouring antennas apart (hardware/placement.md)."
        ),
        value=rate,
        details=series.as_details(),
    )
    return [timing, failures]


def _tap_checks(
    zone: str, path: str, expected: Expected, options: ReaderOptions, empty_ms: float | None
) -> list[Check]:
    assert options.prompt is not None
    empty = empty_ms / 1000 if empty_ms is not None else None
    trial = TapTrial(zone, path, options.prompt, timeout=options.timeout, empty_poll=empty)
    result = trial.run(options.taps)
    how = " (estimated from the polls, +-half a poll)" if result.estimated else ""
    lines = []
    fixes = {
        "place -> event": (
            "Cards laid on this zone are seen late. Check the link and poll lines above "
            "(an FTDI bridge's latency timer, a slow bridge)."
        ),
        "removal": (
            "Lifting a card is noticed late. Check the link and resting-card READ lines above."
        ),
    }
    for name, series, limits in (
        ("place -> event", result.places, expected.place_to_event),
        ("removal", result.removals, expected.removal),
    ):
        if not series.durations:
            lines.append(skipped(zone, name, result.stopped or f"--taps {options.taps}"))
            continue
        line = _timed(zone, name, series, limits, fixes[name])
        lines.append(_with_note(line, how))
    return lines


def _timed(zone: str, name: str, series: Series, limits: Limits, fix: str) -> Check:
    """A line for a series of timings, judged by its median."""
    if not series.durations:
        return Check(
            zone,
            name,
            Verdict.FAIL,
            f"no answer in {series.tries} tries",
            limits.expected,
            fix=fix,
            details=series.as_details(),
        )
    verdict = limits.verdict(series.p50_ms)
    measured = series.summary()
    if series.failures:
        measured += f", {series.failures} without an answer"
        verdict = Verdict.WARN if verdict is Verdict.OK else verdict
    return Check(
        zone,
        name,
        verdict,
        measured,
        f"{limits.expected} p50",
        fix="" if verdict is Verdict.OK else fix,
        value=round(series.p50_ms, 3),
        details=series.as_details(),
    )


def _with_note(check: Check, note: str) -> Check:
    if not note:
        return check
    return Check(
        check.subject,
        check.name,
        check.verdict,
        check.measured + note,
        check.expected,
        check.fix,
        check.value,
        check.details,
    )
