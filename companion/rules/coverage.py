"""How much of each set the engine computes: every card whose ability touches power,
breakpoints, VP or treasures, sorted into what the table gets from it.

* ``computed``: the engine does it all from what the readers see;
* ``after input``: computed once someone answers the tablet (a target, a Talent, a prompt's
  choice, a switch for a condition the table cannot see);
* ``partly``: computed, with a part people do by hand (the card's ``manual`` says which);
* ``by hand``: people do it (``manual`` says which fact the table cannot see);
* ``unknown``: no source confirmed the card's text.

It reads the catalogue and the hook registry only: nothing here is counted by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.effect_terms import Condition
from companion.catalogue.effects import Effect, HookEffect, one_turn
from companion.catalogue.status_effects import CancelEffect
from companion.catalogue.table_effects import (
    ControlEffect,
    CountersEffect,
    DuelEffect,
    MoveCountersEffect,
)
from companion.rules.hooks import HOOKS
from companion.rules.modifiers import Hooks
from companion.rules.one_turn import aims_at_one_minion

Category = Literal["computed", "after input", "partly", "by hand", "unknown"]
CATEGORIES: tuple[Category, ...] = ("computed", "after input", "partly", "by hand", "unknown")

#: effect kinds that change power, breakpoints, VP or treasures (directly or through what
#: cards are, do or control); burying, destroy prompts and plain duels change the table only
VALUE_KINDS = frozenset(
    {
        "power",
        "player-power",
        "breakpoint",
        "no-count",
        "treasures",
        "score",
        "vp",
        "hook",
        "counters",
        "move-counters",
        "cancel",
        "trait",
        "control",
    }
)
#: keywords the reference gives abilities that touch what the engine computes
VALUE_KEYWORDS = frozenset({"power boost", "power reduction", "breakpoint", "VP"})


@dataclass(frozen=True, slots=True)
class Covered:
    card: Card
    category: Category
    #: the card's ``manual`` sentence (partly, by hand), its ``input`` (after input), or why
    #: it is unknown
    reason: str | None = None


def valued(effect: Effect) -> bool:
    if isinstance(effect, DuelEffect):
        return bool(effect.vp) or effect.boost is not None
    return effect.kind in VALUE_KINDS


def touches(card: Card) -> bool:
    """Whether the card's ability touches power, breakpoints, VP or treasures (or may: its
    text is unknown)."""
    if card.text is None:
        return True
    return (
        any(valued(effect) for effect in card.effects)
        or card.manual is not None
        or card.input is not None
        or bool(VALUE_KEYWORDS & set(card.keywords))
    )


def needs_input(effect: Effect) -> bool:
    """Whether someone answers the tablet before the engine can compute the effect."""
    when = getattr(effect, "when", None)
    if isinstance(when, Condition) and when.declared:
        return True
    if getattr(effect, "on", None) == "talent":
        return True
    if one_turn(effect) and getattr(effect, "on", None) is None and aims_at_one_minion(effect):
        return True  # the tablet asks which minion
    if isinstance(effect, CountersEffect):
        return effect.target == "choose" or effect.may or effect.count == 0
    if isinstance(effect, MoveCountersEffect | ControlEffect | DuelEffect):
        return True
    return isinstance(effect, CancelEffect) and effect.on == "talent"


def classify(card: Card, hooks: Mapping[str, object] = HOOKS) -> Covered | None:
    """The card's category, or ``None`` if its ability touches none of these numbers."""
    if not touches(card):
        return None
    if card.text is None:
        return Covered(card, "unknown", "no source confirmed its text")
    missing = [e.name for e in card.effects if isinstance(e, HookEffect) and e.name not in hooks]
    if missing:
        return Covered(card, "by hand", f"hook {', '.join(missing)} is not in the engine")
    valued_effects = [effect for effect in card.effects if valued(effect)]
    if card.manual is not None:
        return Covered(card, "partly" if valued_effects else "by hand", card.manual)
    if card.input is not None or any(needs_input(effect) for effect in valued_effects):
        return Covered(card, "after input", card.input)
    if not valued_effects:
        return Covered(card, "by hand", "its ability is not encoded")
    return Covered(card, "computed")


def coverage(catalogue: Catalogue, hooks: Hooks = HOOKS) -> dict[str, list[Covered]]:
    """Per Smash Up set, every card whose ability touches the computed numbers."""
    found: dict[str, list[Covered]] = {set_id: [] for set_id in catalogue.sets}
    for card in catalogue:
        covered = classify(card, hooks)
        if covered is not None:
            found.setdefault(card.set, []).append(covered)
    return found


def counts(covered: Iterable[Covered]) -> dict[Category, int]:
    tally: dict[Category, int] = dict.fromkeys(CATEGORIES, 0)
    for entry in covered:
        tally[entry.category] += 1
    return tally


LABELS: dict[Category, str] = {
    "computed": "computed",
    "after input": "computed after a tablet input",
    "partly": "partly computed",
    "by hand": "by hand",
    "unknown": "unknown text",
}


def coverage_text(
    found: Mapping[str, list[Covered]], catalogue: Catalogue, *, reasons: bool = True
) -> str:
    """The coverage as text: per set, the counts, then each partly or by-hand card's reason."""
    lines: list[str] = []
    for set_id, covered in found.items():
        name = catalogue.sets[set_id].name if set_id in catalogue.sets else set_id
        total = sum(1 for card in catalogue if card.set == set_id)
        entries = [(entry.category, entry.card.id, entry.reason) for entry in covered]
        lines += section(f"{name} ({set_id})", total, entries, reasons=reasons)
    return "\n".join(lines).rstrip()


def section(
    title: str,
    total: int,
    entries: Sequence[tuple[str, str, str | None]],
    *,
    reasons: bool = True,
    touching: str = "power, breakpoints, VP or treasures",
) -> list[str]:
    """One set's lines of the coverage table: ``entries`` are (category, card id, reason) for
    each card that touches a number (Munchkin Cthulhu's print in the same table)."""
    tally = {c: sum(1 for e in entries if e[0] == c) for c in CATEGORIES}
    lines = [f"{title}: {len(entries)} of {total} cards touch {touching}"]
    lines.extend(f"  {LABELS[c]:<30} {tally[c]:>3}" for c in CATEGORIES)
    if reasons:
        lines.extend(
            f"    {category}: {card}: {reason}"
            for category, card, reason in entries
            if category in ("partly", "by hand", "unknown")
        )
    lines.append("")
    return lines
