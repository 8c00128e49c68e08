"""A game in memory: the tracker state plus undo, and replay of event lines."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from companion.catalogue.cards import Catalogue
from companion.catalogue.printings import printed
from companion.cthulhu import tracker as cthulhu
from companion.errors import TapeError
from companion.tape.documents import Event, Line
from companion.tape.limits import check_line
from companion.tape.lines import Header, TapeLine
from companion.tracker.common import event
from companion.tracker.corrections import (
    EMPTY,
    TAP_MOVED,
    Journal,
    answer_by_moving,
    move_tap,
    moved_by_answer,
    record,
)
from companion.tracker.state import Outcome, Rejected, TrackerState, evolve, new_state
from companion.tracker.step import step

UNDO = {"input": "undo"}


@dataclass(frozen=True, slots=True)
class Past:
    """The game before a change: its state, and the journal of lines that led there."""

    state: Any
    journal: Journal


@dataclass(frozen=True, slots=True)
class Checkpoint:
    state: TrackerState
    depth: int
    top: Past | None
    journal: Journal = EMPTY


class Game:
    """Applies event lines in order. Undo pops the state from before the last line that
    changed the game (tag bindings made since are kept: they are not game events). The recent
    lines are kept too, so that a tap among them can be moved to where its card rests
    (:mod:`.corrections`)."""

    def __init__(self, header: Header, catalogue: Catalogue) -> None:
        #: the cards as this table's printings say (the header chose them)
        self.catalogue = printed(catalogue, header.printings)
        self.cthulhu = header.game == "munchkin-cthulhu"
        if self.cthulhu:
            self.state: Any = cthulhu.new_state(header)
            self._step: Any = cthulhu.step
        else:
            self.state = new_state(header)
            self._step = step
        self._before: list[Past] = []
        self._forgotten = 0  # changes too old to undo (see keep_undo)
        self._journal = EMPTY  # the recent lines, to correct a tap among them

    @property
    def can_undo(self) -> bool:
        return bool(self._before)

    def keep_undo(self, depth: int) -> None:
        """Forget the states before the last ``depth`` changes: they can no longer be undone.
        A table running for days keeps its memory bounded; replaying a tape keeps them all."""
        extra = len(self._before) - depth
        if extra > 0:
            del self._before[:extra]
            self._forgotten += extra

    def checkpoint(self) -> Checkpoint:
        """Where the game stands now, to :meth:`rollback` to if storing the next line fails."""
        top = self._before[-1] if self._before else None
        return Checkpoint(self.state, len(self._before), top, self._journal)

    def rollback(self, checkpoint: Checkpoint) -> None:
        del self._before[checkpoint.depth :]
        if len(self._before) < checkpoint.depth and checkpoint.top is not None:
            self._before.append(checkpoint.top)  # an undo popped it
        self.state = checkpoint.state
        self._journal = checkpoint.journal

    def apply(self, line: Line) -> Outcome:
        """:raises Rejected: the line cannot be applied; nothing changed."""
        if line.get("input") == "undo":
            if not self._before:
                if self._forgotten:
                    raise Rejected(
                        "older changes are no longer kept to undo: correct the table with "
                        "taps and inputs instead"
                    )
                raise Rejected("there is nothing to undo")
            previous = self._before.pop()
            restored = evolve(
                previous.state, header=self.state.header, version=self.state.version + 1
            )
            events = (event("undone"), *_vp_changes(self.state, restored, line))
            self.state, self._journal = restored, previous.journal
            return Outcome(restored, events, True)
        if line.get("input") == TAP_MOVED or moved_by_answer(self.state, line) is not None:
            correct = move_tap if line.get("input") == TAP_MOVED else answer_by_moving
            corrected = correct(self._journal, self.state, line, self._step, self.catalogue)
            new_state, events, changed = corrected.state, corrected.events, corrected.changed
            journal = corrected.journal
        else:
            outcome = self._step(self.state, line, self.catalogue)
            new_state, events, changed = outcome.state, outcome.events, outcome.changed
            journal = record(self._journal, self.state, line)
        if changed:
            self._before.append(Past(self.state, self._journal))
        events = events + _vp_changes(self.state, new_state, line)
        version = self.state.version + 1
        if isinstance(new_state, TrackerState):
            self.state = new_state.at_version(version)
        else:
            self.state = evolve(new_state, version=version)
        self._journal = journal
        return Outcome(self.state, events, changed)


def _vp_changes(before: Any, after: Any, line: Line) -> tuple[Event, ...]:
    """VP gained outside placings (on-play and leave-play abilities), said as events."""
    if line.get("input") == "award" or not isinstance(after, TrackerState):
        return ()
    if after.table.vp == before.table.vp:  # most lines: one tuple compare, no per-seat walk
        return ()
    return tuple(
        event("vp", player=player, delta=new - old)
        for player, old, new in zip(
            after.table.players, before.table.vp, after.table.vp, strict=True
        )
        if new != old
    )


def replay_lines(
    header: Header, lines: Iterable[TapeLine], catalogue: Catalogue, *, checked: bool = False
) -> Game:
    """Replay numbered lines; the first bad one stops it with a :class:`TapeError`.

    Each line is first held to the contract's types and our limits (:func:`check_line`), as
    everywhere bytes come in, unless ``checked``: lines that were checked where they came in
    (a store's log, the simulator's own lines) are not checked again on every replay.
    """
    game = Game(header, catalogue)
    for line in lines:
        try:
            game.apply(cast(Line, line.event) if checked else check_line(line.event))
        except Rejected as exc:
            raise TapeError(str(exc), line.number) from None
    return game
