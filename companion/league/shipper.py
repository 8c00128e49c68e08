"""The table's shipper: a background thread that sends the outbox to the league server.

Play never waits for it: games enter the outbox when they end (in the table's own SQLite file)
and the shipper sends them when it can. An unreachable or busy server means waiting longer
each time (doubling, with jitter, up to ``most`` seconds) and trying again; a table offline all
night sends everything when it is back; after a restart the outbox is still there. A refusal
(a conflict, a game the league cannot take) is kept with the league's message and not sent
again; nor is a push larger than the league takes (checked before sending: a server refuses
such a body before reading it, and a client still sending sees only a broken connection): it is
parked as ``too-large`` and the games behind it go on. The league's player names are fetched
now and then and cached for offline nights.

Standard library only: a table needs no package of the league server.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable

from companion.league.client import Answer, player_names, push_game
from companion.storage.outbox import OutboxEntry
from companion.storage.store import EventStore

log = logging.getLogger(__name__)


class Shipper:
    def __init__(
        self,
        store: EventStore,
        url: str,
        key: str,
        *,
        settle: float = 30.0,
        first: float = 5.0,
        most: float = 600.0,
        poll: float = 2.0,
        roster_every: float = 900.0,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        """``settle``: seconds a finished game waits before it is sent (an undo at the end of a
        game takes it back meanwhile); ``first``/``most``: the first and the longest wait
        after a failure; ``poll``: how often the outbox is looked at."""
        self.store, self.url, self.key = store, url, key
        self.settle, self.first, self.most, self.poll = settle, first, most, poll
        self.roster_every = roster_every
        self.clock = clock
        self.rng = rng or random.Random()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._roster_due = 0.0
        self._unreachable = 0  #: connection failures in a row
        self._resume_at = 0.0  #: no attempt before this while the server is unreachable

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="league-shipper", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.ship_due()
                if self.clock() >= self._roster_due:
                    self.refresh_roster()
            except Exception:  # the shipper must outlive anything; the outbox keeps the games
                log.exception("league shipper: an unexpected error; trying again later")
            self._stop.wait(self.poll)

    def ship_due(self) -> int:
        """Send every entry that is due, oldest first; returns how many the league took. An
        unreachable server ends the round (the next entries would fail the same way)."""
        now = self.clock()
        if now < self._resume_at:
            return 0
        taken = 0
        for entry in self.store.outbox.due(now, settled_before=now - self.settle):
            if self._stop.is_set():
                break
            try:
                answer = push_game(self.url, self.key, entry.payload)
            except OSError as exc:
                # the whole table waits, not just this game: one knock per wait, not one per game
                self._unreachable += 1
                self._resume_at = self._later(
                    entry, f"the league server cannot be reached ({exc})", self._unreachable - 1
                )
                break
            self._unreachable = 0
            taken += self._record(entry, answer)
        return taken

    def _record(self, entry: OutboxEntry, answer: Answer) -> int:
        if answer.ok:
            body = answer.body if isinstance(answer.body, dict) else {}
            self.store.outbox.sent(entry.id, body)
            log.info("league: game %s shipped (%s)", entry.uid, body.get("status"))
            return 1
        if answer.status == 413:
            self.store.outbox.too_large(entry.id, answer.error)
            log.warning("league: game %s is too large to send: %s", entry.uid, answer.error)
            return 0
        if answer.retry or answer.status == 401:
            # busy, restarting, or this table's key is wrong: nothing wrong with the game
            self._later(
                entry, f"the league answered {answer.status}: {answer.error}", entry.attempts
            )
            return 0
        self.store.outbox.refused(entry.id, f"{answer.status}: {answer.error}")
        log.warning("league: game %s refused: %s", entry.uid, answer.error)
        return 0

    def _later(self, entry: OutboxEntry, error: str, failures: int) -> float:
        """Try ``entry`` again after a wait that doubles with ``failures``; returns when."""
        wait = min(self.most, self.first * 2.0 ** min(failures, 30))
        when = self.clock() + wait * self.rng.uniform(0.5, 1.0)
        self.store.outbox.retry(entry.id, error, when)
        return when

    def refresh_roster(self) -> bool:
        """Fetch the league's player names into the cache; whether it worked."""
        self._roster_due = self.clock() + self.roster_every
        try:
            names = player_names(self.url)
        except OSError as exc:
            log.info("league: player names not refreshed (%s); the cached ones stay", exc)
            return False
        self.store.outbox.cache_league_players(names)
        return True
