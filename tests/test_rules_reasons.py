"""Why a minion has its power: each effect's share, by the card that makes it, adding up to
the power the rules count (and the endpoint the card's sheet asks)."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.rules.reasons import Reason, power_reasons
from companion.simulation.plausible import make_header
from companion.tape.lines import parse_header
from companion.tracker.game import Game
from tests.browser import PLAYERS


def test_each_effect_gives_its_share_and_they_add_up(catalogue: Catalogue) -> None:
    header = make_header(list(PLAYERS), PLAYERS, catalogue, 3)
    game = Game(parse_header(header, catalogue), catalogue)
    tags: dict[str, list[str]] = {}
    for uid, card in header["tags"].items():
        tags.setdefault(card, []).append(uid)
    for card in ("munchkin/treasure-bath", "core/king-rex", "munchkin/sword-lord"):
        game.apply({"tap": tags[card][0], "zone": "base-1"})
    rex = tags["core/king-rex"][0]
    game.apply({"input": "counter", "tag": rex, "delta": 2})
    why = power_reasons(game.state.table, catalogue, rex)
    assert why is not None
    assert (why.printed, why.counters, why.reasons) == (7, 2, (Reason("munchkin/sword-lord", 1),))
    assert why.power == why.printed + why.counters + sum(r.amount for r in why.reasons) == 10
    assert power_reasons(game.state.table, catalogue, "NOT-IN-PLAY") is None


def test_the_endpoint_names_the_cards(client: FlaskClient) -> None:
    missing = client.get("/api/power/NOPE")
    assert missing.status_code == 404 and "no minion in play" in missing.get_json()["error"]
