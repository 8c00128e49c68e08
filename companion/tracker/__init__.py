"""The tracker: turns taps and tablet inputs into game events, prompts and a new state.

:func:`step` is a pure reducer over tape event lines; :class:`Game` adds undo on top.
"""

from companion.tracker.game import Game, replay_lines
from companion.tracker.state import Outcome, Rejected, TrackerState, new_state
from companion.tracker.step import step

__all__ = ["Game", "Outcome", "Rejected", "TrackerState", "new_state", "replay_lines", "step"]
