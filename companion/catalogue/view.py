"""Readable text tables of the card catalogue for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from companion.catalogue.cards import Card, Catalogue

_UNKNOWN_TEXT = "? (text not confirmed by any source)"


def _fact(value: object) -> str:
    """Unknown facts show as ``?``: never a guess."""
    return "?" if value is None else str(value)


def _stats(card: Card) -> str:
    if card.type == "base":
        vp = "/".join(_fact(v) for v in (card.vp or (None, None, None)))
        monsters = f", {_fact(card.monster_number)} monsters" if card.set == "munchkin" else ""
        return f"breaks {_fact(card.breakpoint)}, VP {vp}{monsters}"
    if card.type == "monster":
        undead = ", undead" if card.undead else ""
        return f"power {_fact(card.power)}, {_fact(card.treasures)} treasures{undead}"
    if card.is_minion:
        return f"power {_fact(card.power)}"
    return f"played on {card.play}" if card.play and card.play != "standard" else "standard"


def card_table(cards: Sequence[Card], catalogue: Catalogue) -> str:
    rows = [("ID", "NAME", "TYPE", "FACTION", "COPIES", "STATS")]
    for card in cards:
        faction = catalogue.factions[card.faction].name if card.faction else "-"
        kind = f"{card.subtype} treasure" if card.type == "treasure" else card.type
        rows.append((card.id, card.name, kind, faction, str(card.copies), _stats(card)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
        + "  "
        + row[-1]
        for row in rows
    ]
    physical = sum(card.copies for card in cards)
    lines.append("")
    lines.append(f"{len(cards)} distinct cards, {physical} physical cards (with copies)")
    return "\n".join(line.rstrip() for line in lines)


def card_details(card: Card, catalogue: Catalogue) -> str:
    faction = catalogue.factions[card.faction].name if card.faction else "-"
    lines = [
        f"{card.name}  ({card.id})",
        f"  set:      {catalogue.sets[card.set].name}",
        f"  type:     {card.type}" + (f" ({card.subtype})" if card.subtype else ""),
        f"  faction:  {faction}",
        f"  copies:   {card.copies}",
        f"  stats:    {_stats(card)}",
        f"  ability:  {_UNKNOWN_TEXT if card.text is None else card.text}",
    ]
    if card.confidence and card.confidence != "high":
        lines.append(f"  confidence: {card.confidence}")
    if card.effects:
        lines.append("  computed effects:")
        lines.extend(f"    - {effect}" for effect in card.effects)
    return "\n".join(lines)
