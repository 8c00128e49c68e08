"""``companion demo --game munchkin-cthulhu`` plays itself: a whole game to a winner, fighting,
helping, running away, selling and playing cards against others, answering its own prompts
(issue 25, part 5)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from companion.catalogue.cards import Catalogue
from companion.cli.demo import cthulhu_header
from companion.storage.store import EventStore
from companion.table.demo import DemoPlayer
from companion.table.live import LiveGame
from companion.table.service import TableService
from tests.test_service import Clock


@pytest.fixture
def cthulhu_table(catalogue: Catalogue) -> Iterator[TableService]:
    store = EventStore.memory()
    header = cthulhu_header(catalogue, store)
    service = TableService(
        LiveGame.start(store, header, catalogue),
        {zone: "mock:" for zone in header["zones"]},
        clock=Clock(),
        worker_thread=False,
    )
    service.start()
    yield service
    service.stop()
    store.close()


def test_the_demo_plays_a_whole_game_to_a_winner(cthulhu_table: TableService) -> None:
    """Through the table's readers (the virtual table's mock readers), at its human pace in
    the table's time: each of its waits moves the table's clock on and steps the table."""
    clock = cthulhu_table.clock
    assert isinstance(clock, Clock)

    def wait(seconds: float) -> None:
        clock.now += seconds
        cthulhu_table.step()

    demo = DemoPlayer(cthulhu_table, rng=random.Random(3), sleep=wait, clock=clock)
    demo.run()
    document = cthulhu_table.document()
    assert document is not None and document["winners"]
    assert demo.finished and demo.steps > 50
    winner = document["winners"][0]
    assert next(p for p in document["players"] if p["name"] == winner)["level"] == 10


@pytest.mark.parametrize("seed", range(4))
def test_the_demo_fights_helps_runs_sells_and_curses(
    cthulhu_table: TableService, seed: int
) -> None:
    demo = DemoPlayer(cthulhu_table, rng=random.Random(seed), direct=True)
    moves: Counter[str] = Counter()
    cursed = 0
    for line in demo.lines():
        if line.get("tap") and line.get("zone", "").startswith("seat-"):
            card = cthulhu_table.playing().game.state.header.tags[line["tap"]].card
            current = cthulhu_table.document()["current_player"]  # type: ignore[index]
            seat = cthulhu_table.document()["players"].index(  # type: ignore[index]
                next(p for p in cthulhu_table.document()["players"] if p["name"] == current)  # type: ignore[index]
            )
            cursed += "curse" in card and line["zone"] != f"seat-{seat + 1}"
        demo.play(line)
        moves[str(line.get("input") or "tap")] += 1
    assert cthulhu_table.document()["winners"]  # type: ignore[index]
    assert moves["resolve"] and moves["help"] and moves["end-turn"] and moves["run-away"]
    assert cursed + moves["sell"] > 0
