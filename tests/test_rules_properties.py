"""Property tests over random tables built from the real catalogue."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.rules import game as rules
from companion.rules.power import evaluate
from companion.rules.scoring import eligible_players, score_base
from companion.rules.table import Table

CATALOGUE = load_catalogue()
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
SMASHUP = [c for c in CATALOGUE if c.set in ("core", "monster-smash", "oops", "munchkin")]
BASES = sorted(c.id for c in SMASHUP if c.type == "base")
MINIONS = sorted(c.id for c in SMASHUP if c.is_minion)
ACTIONS = sorted(c.id for c in SMASHUP if c.is_action and c.play in ("minion", "base"))


@st.composite
def tables(draw: st.DrawFn) -> Table:
    players = PLAYERS[: draw(st.integers(2, 4))]
    table = Table(players=players, current=draw(st.integers(0, len(players) - 1)))
    zones = [f"base-{n}" for n in range(1, draw(st.integers(1, 5)) + 1)]
    chosen = draw(
        st.lists(st.sampled_from(BASES), min_size=len(zones), max_size=len(zones), unique=True)
    )
    for zone, base in zip(zones, chosen, strict=True):
        table = rules.enter_base(table, zone, base, f"B-{zone}")
    tags: list[str] = []
    for n in range(draw(st.integers(0, 14))):
        card = CATALOGUE[draw(st.sampled_from(MINIONS))]
        controller = None if card.is_monster else draw(st.sampled_from(players))
        if card.is_monster and draw(st.booleans()):
            controller = draw(st.sampled_from(players))
        tag = f"M{n}"
        table = rules.play_minion(
            table, CATALOGUE, draw(st.sampled_from(zones)), tag, card.id, controller, controller
        )
        table = rules.add_counters(table, tag, draw(st.integers(0, 3)))
        tags.append(tag)
    for n in range(draw(st.integers(0, 8))):
        card = CATALOGUE[draw(st.sampled_from(ACTIONS))]
        player = draw(st.sampled_from(players))
        if card.play == "base":
            table = rules.attach_to_base(
                table, draw(st.sampled_from(zones)), f"A{n}", card.id, player, player
            )
        elif tags:
            table = rules.attach_to_minion(
                table, draw(st.sampled_from(tags)), f"A{n}", card.id, player, player
            )
    return table


def _check(table: Table, catalogue: Catalogue) -> None:
    view = evaluate(table, catalogue)
    for base in view.bases:
        assert base.breakpoint >= 0 and base.total >= 0
        assert all(power >= 0 for power in base.minion_power.values())
        assert all(power >= 0 for power in base.power.values())
        assert base.total == sum(base.power.values())
        result = score_base(table, catalogue, base.zone)
        placings = result.ranking
        assert {p.player for p in placings} == eligible_players(base)
        for p in placings:
            for q in placings:
                if p.power > q.power:
                    assert p.place < q.place
                if p.power == q.power:
                    assert p.place == q.place
        order = result.treasure_order
        if base.present:
            assert len(order) == result.treasure_count
        else:
            assert order == ()
        assert set(order) <= base.present


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_random_tables_obey_the_invariants(table: Table) -> None:
    _check(table, CATALOGUE)
