"""The whole simulated table: five nfcpy zones on the simulator, the tap filter, the tracker
and a real SQLite file, started as ``companion serve --simulate`` starts it: the real reader
threads and the real worker thread, so what the table does is waited for."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli.table import open_table
from companion.hardware.readers.ntag_sim import NtagCard, Simulator
from companion.hardware.readers.taps import CROSSTALK_WINDOW
from companion.table.config import TableConfig
from companion.table.service import TableService
from tests.tapes import start_demo_players_game
from tests.waiting import eventually

TAKEN = 4.0  #: seconds a reader thread and the worker may take to store a tap


def cards(table: TableService, what: str) -> list[str]:
    """The cards of ``what`` (minions, monsters) on the first base."""
    document = table.document()
    assert document is not None
    return [card["card"] for card in document["bases"][0][what]]


def last_read(table: TableService, zone: str) -> tuple[str, str] | None:
    """The last raw read stored for ``zone``: (uid, kind)."""
    row = table.store.db.execute(
        "SELECT uid, kind FROM reads WHERE zone = ? ORDER BY id DESC LIMIT 1", (zone,)
    ).fetchone()
    return None if row is None else (row[0], row[1])


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    service = open_table(TableConfig.simulated(), str(tmp_path / "table.db"))
    start_demo_players_game(service)
    service.start()
    yield service
    service.stop()
    service.store.close()


def tag_of(service: TableService, card_id: str, owner: str | None = None) -> str:
    for uid, binding in service.playing().game.state.header.tags.items():
        if binding.card == card_id:
            return uid
    # not enrolled: a fresh tag whose NDEF record names the card
    return f"04F0{abs(hash(card_id)) % 16**10:010X}"


def tap(simulator: Simulator, zone: str, uid: str, card_id: str) -> None:
    antenna = simulator.zone(zone)
    antenna.place(NtagCard.for_card(uid, card_id))


def test_cards_tapped_on_simulated_readers_play_the_game(table: TableService) -> None:
    simulator = table.context.simulator
    tap(simulator, "base-1", "04A0000000B001", "munchkin/treehouse")
    eventually(
        lambda: [b["card"] for b in table.document()["bases"]] == ["munchkin/treehouse"],
        timeout=TAKEN,
        what="the base played",
    )
    simulator.zone("base-1").lift()
    for n in range(2):
        tap(simulator, "base-1", f"04A0000000C00{n}", "munchkin/hippogriff")
        eventually(
            lambda n=n: len(cards(table, "monsters")) == n + 1,  # type: ignore[misc]
            timeout=TAKEN,
            what=f"monster {n + 1} played",
        )
        simulator.zone("base-1").lift()
    tap(simulator, "base-1", "04A0000000D001", "munchkin/sword-lord")
    eventually(
        lambda: table.document()["bases"][0]["power"] == {"Ann": 5},
        timeout=TAKEN,
        what="the minion's power counted",
    )
    base = table.document()["bases"][0]
    assert (base["printed_breakpoint"], base["breakpoint"]) == (15, 21)
    simulator.zone("base-1").lift()
    # Later than the tap filter's crosstalk window on the table's real clock (the reader
    # threads stamp their reads with it): a read next door at once is the same tap.
    time.sleep(CROSSTALK_WINDOW)
    tap(simulator, "discard", "04A0000000D001", "munchkin/sword-lord")
    eventually(lambda: cards(table, "minions") == [], timeout=TAKEN, what="the minion discarded")
    reads = table.live.store.db.execute("SELECT count(*) FROM reads").fetchone()[0]
    assert reads >= 8  # every raw read is stored, arrivals and departures
    assert all(h.state == "ok" for h in table.health()), table.health()


def test_a_card_flapping_at_20_hz_is_one_tap(table: TableService) -> None:
    simulator = table.context.simulator
    tap(simulator, "base-2", "04A0000000B002", "munchkin/the-mines")
    eventually(lambda: bool(table.document()["bases"]), timeout=TAKEN, what="the base played")
    simulator.zone("base-2").lift()
    card = NtagCard.for_card("04A0000000D002", "munchkin/topper-chopper")
    started = time.monotonic()
    while time.monotonic() - started < 2.0:  # the stimulus: 20 Hz for the reader threads' polls
        simulator.zone("base-2").place(card)
        time.sleep(0.025)
        simulator.zone("base-2").lift()
        time.sleep(0.025)
    simulator.zone("base-2").place(card)
    # the card rests: once its arrival is stored and handled nothing more can come of it
    eventually(
        lambda: (
            last_read(table, "base-2") == ("04A0000000D002", "arrived")
            and table.store_snapshot().waiting == 0
            and len(cards(table, "minions")) >= 1
        ),
        timeout=TAKEN,
        what="the resting card's arrival stored and played",
    )
    assert cards(table, "minions") == ["munchkin/topper-chopper"]
    assert table.document()["prompts"] == []


def test_an_unknown_tag_gives_a_prompt_not_a_crash(table: TableService) -> None:
    simulator = table.context.simulator
    tap(simulator, "base-1", "04A0000000B003", "munchkin/treehouse")
    eventually(lambda: bool(table.document()["bases"]), timeout=TAKEN, what="the base played")
    simulator.zone("base-1").lift()
    simulator.zone("base-1").place(NtagCard.garbled("04DEAD00BEEF01"))
    eventually(
        lambda: [p["kind"] for p in table.document()["prompts"]] == ["unknown-tag"],
        timeout=TAKEN,
        what="the unknown tag's prompt",
    )
    assert table.worker.alive
    with pytest.raises(RuntimeError, match="own thread"):  # one worker at a time
        table.step()
