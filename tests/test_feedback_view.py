"""The table tells the lights what a state document means (:mod:`companion.table.feedback_view`):
hardware is given which zones are ready or waiting and whether the game is won, never a
document (issue 26, 3)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.catalogue.cards import Catalogue
from companion.hardware.feedback import FeedbackView, led_states
from companion.table.feedback_view import feedback_view
from companion.tape.examples import EXAMPLES, example_tape
from companion.tape.limits import check_line
from companion.tape.lines import parse_header, read_lines
from companion.tracker.document import state_document
from companion.tracker.game import Game


def documents(name: str, catalogue: Catalogue) -> list[dict[str, Any]]:
    """The state document after each line of a bundled example game."""
    lines = list(read_lines(example_tape(name).splitlines()))
    game = Game(parse_header(lines[0].event, catalogue), catalogue)
    seen = []
    for line in lines[1:]:
        game.apply(check_line(line.event))
        seen.append(dict(state_document(game.state, game.catalogue)))
    return seen


def test_no_game_lights_nothing() -> None:
    assert feedback_view(None) == FeedbackView()
    assert feedback_view({}) == FeedbackView()


def test_a_document_says_which_zones_and_whether_won() -> None:
    document = {
        "bases": [
            {"zone": "base-1", "ready": True},
            {"zone": "base-2", "ready": False},
            {"zone": "base-3", "ready": True},
        ],
        "prompts": [{"id": 1, "zone": "base-3"}, {"id": 2, "zone": None}],
        "winner": None,
    }
    view = feedback_view(document)
    assert view == FeedbackView(frozenset({"base-1", "base-3"}), frozenset({"base-3"}), False)
    assert feedback_view({**document, "winner": "Ann"}).won


@pytest.mark.parametrize("name", [name for name in EXAMPLES if not name.startswith("cthulhu")])
def test_a_whole_smash_up_game_lights_its_ready_bases_and_ends_won(
    name: str, catalogue: Catalogue
) -> None:
    views = [(feedback_view(document), document) for document in documents(name, catalogue)]
    assert any(view.ready for view, _ in views), "some base reached its breakpoint"
    for view, document in views:
        bases = {base["zone"] for base in document["bases"]}
        assert view.ready <= bases
        assert view.won == (document["winner"] is not None)
    assert [view.won for view, _ in views][-1]
    final, _ = views[-1]
    assert set(led_states(final, ("base-1", "discard")).values()) == {"on"}


def test_a_cthulhu_game_has_no_bases_to_light(catalogue: Catalogue) -> None:
    views = [feedback_view(document) for document in documents("cthulhu-3p", catalogue)]
    assert all(not view.ready for view in views)
    assert views[-1].won
