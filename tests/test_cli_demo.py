"""``companion demo`` as people run it (``make demo``): a process serving the live table."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.storage.store import EventStore
from tests.processes import piped
from tests.waiting import eventually

COMPANION = Path(sys.executable).parent / "companion"


@contextmanager
def demo(*args: str) -> Iterator[subprocess.Popen[str]]:
    """``companion demo ARGS`` as people run it, its output piped; killed if still running
    when the test is done with it, pass or fail."""
    with piped([str(COMPANION), "demo", *args]) as process:
        yield process


def test_demo_serves_a_self_playing_simulated_table_and_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    with demo("--port", "0", "--db", str(db)) as process:
        assert process.stdout is not None
        address = None
        for line in process.stdout:
            found = re.search(
                r"takes control with (http://127\.0\.0\.1:\d+/)\?token=([\w-]+)", line
            )
            if found:
                address, token = found.groups()
                break
        assert address is not None, "the demo printed no address"
        assert token == (tmp_path / "demo.db.token").read_text().strip()
        hint = process.stdout.readline()
        assert "a tablet cannot reach 127.0.0.1" in hint and "companion demo --lan" in hint
        with urllib.request.urlopen(address + "api/state", timeout=10) as answer:
            state = json.load(answer)
        assert state["simulated"] is True and state["demo"] is True
        assert state["state"]["players"][0]["name"] == "Ann"
        first = state["version"]

        def version() -> int:
            with urllib.request.urlopen(address + "api/state", timeout=10) as answer:
                return int(json.load(answer)["version"])

        eventually(  # the demo game plays itself at human pace
            lambda: version() > first,
            timeout=30,
            what="the demo process playing a line",
            every=0.2,
        )
        with urllib.request.urlopen(address, timeout=10) as answer:
            page = answer.read().decode()
        assert 'src="/static/js/table.js"' in page
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0


def test_a_munchkin_cthulhu_demo_table(tmp_path: Path) -> None:
    with demo(
        "--game", "munchkin-cthulhu", "--port", "0", "--db", str(tmp_path / "mc.db")
    ) as process:
        assert process.stdout is not None
        address = None
        for line in process.stdout:
            found = re.search(r"dashboard on (http://127\.0\.0\.1:\d+/) ", line)
            if found:
                address = found.group(1)
                break
        assert address is not None, "the demo printed no address"
        with urllib.request.urlopen(address + "api/state", timeout=10) as answer:
            state = json.load(answer)
        # it plays itself, as the Smash Up demo does (issue 25)
        assert state["state"]["game"] == "munchkin-cthulhu" and state["demo"] is True
        assert state["zones"] == ["seat-1", "seat-2", "seat-3", "combat", "discard"]
        token = (tmp_path / "mc.db.token").read_text().strip()
        asked = urllib.request.Request(
            address + "api/sim/cards", headers={"X-Companion-Token": token}
        )
        with urllib.request.urlopen(asked, timeout=10) as answer:
            assert (
                len(json.load(answer)["cards"]) == 167 + 1
            )  # every copy (Cowl's count unknown: 1), to a token holder: a hand is private
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0


def _demo_until_ready(db: Path, *args: str) -> tuple[int, str]:
    """Run ``companion demo`` until it says how to stop it, then SIGTERM: its exit status and
    what it printed."""
    printed = []
    with demo("--still", "--db", str(db), *args) as process:
        assert process.stdout is not None
        for line in process.stdout:
            printed.append(line)
            if "Ctrl-C stops it" in line:
                assert Path(f"{db}.serving").exists()  # what `companion token` reads
                address = re.search(r"dashboard on (http://\S+/) ", "".join(printed))
                assert address is not None
                # an answer means it serves, so its signal handlers are in place
                urllib.request.urlopen(address.group(1) + "api/state", timeout=10).close()
                process.send_signal(signal.SIGTERM)
        return process.wait(15), "".join(printed)


@pytest.mark.slow
def test_the_demo_keeps_its_own_game_and_adds_none_on_a_taken_port(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    status, first = _demo_until_ready(db, "--port", "0")
    assert status == 0 and "demo game 1 " in first
    status, again = _demo_until_ready(db, "--port", "0")
    assert status == 0 and "demo game 1 " in again  # the same game, not a new one
    assert not Path(f"{db}.serving").exists()  # the note goes with the table
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, refused = _demo_until_ready(db, "--port", str(port))
    assert status == 1 and "--port 0 picks a free one" in refused
    with EventStore.open(db) as store:
        assert [record.id for record in store.log.games()] == [1]
    status, other = _demo_until_ready(db, "--port", "0", "--zones", "2")
    assert "demo game 2 " in other  # another kind of demo game: the first one is void
    with EventStore.open(db) as store:
        assert store.log.game(1).void and store.log.game(2).ended is None
