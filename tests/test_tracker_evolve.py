"""``evolve`` (the tracker's fast :func:`dataclasses.replace` for a TrackerState) makes what
replace makes, and the assumptions it rests on hold for the class as it is now."""

from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from companion.catalogue.cards import Catalogue
from companion.tracker.state import TrackerState, evolve
from tests import tapes


def _played(catalogue: Catalogue) -> TrackerState:
    game = tapes.run(catalogue, tapes.tap("B1", "base-1"), tapes.tap("TC", "base-1"))
    state: TrackerState = game.state
    return state


def test_evolve_makes_what_replace_makes(catalogue: Catalogue) -> None:
    state = _played(catalogue)
    changes = {"minions_played": 5, "prompts": (), "version": 99, "used": frozenset({"x"})}
    made = evolve(state, **changes)  # type: ignore[arg-type]
    assert made == dataclasses.replace(state, **changes)  # type: ignore[arg-type]
    assert made is not state and type(made) is TrackerState
    assert state.minions_played != 5  # the original is untouched


def test_evolve_refuses_a_field_the_state_does_not_have(catalogue: Catalogue) -> None:
    with pytest.raises(TypeError, match="no field turn"):
        evolve(_played(catalogue), turn=3)  # type: ignore[call-arg]


def test_other_dataclasses_go_to_replace(catalogue: Catalogue) -> None:
    table = _played(catalogue).table
    assert evolve(table, turn=7) == dataclasses.replace(table, turn=7)


def test_what_evolve_assumes_of_the_state_class() -> None:
    """Copying the instance dict is replace only while every field is set by ``__init__``,
    nothing runs after it, and nothing is cached in the dict: change this test and evolve
    together."""
    assert all(f.init for f in dataclasses.fields(TrackerState))
    assert not hasattr(TrackerState, "__post_init__")
    assert not any(isinstance(v, cached_property) for v in vars(TrackerState).values())
    assert not hasattr(TrackerState, "__slots__")
