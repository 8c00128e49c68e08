"""`companion doctor`'s checks of the machine: reader devices in a fake /dev and sysfs, GPIO
pins on gpiozero's mock factory, a real SQLite file, a real socket, an injected resolver."""

from __future__ import annotations

import socket
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from gpiozero import LED

from companion.hardware.checkup import Limits, Series, Verdict
from companion.hardware.devices import FTDI_RULE, System, device_checks, groups_check, tty_device
from companion.hardware.expected import BRIDGE, FTDI, PL011, expected_for
from companion.hardware.host_checks import gpio_check
from companion.hardware.pinmap import PinMap
from companion.storage.store import EventStore
from companion.storage.writable import probe_store
from companion.table.doctor import store_check
from companion.table.network_checks import name_check, port_check


def a_bridge(tmp_path: Path, driver: str, latency: int | None = None) -> System:
    """``/dev/nfc-zone1 -> ttyUSB0``, a bridge run by ``driver`` in a fake sysfs."""
    dev, sysfs = tmp_path / "dev", tmp_path / "sys"
    dev.mkdir(parents=True)
    (dev / "ttyUSB0").touch()
    (dev / "nfc-zone1").symlink_to(dev / "ttyUSB0")
    node = sysfs / "class/tty/ttyUSB0/device"
    node.mkdir(parents=True)
    drivers = sysfs / "bus/usb-serial/drivers" / driver
    drivers.mkdir(parents=True)
    (node / "driver").symlink_to(drivers)
    if latency is not None:
        (node / "latency_timer").write_text(f"{latency}\n")
    return System(dev=dev, sysfs=sysfs, user="pi", groups=frozenset({"pi", "dialout"}))


# -- reader devices ----------------------------------------------------------------------------


def test_nfcpy_tty_paths_name_their_device() -> None:
    dev = Path("/dev")
    assert tty_device("tty:nfc-zone1:pn532") == dev / "nfc-zone1"
    assert tty_device("tty:USB0:pn532") == dev / "ttyUSB0"
    assert tty_device("tty:AMA0") == dev / "ttyAMA0"
    assert tty_device("usb:054c:06c3") is None
    assert tty_device("udp:127.0.0.1:54321") is None


def test_an_ftdi_bridge_at_the_default_timer_is_flagged_with_the_rule(tmp_path: Path) -> None:
    checks, facts = device_checks(
        "base-1", "tty:nfc-zone1:pn532", a_bridge(tmp_path, "ftdi_sio", 16)
    )
    assert [c.name for c in checks] == ["reader found", "device permissions", "FTDI latency timer"]
    assert checks[0].verdict is Verdict.OK and checks[0].measured.endswith("/ttyUSB0")
    timer = checks[2]
    assert (timer.verdict, timer.measured, timer.value) == (Verdict.FAIL, "16 ms", 16.0)
    assert FTDI_RULE in timer.fix and "CP2102" in timer.fix
    assert (facts.driver, facts.latency_timer_ms) == ("ftdi_sio", 16)
    assert expected_for(facts.driver) is FTDI


def test_an_ftdi_bridge_at_1_ms_passes_and_a_cp210x_has_no_timer_line(tmp_path: Path) -> None:
    checks, _ = device_checks("base-1", "tty:nfc-zone1", a_bridge(tmp_path / "a", "ftdi_sio", 1))
    assert checks[2].verdict is Verdict.OK
    checks, facts = device_checks("base-1", "tty:nfc-zone1", a_bridge(tmp_path / "b", "cp210x"))
    assert [c.name for c in checks] == ["reader found", "device permissions"]
    assert expected_for(facts.driver) is BRIDGE
    assert expected_for("uart-pl011") is PL011
    assert "unknown link" in expected_for(None).link


def test_a_device_the_user_may_not_open_says_which_group_to_join(tmp_path: Path) -> None:
    system = a_bridge(tmp_path, "ch341-uart")
    group = __import__("grp").getgrgid((tmp_path / "dev/ttyUSB0").stat().st_gid).gr_name
    locked = System(system.dev, system.sysfs, "pi", frozenset({"pi"}), can_use=lambda _: False)
    checks, _ = device_checks("base-1", "tty:nfc-zone1:pn532", locked)
    access = checks[1]
    assert access.verdict is Verdict.FAIL
    assert f"sudo usermod -aG {group} pi" in access.fix


def test_a_device_not_named_by_udev_warns(tmp_path: Path) -> None:
    system = a_bridge(tmp_path, "cp210x")
    checks, _ = device_checks("base-1", "tty:USB0:pn532", system)
    assert checks[0].verdict is Verdict.WARN and "99-companion-nfc.rules" in checks[0].fix


# -- verdicts and figures ----------------------------------------------------------------------


def test_limits_warn_outside_the_expected_range_and_fail_past_the_loop() -> None:
    limits = Limits(1.5, 4, 8)
    assert [limits.verdict(v) for v in (0.2, 4, 4.1, 8, 8.1)] == [
        Verdict.OK,
        Verdict.OK,
        Verdict.WARN,
        Verdict.WARN,
        Verdict.FAIL,
    ]
    assert limits.expected == "1.5-4 ms"


def test_series_percentiles_and_rate() -> None:
    series = Series.of([n / 1000 for n in range(1, 101)], failures=5)
    assert (series.p50_ms, series.p99_ms) == (50.0, 99.0)
    assert series.tries == 105 and series.failure_rate == pytest.approx(5 / 105)
    assert series.summary() == "50 ms p50, 99 ms p99, 105 tries"
    assert Series.of([0.0004]).summary() == "0.4 ms p50, 1 try"


# -- the table as a whole ----------------------------------------------------------------------


def test_gpio_pins_are_set_up_and_let_go(factory: Any) -> None:
    pins = PinMap(leds=(("base-1", 17),), buzzer=18, buttons=(("end-turn", 23),))
    check = gpio_check(pins, factory)
    assert check.verdict is Verdict.OK
    assert check.measured == "led base-1 GPIO17, buzzer GPIO18, button end-turn GPIO23"
    LED(17, pin_factory=factory).close()  # let go: free again


def test_a_pin_in_use_fails_with_what_to_check(factory: Any) -> None:
    taken = LED(17, pin_factory=factory)
    try:
        check = gpio_check(PinMap(leds=(("base-1", 17),)), factory)
    finally:
        taken.close()
    assert check.verdict is Verdict.FAIL
    assert "systemctl stop companion" in check.fix and "gpio" in check.fix
    assert gpio_check(PinMap(), factory).verdict is Verdict.SKIP


def test_a_taken_port_fails_and_a_free_one_passes() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        check = port_check("127.0.0.1", port)
        assert check.verdict is Verdict.FAIL and "port = 8081" in check.fix
    assert port_check("127.0.0.1", port).verdict is Verdict.OK
    assert port_check("192.0.2.1", port).verdict is Verdict.FAIL  # not this machine's


def test_the_local_name_resolves_or_warns_with_the_address_way() -> None:
    assert name_check("0.0.0.0", lambda name: ["192.168.1.5"]).verdict is Verdict.OK

    def no_mdns(name: str) -> list[str]:
        raise socket.gaierror(-2, "Name or service not known")

    check = name_check("0.0.0.0", no_mdns)
    assert check.verdict is Verdict.WARN and "avahi-daemon" in check.fix
    hang = threading.Event()
    slow = name_check("0.0.0.0", lambda name: [] if hang.wait(5) else [], timeout=0.1)
    hang.set()
    assert slow.verdict is Verdict.WARN
    assert name_check("127.0.0.1", no_mdns).verdict is Verdict.SKIP


def test_the_store_is_checked_through_sqlite_without_writing(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    assert probe_store(path).state == "new" and not path.exists()
    with EventStore.open(str(path)) as store:
        before = path.stat().st_mtime_ns
        assert probe_store(path).state == "writable"
        assert path.stat().st_mtime_ns == before
        assert store.log.latest_open_game() is None  # the open store is untouched and still works
    assert store_check(path).verdict is Verdict.OK


def test_a_store_locked_by_a_writer_is_busy_not_broken(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    EventStore.open(str(path)).close()
    writer = sqlite3.connect(path)
    writer.execute("BEGIN IMMEDIATE")
    try:
        assert probe_store(path, wait=0.1).state == "busy"
    finally:
        writer.rollback()
        writer.close()


def test_stores_the_table_cannot_use_fail_with_a_fix(tmp_path: Path) -> None:
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as other:
        other.execute("CREATE TABLE notes (text)")
    other.close()
    assert probe_store(foreign).state == "foreign"
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    assert probe_store(tmp_path / "junk.db").state == "foreign"
    assert probe_store(tmp_path).state == "unwritable"
    missing = store_check(tmp_path / "nowhere" / "companion.db")
    assert missing.verdict is Verdict.FAIL and "does not exist" in missing.measured
    assert "[table] db" in missing.fix


def test_the_user_must_be_in_the_groups_the_table_needs(tmp_path: Path) -> None:
    every = {"dialout", "gpio"}.__contains__
    pi = System(user="pi", groups=frozenset({"pi", "dialout"}), group_exists=every)
    missing = groups_check(pi, {"dialout", "gpio"})
    assert (missing.verdict, missing.measured) == (Verdict.FAIL, "pi is not in gpio")
    assert "sudo usermod -aG gpio pi" in missing.fix
    assert groups_check(pi, {"dialout"}).verdict is Verdict.OK
    # a laptop has no gpio group: nothing to join
    laptop = System(user="pi", groups=frozenset({"pi"}), group_exists=lambda name: False)
    assert groups_check(laptop, {"gpio"}).verdict is Verdict.SKIP
    root = groups_check(System(user="root", group_exists=every), {"dialout"})
    assert root.verdict is Verdict.WARN and "sudo -u companion companion doctor" in root.fix
