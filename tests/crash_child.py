"""Child process for the crash test: stores each line it reads, then acknowledges it.

Usage: python crash_child.py DB_PATH GAME_ID   (lines on stdin, "ack N" on stdout)
"""

from __future__ import annotations

import json
import sys

from companion.catalogue.cards import load_catalogue
from companion.storage.store import EventStore
from companion.table.live import LiveGame


def main() -> None:
    store = EventStore.open(sys.argv[1])
    live = LiveGame.resume(store, int(sys.argv[2]), load_catalogue())
    print("ready", flush=True)
    for raw in sys.stdin:
        live.submit(json.loads(raw))
        print(f"ack {live.game.state.version}", flush=True)


if __name__ == "__main__":
    main()
