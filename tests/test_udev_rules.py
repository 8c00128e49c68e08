"""The shipped udev rules are well-formed (this machine's udevadm predates `udevadm verify`, so
the syntax is checked here) and set an FTDI bridge's latency timer to 1 ms."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from companion.hardware.devices import FTDI_RULE
from companion.install.plan import plan_install
from companion.install.steps import EnsureFile, RunAfterChange
from tests.test_install_plan import PACKAGE

RULES = Path(__file__).resolve().parent.parent / "hardware/udev/99-companion-nfc.rules"
# KEY or KEY{attribute}, operator, "value", then a comma or the end of the line (udev(7))
TOKEN = re.compile(r'\s*([A-Z_]+)(\{[^}"]+\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "DRIVER", "DRIVERS"}
MATCH_KEYS |= {"ATTR", "ATTRS", "ENV"}
ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "ATTR", "ENV", "RUN"}


def rules(text: str, *, commented: bool = False) -> list[str]:
    """The rule lines (with ``commented``: the example rules commented out with ``#KEY``)."""
    lines = [line.strip() for line in text.splitlines()]
    if commented:
        return [line[1:] for line in lines if re.match(r"#[A-Z]+[{=!]", line)]
    return [line for line in lines if line and not line.startswith("#")]


def parse(rule: str) -> list[tuple[str, str, str]]:
    """``(key, operator, value)`` per token; fails on anything udev would not read."""
    tokens, at = [], 0
    while at < len(rule):
        token = TOKEN.match(rule, at)
        assert token, f"cannot read {rule[at:]!r} in {rule!r}"
        key, attribute, operator, value = token.groups()
        tokens.append((key + (attribute or ""), operator, value))
        at = token.end()
    return tokens


@pytest.mark.parametrize("commented", [False, True])
def test_every_rule_is_well_formed(commented: bool) -> None:
    found = rules(RULES.read_text(encoding="utf-8"), commented=commented)
    assert found
    for rule in found:
        tokens = parse(rule)
        matches = [key for key, op, _ in tokens if op in ("==", "!=")]
        assigns = [key for key, op, _ in tokens if op not in ("==", "!=")]
        assert matches and assigns, rule
        assert {re.sub(r"\{.*", "", key) for key in matches} <= MATCH_KEYS, rule
        assert {re.sub(r"\{.*", "", key) for key in assigns} <= ASSIGN_KEYS, rule


def test_an_ftdi_bridge_gets_a_1_ms_latency_timer_on_plug_and_on_trigger() -> None:
    text = RULES.read_text(encoding="utf-8")
    ftdi = [rule for rule in rules(text) if "latency_timer" in rule]
    assert ftdi == [FTDI_RULE]  # the line `companion doctor` tells people to add
    tokens = parse(ftdi[0])
    assert ("SUBSYSTEM", "==", "usb-serial") in tokens  # the attribute is the bridge's
    assert ("DRIVER", "==", "ftdi_sio") in tokens
    assert ("ATTR{latency_timer}", "=", "1") in tokens
    # `udevadm trigger` sends "change": a rule only for "add" would wait for a replug
    assert ("ACTION", "!=", "remove") in tokens


def test_install_ships_the_rule_and_triggers_the_bridges_too() -> None:
    plan = plan_install(PACKAGE)
    shipped = [s for s in plan if isinstance(s, EnsureFile) and s.path.name == RULES.name]
    assert len(shipped) == 1 and FTDI_RULE in shipped[0].text
    packaged = resources.files("companion.hardware").joinpath("data", RULES.name).read_text()
    assert FTDI_RULE in packaged
    triggers = [s.argv for s in plan if isinstance(s, RunAfterChange) and "trigger" in s.argv]
    assert triggers == [
        ("udevadm", "trigger", "--subsystem-match=tty", "--subsystem-match=usb-serial")
    ]
