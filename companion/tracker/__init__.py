"""The tracker: turns taps and tablet inputs into game events, prompts and a new state.

:func:`companion.tracker.step.step` is a pure reducer over tape event lines;
:class:`companion.tracker.game.Game` adds undo on top and picks the game's reducer.
"""
