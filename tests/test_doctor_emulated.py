"""`companion doctor` against emulated PN532s on nfcpy's own ``pn532`` driver, in every link
profile: a reader that is missing, one behind an FTDI bridge at its default latency timer, one
that loses 5 % of its READs. The test lays and lifts the cards the doctor asks for.

The probe is timed on the emulator's modelled clock, so the emulator waits for nothing
(``realtime=False``): its accounting keeps the time a real link would take. What is real time
still: the one answer held past nfcpy's 100 ms ACK wait, the doctor's held search, and the taps
through the table's loop (its poll periods), on a loaded machine; so the assertions hold the
verdicts the profiles must get, not exact figures."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli.main import main
from companion.hardware.checkup import Check, Verdict
from companion.hardware.devices import System
from companion.hardware.doctor import ReaderOptions, check_reader
from companion.hardware.readers.ntag_sim import NtagCard
from companion.hardware.readers.pn532_emulator import EmulatedPN532, EmulatorUnavailable
from companion.hardware.readers.trial import Move

UID = "04A1B2C3D4E5F6"


@pytest.fixture
def made() -> Iterator[list[EmulatedPN532]]:
    readers: list[EmulatedPN532] = []
    yield readers
    for reader in readers:
        reader.close()


def emulate(made: list[EmulatedPN532], profile: str, **options: object) -> EmulatedPN532:
    """An emulated reader that answers at once unless ``realtime=True`` is passed."""
    options.setdefault("realtime", False)
    try:
        reader = EmulatedPN532("doctor", profile, **options)  # type: ignore[arg-type]
    except EmulatorUnavailable as exc:
        pytest.skip(str(exc))
    made.append(reader)
    return reader


def hand(reader: EmulatedPN532) -> object:
    def move(zone: str, action: Move, words: str) -> float:
        if action == "lay":
            reader.place(NtagCard.for_card(UID, "core/zapbot"))
        else:
            reader.lift()
        return time.monotonic()

    return move


def behind(reader: EmulatedPN532, tmp_path: Path, driver: str, latency: int | None) -> System:
    """A fake sysfs in which the emulator's pseudo-terminal is run by kernel ``driver``."""
    pts = os.path.realpath(reader.device).removeprefix("/dev/").replace("/", "!")
    node = tmp_path / "class/tty" / pts / "device"
    node.mkdir(parents=True)
    (tmp_path / "drivers" / driver).mkdir(parents=True)
    (node / "driver").symlink_to(tmp_path / "drivers" / driver)
    if latency is not None:
        (node / "latency_timer").write_text(f"{latency}\n")
    return System(sysfs=tmp_path, user="pi", groups=frozenset({"dialout"}))


def run(reader: EmulatedPN532, system: System | None = None, **more: float) -> dict[str, Check]:
    """The doctor's lines for ``reader``. Its probe is timed by the emulator's modelled clock
    (the link and chip time the profile charges), so its figures and verdicts are the model's
    whatever the machine's load; the taps run through the table's loop in real time (against
    a chip that answers at once: their figures are the loop's, not the link's)."""
    options = ReaderOptions(
        prompt=hand(reader),  # type: ignore[arg-type]
        tries=int(more.get("tries", 30)),
        taps=int(more.get("taps", 2)),
        timeout=5.0,
        clock=lambda: reader.stats.modelled_s,
        **({"system": system} if system else {}),
    )
    return {check.name: check for check in check_reader("base-1", reader.path, options)}


OK, WARN, FAIL = Verdict.OK, Verdict.WARN, Verdict.FAIL
PROBE_LINES = ("link round trip", "empty poll", "resting-card READ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("profile", "driver", "verdicts", "link"),
    [
        ("ideal", None, (OK, OK, OK), "unknown link"),
        ("pi-uart-921600", "uart-pl011", (OK, OK, OK), "PL011"),
        ("cp210x-921600", "cp210x", (OK, OK, OK), "CP210x"),
        ("cp210x-115200", "cp210x", (OK, OK, OK), "CP210x"),
        ("ftdi-1ms", "ftdi_sio", (OK, OK, OK), "FTDI"),
        # Linux's default 16 ms timer: every answer waits in the bridge, polls overrun
        ("ftdi-default", "ftdi_sio", (FAIL, FAIL, FAIL), "FTDI"),
    ],
)
def test_every_profile_gets_the_verdicts_its_link_deserves(
    made: list[EmulatedPN532],
    tmp_path: Path,
    profile: str,
    driver: str | None,
    verdicts: tuple[Verdict, Verdict, Verdict],
    link: str,
) -> None:
    reader = emulate(made, profile)
    latency = (16 if profile == "ftdi-default" else 1) if driver == "ftdi_sio" else None
    checks = run(reader, behind(reader, tmp_path, driver, latency) if driver else None)
    assert checks["firmware"].measured == "PN532 v1.6"
    assert link in checks["reader opens"].measured
    assert tuple(checks[name].verdict for name in PROBE_LINES) == verdicts
    assert checks["chip waits for a card"].verdict is OK  # the emulated chip honours 0xFF
    # no READ fails (a try a loaded machine's link lost is left out, not failed)
    assert checks["READ failures"].measured.startswith("0 of ")
    if driver == "ftdi_sio":
        assert checks["FTDI latency timer"].verdict is (FAIL if latency == 16 else OK)
    # the taps, through the table's loop in real time: measured (judged by the model above)
    for name in ("place -> event", "removal"):
        assert checks[name].value is not None and checks[name].value > 0, name
    # ftdi-default's place -> event is no longer a failure of its own: a card laid again is one
    # the table knows, one sense (4 round trips, ~16 ms each behind that bridge, not the 32 of
    # nfcpy's activation); the link lines above flag the bridge


def test_an_ftdi_bridge_at_the_default_timer_is_flagged_with_its_fix(
    made: list[EmulatedPN532], tmp_path: Path
) -> None:
    reader = emulate(made, "ftdi-default")
    checks = run(reader, behind(reader, tmp_path, "ftdi_sio", 16), tries=10, taps=0)
    timer = checks["FTDI latency timer"]
    assert (timer.verdict, timer.measured) == (FAIL, "16 ms")
    assert 'ATTR{latency_timer}="1"' in timer.fix
    link = checks["link round trip"]  # every answer waits in the bridge: > 8 ms
    assert link.value is not None and 16 < link.value < 20
    assert "latency timer" in link.fix


def test_a_reader_dropping_5_percent_of_reads_reports_its_failure_rate(
    made: list[EmulatedPN532],
) -> None:
    reader = emulate(made, "ideal", drop_reads=0.05, seed=7)
    checks = run(reader, tries=400, taps=0)
    failures = checks["READ failures"]
    assert failures.verdict is Verdict.FAIL
    assert failures.value is not None and 2.5 < failures.value < 8.5, failures.measured
    # a try the link lost (a loaded machine) is left out of the rate, not counted against it
    assert failures.details["tries"] + checks["reader answers"].details["link_errors"] >= 400
    assert "placement.md" in failures.fix


def test_a_missing_reader_fails_at_found_and_skips_the_rest(made: list[EmulatedPN532]) -> None:
    reader = emulate(made, "pi-uart-921600", present=False)
    checks = run(reader)
    found = checks["reader found"]
    assert found.verdict is Verdict.FAIL and found.measured.endswith("does not exist")
    assert all(c.verdict is Verdict.SKIP for name, c in checks.items() if name != "reader found")
    reader.plug()  # plugged in after all: the doctor finds it
    assert run(reader, tries=5, taps=0)["reader found"].verdict is Verdict.OK


def test_a_reader_unplugged_mid_check_says_so(made: list[EmulatedPN532]) -> None:
    reader = emulate(made, "ideal")

    def unplug(zone: str, action: Move, words: str) -> None:
        reader.unplug()

    options = ReaderOptions(prompt=unplug, tries=5, timeout=2.0)
    checks = {c.name: c for c in check_reader("base-1", reader.path, options)}
    answers = checks["reader answers"]
    assert answers.verdict is Verdict.FAIL and "loose USB cable" in answers.fix
    assert checks["reader opens"].verdict is Verdict.OK


def test_the_command_checks_an_nfc_zone_on_the_real_driver_path(
    made: list[EmulatedPN532], tmp_path: Path
) -> None:
    reader = emulate(made, "pi-uart-921600")
    table = tmp_path / "table.toml"
    table.write_text(
        f'[table]\ndb = "{tmp_path / "g.db"}"\n[zones.base-1]\nreader = "nfc:{reader.path}"\n'
    )
    args = ["doctor", "--table", str(table), "--no-cards", "--tries", "20", "--port", "0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert f"base-1 (nfc:{reader.path}): checking..." in result.output
    assert "[ ok ] firmware: PN532 v1.6  (expected PN532 v1.x)" in result.output
    assert "[ -- ] removal: --no-cards" in result.output
    assert result.output.rstrip().splitlines()[-1].startswith("all good: ")


def test_a_port_where_no_pn532_answers_fails_to_open_after_retries() -> None:
    """A bridge whose PN532 is silent (mode switches wrong, TX/RX not crossed): a pty nobody
    answers on."""
    main_end, reader_end = os.openpty()
    name = f"pn532emu{os.getpid()}x-silent"
    try:
        os.symlink(os.ttyname(reader_end), f"/dev/{name}")
    except OSError as exc:
        os.close(main_end)
        os.close(reader_end)
        pytest.skip(f"/dev is not writable here: {exc}")
    try:
        checks = check_reader("base-1", f"tty:{name}:pn532", ReaderOptions(tries=5))
    finally:
        os.unlink(f"/dev/{name}")
        os.close(main_end)
        os.close(reader_end)
    opens = checks[2]
    assert (opens.name, opens.verdict) == ("reader opens", Verdict.FAIL)
    assert opens.measured.endswith("(3 tries)") and "mode switches both OFF" in opens.fix
    assert [c.verdict for c in checks[3:]] == [Verdict.SKIP] * 8


def test_an_answer_the_link_loses_is_counted_not_taken_for_the_card(
    made: list[EmulatedPN532],
) -> None:
    """One answer held past nfcpy's 100 ms ACK wait: a link error, and no READ failure. That
    wait is nfcpy's wall clock, so this reader is in real time, but sleeps only the held one."""
    held = threading.Event()

    def late_once(seconds: float) -> None:
        if reader.card is not None and not held.is_set():
            held.set()
            time.sleep(seconds + 0.25)

    reader = emulate(made, "pi-uart-921600", realtime=True, sleep=late_once)
    checks = run(reader, tries=30, taps=0)
    answers = checks["reader answers"]
    assert held.is_set()
    assert answers.verdict in (Verdict.WARN, Verdict.FAIL)
    assert answers.details["link_errors"] >= 1 and "wires" in answers.fix
    assert checks["READ failures"].verdict is Verdict.OK


def test_a_card_left_on_the_zone_gives_the_field_on_hit_rate(made: list[EmulatedPN532]) -> None:
    """Checklist no. 5: with a card resting, the empty-poll line says how often a sense
    finds it; an emulated chip whose activation tries miss half the time finds it less."""
    reader = emulate(made, "ideal", activation_miss=0.5, seed=3)
    reader.place(NtagCard.for_card(UID))
    options = ReaderOptions(prompt=None, tries=100)
    empty = {c.name: c for c in check_reader("base-1", reader.path, options)}["empty poll"]
    assert empty.verdict is Verdict.WARN
    found = int(empty.measured.split("a card answered ")[1].split(" of")[0])
    assert 40 <= found < 100, empty.measured  # missed sometimes, found mostly
    assert "95 % or more" in empty.fix


def test_a_chip_that_does_not_wait_for_a_card_is_told_to_poll(made: list[EmulatedPN532]) -> None:
    reader = emulate(made, "pi-uart-921600", endless_search=False)
    checks = run(reader, tries=10, taps=0)
    waits = checks["chip waits for a card"]
    assert waits.verdict is WARN and waits.value is not None and waits.value < 100
    assert "#poll" in waits.fix and "hardware/README.md" in waits.fix
