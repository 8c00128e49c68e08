"""The bundled Oops example game (``companion/tapes/oops-2p.jsonl``): cards buried and
uncovered through scorings, four duels and +1 power counters replay to the totals worked out
by hand below from the rulebooks (Oops, You Did It Again: Burying p. 10, Duels p. 11)."""

from __future__ import annotations

from typing import Any

from companion.catalogue.cards import Catalogue
from companion.tape.examples import example_tape
from companion.tape.lines import parse_header, read_lines
from companion.tracker.game import Game


def _replay(catalogue: Catalogue) -> tuple[Game, list[dict[str, Any]], dict[str, str]]:
    lines = list(read_lines(example_tape("oops-2p").splitlines()))
    header = lines[0].event
    game = Game(parse_header(header, catalogue), catalogue)
    events: list[dict[str, Any]] = []
    for line in lines[1:]:
        events.extend(game.apply(line.event).events)
    cards = {uid: card for uid, card in header["tags"].items()}
    return game, events, cards


def test_the_scorings_add_up(catalogue: Catalogue) -> None:
    game, _, _ = _replay(catalogue)
    got = [(r.card, [(p.player, p.power, p.vp) for p in r.ranking]) for r in game.state.scorings]
    assert got == [
        # Ann: Shogun 5 + 3 (Code of Bushido) + 2 (Priest and Pharaoh went to the discard
        # pile); Ben: Gunfighter 3 + 4 (Quick Draw in a duel). Sheriff and Pharaoh tied.
        ("core/evans-city-cemetery", [("Ann", 10, 5), ("Ben", 7, 3)]),
        # Ann: Pyramid Engineer 3, Mummy 2, Bushi 4, Samurai-Chan 2; Ben: Worker 0 + 2
        # counters, Drone 3 + 1 counter, Pinkerton 4. Seal the Tomb, buried, adds nothing.
        ("core/tar-pits", [("Ann", 11, 4), ("Ben", 10, 3)]),
        # Ann: Mummy 2 (uncovered), Ronin 3, Priest 4, Pyramid Engineer 3 + 3 (Way of the
        # Warrior); Ben: Deputy 2, Pinkerton 4.
        ("core/mushroom-kingdom", [("Ann", 15, 5), ("Ben", 6, 3)]),
    ]
    # Honorable Combat: the winning Pyramid Engineer's controller gains 1 VP.
    assert game.state.table.vp == (5 + 1 + 4 + 5, 3 + 3 + 3)
    assert game.state.table.winners == ("Ann",)


def test_the_duels(catalogue: Catalogue) -> None:
    _, events, cards = _replay(catalogue)
    duels = [
        ([cards[tag] for tag in e["winners"]], e["powers"])
        for e in events
        if e["event"] == "duel-resolved"
    ]
    assert duels == [
        (["oops/gunfighter"], [7, 4]),  # Gunfighter 3 + 4 against Priest of Anubis 4
        (["oops/sheriff", "oops/pharaoh"], [5, 5]),  # a tie: both destroyed
        (["oops/pyramid-engineer"], [3, 2]),  # Honorable Combat, Pinkerton declined
    ]
    destroyed = [cards[e["tag"]] for e in events if e["event"] == "left"]
    assert destroyed[:3] == ["oops/priest-of-anubis", "oops/sheriff", "oops/pharaoh"]


def test_burying_through_the_scorings(catalogue: Catalogue) -> None:
    _, events, cards = _replay(catalogue)
    buried = [cards[e["tag"]] for e in events if e["event"] == "buried"]
    assert buried == [
        "oops/priest-of-anubis",  # from hand, through Lost Knowledge
        "oops/you-can-take-it-with-you",  # buries itself
        "oops/seal-the-tomb",  # Pyramid Engineer's Talent
        "oops/mummy",  # after Tar Pits scored
    ]
    uncovered = [cards[e["tag"]] for e in events if e["event"] == "uncovered"]
    assert uncovered == [
        "oops/priest-of-anubis",
        "oops/you-can-take-it-with-you",
        "oops/mummy",
    ]
    discarded = [e for e in events if e["event"] == "buried-discarded"]
    assert [(e["zone"], e["counts"]) for e in discarded] == [("base-2", {"Ann": 1})]
    assert not any("beyond the start-of-turn" in str(e.get("text")) for e in events)
