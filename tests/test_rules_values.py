"""rules.values.revise: the same value as dataclasses.replace, for every class it copies."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.catalogue.cards import load_catalogue
from companion.rules.table import Attached, Base, Buried, Loan, Minion, Table, Temporary
from companion.rules.values import revise

MINION = Minion(
    "M1", "core/robot", "Ann", "Ann", counters=2, attached=(Attached("A1", "x", "Ben"),)
)
BASE = Base("base-2", "core/factory", "B1", minions=(MINION,), buried=(Buried("X", "y", "Ann"),))
TABLE = Table(players=("Ann", "Ben"), bases=(BASE,), turn=4, loans=(Loan("M1", "Ben", 3),))
TEMPORARY = Temporary("core/charge", 0, "Ann", 4, bearer="M1", amount=2)

CASES: list[tuple[Any, dict[str, Any]]] = [
    (MINION, {"counters": 5}),
    (MINION, {"controller": "Ben", "attached": ()}),
    (BASE, {"minions": ()}),
    (TABLE, {"bases": ()}),
    (TABLE, {"current": 1, "turn": 5}),
    (TABLE, {"vp": ()}),  # __post_init__ fills it again, as replace's __init__ does
    (TEMPORARY, {"amount": None}),
    (Attached("A2", "z", None), {"counters": 1}),
]


@pytest.mark.parametrize(("value", "changes"), CASES)
def test_revise_makes_what_replace_makes(value: Any, changes: dict[str, Any]) -> None:
    revised = revise(value, **changes)
    assert revised == dataclasses.replace(value, **changes)
    assert type(revised) is type(value)
    assert revised is not value
    assert value == dataclasses.replace(value)  # the original is left as it was


def test_revise_copies_effects_of_the_catalogue() -> None:
    effects = [e for card in load_catalogue() for e in card.effects if hasattr(e, "amount")]
    assert effects
    for effect in effects:
        assert revise(effect, amount=7) == dataclasses.replace(effect, amount=7)


def test_an_unknown_field_is_refused_as_replace_refuses_it() -> None:
    with pytest.raises(TypeError, match="nope"):
        revise(TABLE, nope=1)


@dataclass(frozen=True)
class _Counted:
    name: str
    seen: int = field(default=0, init=False)


@dataclass(frozen=True)
class _One:
    name: str


def test_classes_it_cannot_copy_positionally_go_to_replace() -> None:
    assert revise(_One("a"), name="b") == _One("b")
    with pytest.raises(ValueError, match="init=False"):
        revise(_Counted("a"), seen=2)  # replace's own refusal
    assert revise(_Counted("a"), name="b") == _Counted("b")
