"""A live game: the in-memory tracker in front of the durable event store.

Each line is applied in memory first (pure, may be rejected), then appended to the store
and committed, and only then becomes the acknowledged state: a crash at any moment loses
nothing that was acknowledged.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.errors import InvalidLine, Rejected, StoreError, TapeError
from companion.rules.game import final_vp
from companion.storage.store import EventStore
from companion.tape.limits import check_line
from companion.tape.lines import Header, parse_header
from companion.tracker.game import Game
from companion.tracker.games import GameOutcome
from companion.tracker.state import TrackerState

log = logging.getLogger(__name__)
UNDO_DEPTH = 500
"""Changes a live game can take back one by one: far more than a game night needs, and its
memory stays bounded however long the table runs (a resumed game keeps the same ones)."""


class LiveGame:
    def __init__(self, store: EventStore, game_id: int, game: Game) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game
        #: the game's end (or its undoing) is stored in its log but not yet in its record
        self._end_unrecorded = False

    @classmethod
    def start(cls, store: EventStore, header: dict[str, Any], catalogue: Catalogue) -> LiveGame:
        parsed = _header(header, catalogue)
        game_id = store.log.create_game(header)
        return cls(store, game_id, Game(parsed, catalogue, story=True))

    @classmethod
    def resume(cls, store: EventStore, game_id: int, catalogue: Catalogue) -> LiveGame:
        """Rebuild the state by replaying the stored log (the log is the source of truth).
        Its lines are not checked again: each was checked when it came in (:meth:`submit`),
        and the store reads them back as strict JSON."""
        record = store.log.game(game_id)
        header = _header(record.header, catalogue)
        game = replay_log(header, store.log.lines(game_id), catalogue, game_id=game_id)
        live = cls(store, game_id, game)
        if game.state.table.winners and record.ended is None:
            live._finish()  # the power went between the winning line and recording the end
        return live

    def submit(self, line: dict[str, Any]) -> GameOutcome:
        """Apply, persist, acknowledge. :raises Rejected: nothing changed, nothing stored.
        :raises StoreError: the line was not stored (nothing changed): it may be retried."""
        if self._end_unrecorded:
            self._record_end()  # a failure here is before anything: the line may be retried
        checkpoint = self.game.checkpoint()
        try:
            outcome = self.game.apply(check_line(line))
        except Rejected as exc:
            self._keep_rejected(line, exc)
            raise
        try:
            self.store.log.append(self.game_id, line, list(outcome.events), outcome.changed)
        except BaseException:
            self.game.rollback(checkpoint)
            raise
        self.game.keep_undo(UNDO_DEPTH)
        # The line is stored: from here no failure may make the caller store it again.
        won, had_won = self.game.state.table.winners, checkpoint.state.table.winners
        if bool(won) != bool(had_won):
            try:
                self._record_end()
            except StoreError:
                log.exception("game %d: its end is recorded at the next line", self.game_id)
                self._end_unrecorded = True
        return outcome

    def _record_end(self) -> None:
        """The game's end (or its end taken back by an undo), as the game now stands."""
        if self.finished:
            self._finish()
        else:
            self.store.log.reopen_game(self.game_id)
        self._end_unrecorded = False

    @property
    def finished(self) -> bool:
        return bool(self.game.state.table.winners)

    def abandon(self, by: str | None = None) -> None:
        """Another game starts at the table (``by`` whom): this one, if unfinished, is void."""
        if not self.finished:
            self.store.log.void_game(self.game_id, by)

    def _finish(self) -> None:
        state = self.game.state
        # what the table claims to a league: Smash Up's final VP (after Madness)
        claimed = (
            dict(zip(state.table.players, final_vp(state.table), strict=True))
            if isinstance(state, TrackerState)
            else None
        )
        self.store.log.finish_game(self.game_id, list(state.table.winners), claimed)

    def _keep_rejected(self, line: dict[str, Any], error: Rejected) -> None:
        """Keep a refused line among the reads (a line that broke the limits only by its
        error: it may hold what no store can write)."""
        if isinstance(error, InvalidLine):
            detail = {"game": self.game_id, "error": str(error)}
            self.store.log.append_read("-", "-", "rejected", 0.0, detail)
            return
        zone, uid, at = line.get("zone"), line.get("tap"), line.get("at")
        self.store.log.append_read(
            zone if isinstance(zone, str) else "-",
            uid if isinstance(uid, str) else "-",
            "rejected",
            float(at) if isinstance(at, int | float) else 0.0,
            {"game": self.game_id, "line": line, "error": str(error)},
        )


def replay_log(
    header: Header, lines: Iterable[dict[str, Any]], catalogue: Catalogue, *, game_id: int
) -> Game:
    """The game a store's log rebuilds, as the live table held it: with its story, and undo
    :data:`UNDO_DEPTH` changes deep after each line (the table could never undo further, so
    its log never undoes further). The lines are not checked again: each was checked when it
    came in (:meth:`LiveGame.submit`), and the store reads them back as strict JSON. ``make
    bench``'s replay figure is this function's.

    :raises StoreError: a line no longer applies.
    """
    game = Game(header, catalogue, story=True)
    for seq, line in enumerate(lines, start=1):
        try:
            game.apply(line)  # type: ignore[arg-type]  # checked when it came in (no cast: a call)
        except Rejected as exc:
            raise StoreError(f"game {game_id}, log entry {seq} no longer applies: {exc}") from None
        game.keep_undo(UNDO_DEPTH)
    return game


def _header(raw: dict[str, Any], catalogue: Catalogue) -> Header:
    try:
        return parse_header(raw, catalogue)
    except TapeError as exc:
        raise StoreError(f"the game header is not valid: {exc}") from None
