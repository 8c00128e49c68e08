"""A game in memory: the tracker state plus undo, and replay of event lines."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import cast

from companion.catalogue.cards import Catalogue
from companion.catalogue.printings import printed
from companion.cthulhu.state import MCOutcome
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
from companion.tracker.games import GameOutcome, GameState, game_outcome, start, step_game
from companion.tracker.state import Outcome, Rejected, TrackerState, evolve

UNDO = {"input": "undo"}


#: lines kept for the table's story while nothing can be undone (before the first change)
LOOSE_KEPT = 64


@dataclass(frozen=True, slots=True)
class Told:
    """One applied line as the table tells it: the version it made, the line, its events."""

    version: int
    line: Line
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Past:
    """The game before a change: its state, the journal of lines that led there, and what
    an undo takes back with it (the change's line first, then the lines after it that
    changed nothing)."""

    state: GameState
    journal: Journal
    told: tuple[Told, ...] = ()


@dataclass(frozen=True, slots=True)
class Checkpoint:
    state: GameState
    depth: int
    top: Past | None
    journal: Journal = EMPTY
    loose: tuple[Told, ...] = ()
    undone: Past | None = None


class Game:
    """Applies event lines in order. Undo pops the state from before the last line that
    changed the game (tag bindings made since are kept: they are not game events). The recent
    lines are kept too, so that a tap among them can be moved to where its card rests
    (:mod:`.corrections`)."""

    def __init__(self, header: Header, catalogue: Catalogue, *, story: bool = False) -> None:
        """``story``: keep each line's events with its undo group, for a live table's story of
        recent events (:meth:`told`, :attr:`undoable`, :attr:`undone`). A replay does not keep
        them: every line's events held for the whole game cost a tape's replay a third of its
        speed in garbage collection."""
        self._story = story
        #: the cards as this table's printings say (the header chose them)
        self.catalogue = printed(catalogue, header.printings)
        self.cthulhu = header.game == "munchkin-cthulhu"
        self.state: GameState = start(header)
        self._before: list[Past] = []
        self._forgotten = 0  # changes too old to undo (see keep_undo)
        self._journal: Journal = EMPTY  # the recent lines, to correct a tap among them
        self._loose: tuple[Told, ...] = ()  # lines applied while nothing could be undone
        self._undone: Past | None = None  # what the last undo took back, until a change

    @property
    def smashup(self) -> TrackerState:
        """The state, for code that knows it plays Smash Up (the simulator, the league).

        :raises TypeError: this game is Munchkin Cthulhu.
        """
        state = self.state
        if not isinstance(state, TrackerState):
            raise TypeError(f"this game is {state.header.game}, not Smash Up")
        return state

    @property
    def can_undo(self) -> bool:
        return bool(self._before)

    @property
    def undoable(self) -> Told | None:
        """The line an undo would take back now (the change it made), if any."""
        return self._before[-1].told[0] if self._before and self._before[-1].told else None

    @property
    def undone(self) -> Told | None:
        """Right after an undo (nothing changed since): the line it took back, to redo."""
        return self._undone.told[0] if self._undone is not None and self._undone.told else None

    def told(self) -> Iterator[Told]:
        """The lines still in force, newest first, as undo groups them: what an undo took
        back is not among them (the table's story of recent events)."""
        for past in reversed(self._before):
            yield from reversed(past.told)
        yield from reversed(self._loose)

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
        return Checkpoint(
            self.state, len(self._before), top, self._journal, self._loose, self._undone
        )

    def rollback(self, checkpoint: Checkpoint) -> None:
        # the top is put back as it was: an undo popped it, or a quiet line was told with it
        del self._before[max(checkpoint.depth - 1, 0) :]
        if checkpoint.top is not None:
            self._before.append(checkpoint.top)
        self.state = checkpoint.state
        self._journal = checkpoint.journal
        self._loose, self._undone = checkpoint.loose, checkpoint.undone

    def apply(self, line: Line) -> GameOutcome:
        """:raises Rejected: the line cannot be applied; nothing changed."""
        kind = line.get("input")
        if kind == "undo":
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
            self._undone = previous
            return game_outcome(restored, events, True)
        if kind == TAP_MOVED or (
            kind == "answer" and moved_by_answer(self.state, line) is not None
        ):
            correct = move_tap if kind == TAP_MOVED else answer_by_moving
            corrected = correct(self._journal, self.state, line, step_game, self.catalogue)
            new_state, events, changed = corrected.state, corrected.events, corrected.changed
            journal = corrected.journal
        else:
            stepped = step_game(self.state, line, self.catalogue)
            new_state, events, changed = stepped.state, stepped.events, stepped.changed
            journal = record(self._journal, self.state, line)
        events = events + _vp_changes(self.state, new_state, line)
        version = self.state.version + 1
        told = Told(version, line, events) if self._story else None
        if changed:
            self._before.append(Past(self.state, self._journal, () if told is None else (told,)))
            self._undone = None
        elif told is not None:
            self._keep_quiet(told)
        self._journal = journal
        if isinstance(new_state, TrackerState):
            self.state = evolve(new_state, version=version)  # at_version, without its call
            return Outcome(self.state, events, changed)
        self.state = moved = replace(new_state, version=version)
        return MCOutcome(moved, events, changed)

    def _keep_quiet(self, told: Told) -> None:
        """A line that changed nothing goes with the change before it (an undo takes both
        back); before any change it is kept apart, the last :data:`LOOSE_KEPT` of them."""
        if self._before:
            top = self._before[-1]
            self._before[-1] = Past(top.state, top.journal, (*top.told, told))
        else:
            self._loose = (*self._loose[1 - LOOSE_KEPT :], told)


def _vp_changes(before: GameState, after: GameState, line: Line) -> tuple[Event, ...]:
    """VP gained outside placings (on-play and leave-play abilities), said as events."""
    if not isinstance(before, TrackerState) or not isinstance(after, TrackerState):
        return ()  # Munchkin Cthulhu has no VP
    if line.get("input") == "award":
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
