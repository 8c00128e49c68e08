"""Child process for the crash tests: stores each line it reads, then acknowledges it.

Usage: python crash_child.py DB_PATH GAME_ID   (lines on stdin, "ack N" on stdout)

:func:`start` makes the same child from a fork server that imported the companion once, and
talks to it over pipes: a Python start-up and those imports were 0.3 s of each of the crash
test's 25 trials. It is still a process of its own, killed by SIGKILL at a random moment.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from companion.catalogue.cards import load_catalogue
from companion.storage.store import EventStore
from companion.table.live import LiveGame

#: children forked from a server that has imported this module (and so the companion) already
FORKS = multiprocessing.get_context("forkserver")
FORKS.set_forkserver_preload([__name__])


def store_and_ack(db: str, game_id: int, lines: Iterable[str], say: Callable[[str], None]) -> None:
    """Say "ready", then store each line and say "ack N" (the game's version) once it is."""
    store = EventStore.open(db)
    live = LiveGame.resume(store, game_id, load_catalogue())
    say("ready")
    for raw in lines:
        live.submit(json.loads(raw))
        say(f"ack {live.game.state.version}")


def _received(lines: Connection) -> Iterator[str]:
    while True:
        try:
            yield lines.recv_bytes().decode()
        except EOFError:
            return


def _over_pipes(db: str, game_id: int, lines: Connection, acks: Connection) -> None:
    store_and_ack(db, game_id, _received(lines), lambda said: acks.send_bytes(said.encode()))


def start(db: str, game_id: int) -> tuple[BaseProcess, Connection, Connection]:
    """A child storing into ``db``: the process, where to send lines, where its words come
    (EOFError once it is gone). The parent keeps no copy of the child's ends, so a killed
    child is seen at once on both pipes."""
    lines_in, lines_out = FORKS.Pipe(duplex=False)
    acks_in, acks_out = FORKS.Pipe(duplex=False)
    child = FORKS.Process(target=_over_pipes, args=(db, game_id, lines_in, acks_out))
    child.start()
    lines_in.close()
    acks_out.close()
    return child, lines_out, acks_in


def main() -> None:
    store_and_ack(sys.argv[1], int(sys.argv[2]), sys.stdin, lambda said: print(said, flush=True))


if __name__ == "__main__":
    main()
