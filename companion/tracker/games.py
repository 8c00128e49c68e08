"""The two games behind one type: a table plays Smash Up (:mod:`companion.tracker`) or Munchkin
Cthulhu (:mod:`companion.cthulhu`), and what serves both (undo, tap corrections, the state
document, the table) holds either state as :data:`GameState` and narrows it with
``isinstance`` where the games differ. Pure."""

from __future__ import annotations

from typing import TypeAlias

from companion.catalogue.cards import Catalogue
from companion.cthulhu import tracker as cthulhu
from companion.cthulhu.state import MCOutcome, MCState
from companion.tape.documents import Event, Line
from companion.tape.lines import Header
from companion.tracker.state import Outcome, TrackerState, new_state
from companion.tracker.step import step

GameState: TypeAlias = TrackerState | MCState
"""Either game's state; both have ``header``, ``version``, ``prompts`` and a ``table`` with
``turn``, ``current_player`` and ``winners``."""

GameOutcome: TypeAlias = Outcome | MCOutcome
"""Either game's step result: ``state``, ``events`` and ``changed``."""


def start(header: Header) -> GameState:
    """The state before the first line, of the game the header names."""
    if header.game == "munchkin-cthulhu":
        return cthulhu.new_state(header)
    return new_state(header)


def game_outcome(state: GameState, events: tuple[Event, ...], changed: bool) -> GameOutcome:
    """A step's result for ``state``'s game."""
    if isinstance(state, TrackerState):
        return Outcome(state, events, changed)
    return MCOutcome(state, events, changed)


def step_game(state: GameState, line: Line, catalogue: Catalogue) -> GameOutcome:
    """One line applied by the game's own reducer.

    :raises Rejected: the line cannot be applied; nothing changed.
    """
    if isinstance(state, TrackerState):
        return step(state, line, catalogue)
    return cthulhu.step(state, line, catalogue)
