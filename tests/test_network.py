"""One name for the table: the mDNS announcement, the printed addresses, the QR codes and
``companion install`` all say the host's own ``<name>.local`` (no server is put on the LAN
here: the announcement is recorded, not sent)."""

from __future__ import annotations

import socket
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import segno
from click.testing import CliRunner

from companion.cli import addresses, demo
from companion.cli.install import _check_config
from companion.cli.main import main
from companion.table import network
from companion.table.network import TableAddress, table_address
from companion.web import mdns

TABLE = '[table]\nbind = "0.0.0.0"\nport = {port}\n[zones.base-1]\nreader = "sim:"\n'
LAN = TableAddress(bind="0.0.0.0", port=8080, name="kitchen-table.local", address="192.0.2.7")


@pytest.fixture
def host(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(socket, "gethostname", lambda: "Kitchen-Table.lan")
    return "kitchen-table.local"


@pytest.fixture
def qr(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each printed QR code encodes."""
    encoded: list[str] = []

    class Code:
        def __init__(self, text: str) -> None:
            encoded.append(text)

        def terminal(self, compact: bool) -> None:
            pass

    monkeypatch.setattr(segno, "make", Code)  # what addresses imports to draw a code
    return encoded


def test_the_name_is_the_host_name_in_the_local_domain(host: str) -> None:
    assert network.local_name() == host
    assert table_address("0.0.0.0", 8080).name == host
    assert table_address("127.0.0.1", 8080).name == host


def test_on_loopback_the_address_is_this_machine_only() -> None:
    local = table_address("127.0.0.1", 8123)
    assert not local.on_lan and local.address is None
    assert local.url == "http://127.0.0.1:8123/" and local.address_url is None


def test_on_the_lan_by_name_and_by_address() -> None:
    assert LAN.url == "http://kitchen-table.local:8080/"
    assert LAN.address_url == "http://192.0.2.7:8080/"
    assert LAN.served_names() >= {"kitchen-table.local", "192.0.2.7", "127.0.0.1", "localhost"}


def test_a_named_bind_address_is_that_address() -> None:
    assert network.lan_address("127.0.0.1") is None
    assert network.lan_address("192.0.2.7") == "192.0.2.7"


def test_the_announcement_carries_the_same_name_and_address(
    host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    registered: list[Any] = []

    class Recording:
        def register_service(self, info: Any, allow_name_change: bool) -> None:
            registered.append(info)

    monkeypatch.setattr(mdns, "Zeroconf", Recording)
    address = TableAddress("0.0.0.0", 8080, network.local_name(), "192.0.2.7")
    assert mdns.announce(address) is not None
    (info,) = registered
    assert info.server == f"{host}." and info.port == 8080
    assert info.parsed_addresses() == ["192.0.2.7"]


def test_serve_and_demo_lan_print_the_name_and_a_qr_of_the_address(
    capsys: pytest.CaptureFixture[str], qr: list[str]
) -> None:
    addresses.say_where(LAN)
    demo._say_how_to_open(SimpleNamespace(address=LAN), "tok")  # type: ignore[arg-type]
    printed = capsys.readouterr().out
    assert "open http://kitchen-table.local:8080/ on a tablet" in printed
    assert "(or http://192.0.2.7:8080/ if the tablet does not find .local names)" in printed
    # many tablets do not resolve .local names: the code carries the address, the name beside
    assert qr == ["http://192.0.2.7:8080/?token=tok"]
    assert "(the table is also http://kitchen-table.local:8080/?token=tok)" in printed


def test_demo_without_lan_says_a_tablet_cannot_reach_it(
    capsys: pytest.CaptureFixture[str], qr: list[str]
) -> None:
    local = TableAddress("127.0.0.1", 8080, "kitchen-table.local", None)
    demo._say_how_to_open(SimpleNamespace(address=local), "tok")  # type: ignore[arg-type]
    printed = capsys.readouterr().out
    assert "a tablet cannot reach 127.0.0.1" in printed and "companion demo --lan" in printed
    assert qr == []  # a code a tablet would open on itself is not printed


def test_companion_token_shows_the_address_and_the_name_the_announcement_uses(
    host: str, qr: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(network, "lan_address", lambda bind: "192.0.2.7")
    db = tmp_path / "t.db"
    db.touch()
    config = tmp_path / "table.toml"
    config.write_text(TABLE.format(port=8099))
    result = CliRunner().invoke(main, ["token", "--db", str(db), "--table", str(config)])
    assert result.exit_code == 0, result.output
    token = result.output.splitlines()[0]
    assert qr == [f"http://192.0.2.7:8099/?token={token}"]
    assert f"http://{host}:8099/?token={token}" in result.output


def test_install_prints_the_same_name(host: str, tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(TABLE.format(port=8080))
    runner = CliRunner()
    with runner.isolation() as (out, _, _):
        _check_config(config)
        assert f"http://{host}:8080/" in out.getvalue().decode()


def test_an_announcement_that_fails_closes_its_sockets(
    host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[bool] = []

    class Refusing:
        def register_service(self, info: Any, allow_name_change: bool) -> None:
            raise OSError("no multicast here")

        def close(self) -> None:
            closed.append(True)

    monkeypatch.setattr(mdns, "Zeroconf", Refusing)
    address = TableAddress("0.0.0.0", 8080, network.local_name(), "192.0.2.7")
    assert mdns.announce(address) is None  # the table serves anyway
    assert closed == [True]
