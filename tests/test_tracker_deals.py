"""The treasure deals the tablet walks through: a scored base's draft, a destroyed monster's
draw, one pick per tap (README "Tapes": ``dealt``)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.errors import TapeError
from tests.tapes import doc, inp, run, tap

TREEHOUSE = [tap("B1", "base-1"), tap("H1", "base-1"), tap("H2", "base-1")]
SCORED = [
    *TREEHOUSE,
    *[tap(t, "base-1") for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
    inp("counter", tag="MT", delta=2),
    inp("score", zone="base-1"),
    inp("award"),
]


def deals(catalogue: Catalogue, *lines: dict[str, Any]) -> list[dict[str, Any]]:
    return doc(catalogue, *lines)["deals"]  # type: ignore[no-any-return]


def test_an_award_with_treasures_opens_a_draft_in_the_scorings_order(
    catalogue: Catalogue,
) -> None:
    document = doc(catalogue, *SCORED)
    order = document["scorings"][0]["treasures"]["order"]
    assert document["deals"] == [
        {
            "kind": "draft",
            "card": "munchkin/treehouse",
            "count": len(order),
            "order": order,
            "taken": 0,
            "next": order[0],
        }
    ]


def test_each_pick_moves_the_draft_on_and_the_last_closes_it(catalogue: Catalogue) -> None:
    order = doc(catalogue, *SCORED)["scorings"][0]["treasures"]["order"]
    assert len(order) == 2
    first = deals(catalogue, *SCORED, inp("dealt"))
    assert (first[0]["taken"], first[0]["next"]) == (1, order[1])
    assert deals(catalogue, *SCORED, inp("dealt"), inp("dealt")) == []


def test_all_at_once_and_undo(catalogue: Catalogue) -> None:
    assert deals(catalogue, *SCORED, inp("dealt", all=True)) == []
    assert deals(catalogue, *SCORED, inp("dealt", all=True), inp("undo")) == deals(
        catalogue, *SCORED
    )


def test_a_destroyed_monster_is_a_draw_for_the_current_player(catalogue: Catalogue) -> None:
    opened = deals(catalogue, *TREEHOUSE, tap("H1", "discard"))
    assert opened == [
        {
            "kind": "draw",
            "card": "munchkin/hippogriff",
            "count": 1,
            "order": ["Ann"],
            "taken": 0,
            "next": "Ann",
        }
    ]
    assert deals(catalogue, *TREEHOUSE, tap("H1", "discard"), inp("dealt")) == []


def test_deals_are_handed_out_oldest_first(catalogue: Catalogue) -> None:
    both = deals(catalogue, *TREEHOUSE, tap("H1", "discard"), tap("H2", "discard"), inp("dealt"))
    assert [d["kind"] for d in both] == ["draw"]
    assert len(both) == 1


def test_nothing_to_deal_or_a_bad_flag_is_refused(catalogue: Catalogue) -> None:
    with pytest.raises(TapeError, match="no treasures"):
        run(catalogue, *TREEHOUSE, inp("dealt"))
    with pytest.raises(TapeError, match="true or false"):
        run(catalogue, *SCORED, inp("dealt", all="yes"))


def test_a_later_deal_is_dealt_without_waiting_for_the_oldest(catalogue: Catalogue) -> None:
    both = [*TREEHOUSE, tap("H1", "discard"), tap("H2", "discard")]
    assert len(deals(catalogue, *both)) == 2
    left = deals(catalogue, *both, inp("dealt", deal=1, all=True))
    assert [(d["card"], d["taken"]) for d in left] == [("munchkin/hippogriff", 0)]
    with pytest.raises(TapeError, match="index of an open deal, 0 to 1"):
        doc(catalogue, *both, inp("dealt", deal=2))
