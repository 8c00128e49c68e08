"""``companion cards coverage`` keeps its numbers honest: every count comes from the catalogue
and the engine's hook registry, the categories add up to the cards whose ability touches
power, breakpoints, VP or treasures, and each category's cards behave as it claims."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Card, Catalogue, load_catalogue
from companion.catalogue.printings import printed
from companion.catalogue.table_effects import ControlEffect, DuelEffect
from companion.cli.main import main
from companion.rules import game as rules
from companion.rules.coverage import (
    CATEGORIES,
    LABELS,
    Covered,
    classify,
    counts,
    coverage,
    valued,
)
from companion.rules.hooks import HOOKS
from companion.rules.power import evaluate
from companion.rules.table import Table
from tests import (
    test_effects_core_sets,
    test_effects_munchkin,
    test_effects_oops,
    test_tracker_counters,
)

CAT = load_catalogue()
CATALOGUES = {"errata": CAT, "munchkin current": printed(CAT, {"munchkin": "current"})}


def _scenarios(catalogue: Catalogue) -> set[str]:
    """Cards whose behaviour a per-card scenario checks: the effect registries (each with its
    own completeness test), the duel starters (test_tracker_duels lists them all), and the
    cards that take control (test_tracker_round_two: Charm)."""
    found = set(test_effects_core_sets.CASES) | set(test_effects_munchkin.CASES)
    found |= set(test_effects_oops.CASES)
    found |= set(test_tracker_counters.CASES)
    for card in catalogue:
        if any(isinstance(e, DuelEffect | ControlEffect) for e in card.effects):
            found.add(card.id)
    return found


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_the_categories_add_up_to_the_cards_that_touch_the_numbers(name: str) -> None:
    catalogue = CATALOGUES[name]
    found = coverage(catalogue)
    for set_id in catalogue.sets:
        cards = [card for card in catalogue if card.set == set_id]
        touching = [
            card
            for card in cards
            if card.text is None
            or card.manual
            or card.input
            or any(valued(effect) for effect in card.effects)
        ]
        covered = found[set_id]
        assert sum(counts(covered).values()) == len(covered)
        assert {c.card.id for c in covered} >= {card.id for card in touching}
        assert len({c.card.id for c in covered}) == len(covered)


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_computed_cards_have_their_scenarios(name: str) -> None:
    """Every card counted as computed (at once or after an input) has a scenario that checks
    the numbers its text implies."""
    catalogue = CATALOGUES[name]
    scenarios = _scenarios(catalogue) | {"munchkin/treasure-bath"}  # test_tracker_round_two
    missing = [
        entry.card.id
        for covered in coverage(catalogue).values()
        for entry in covered
        if entry.category in ("computed", "after input")
        and any(valued(e) for e in entry.card.effects)
        and entry.card.id not in scenarios
    ]
    assert missing == []


def _on_a_table(card: Card, catalogue: Catalogue) -> Table:
    """``card`` in play among bystanders: A's and B's King Rex, an uncontrolled monster."""
    base = card.id if card.type == "base" else "core/jungle-oasis"
    table = rules.enter_base(Table(players=("A", "B")), "base-1", base)
    for tag, who in (("rex-a", "A"), ("rex-b", "B")):
        table = rules.play_minion(table, catalogue, "base-1", tag, "core/king-rex", who, who)
    table = rules.play_minion(table, catalogue, "base-1", "m", "munchkin/web-troll", None, None)
    if card.is_minion:
        return rules.play_minion(table, catalogue, "base-1", "x", card.id, "A", "A")
    if card.type == "action" and card.play == "base":
        return rules.attach_to_base(table, "base-1", "x", card.id, "A", "A")
    if card.is_action and card.play == "minion":
        return rules.attach_to_minion(table, "rex-a", "x", card.id, "A", "A")
    return table


@pytest.mark.parametrize(
    "entry",
    [e for covered in coverage(CAT).values() for e in covered if e.category == "by hand"],
    ids=lambda e: e.card.id,
)
def test_by_hand_cards_change_nothing_and_say_why(entry: Covered) -> None:
    """A card done by hand names the fact the table cannot see, and the engine computes
    nothing for it: in play, every number is what its printed power alone gives."""
    card = entry.card
    assert entry.reason and entry.reason.endswith(".")
    table = _on_a_table(card, CAT)
    blank = {**CAT.cards, card.id: replace(card, effects=())}
    assert evaluate(table, CAT) == evaluate(table, replace(CAT, cards=blank))


def test_unknown_cards_have_no_text_and_no_effects() -> None:
    unknown = [
        e.card for covered in coverage(CAT).values() for e in covered if e.category == "unknown"
    ]
    assert unknown and all(card.text is None and not card.effects for card in unknown)


def test_a_hook_missing_from_the_registry_is_counted_by_hand() -> None:
    card = CAT["oops/priest-of-anubis"]
    found = classify(card, HOOKS)
    assert found is not None and found.category == "computed"
    gone = classify(card, {})
    assert (
        gone is not None and gone.category == "by hand" and "not in the engine" in str(gone.reason)
    )


def test_the_command_prints_the_counts_the_catalogue_gives() -> None:
    result = CliRunner().invoke(main, ["cards", "coverage", "--no-reasons"])
    assert result.exit_code == 0, result.output
    for set_id, covered in coverage(CAT).items():
        block = result.output.split(f"({set_id}):", 1)[1].split("\n\n", 1)[0]
        assert block.startswith(f" {len(covered)} of ")
        tally = counts(covered)
        for category in CATEGORIES:
            assert f"  {LABELS[category]:<30} {tally[category]:>3}" in block
    current = CliRunner().invoke(main, ["cards", "coverage", "--printing", "munchkin=current"])
    assert current.exit_code == 0 and "munchkin/the-coffers" in current.output
    wrong = CliRunner().invoke(main, ["cards", "coverage", "--printing", "munchkin=third"])
    assert wrong.exit_code == 2 and "offers errata, current" in wrong.output
