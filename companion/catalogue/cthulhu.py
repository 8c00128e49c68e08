"""The Munchkin Cthulhu catalogue (``cards/munchkin-cthulhu.json``), validated on load.

``None`` in a fact field means the fact is not confirmed; the rules then count nothing for it
and say so, never a guess.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, get_args

from companion.errors import CatalogueError

SET_ID: Final = "munchkin-cthulhu"
Kind = Literal[
    "monster",
    "monster enhancer",
    "item",
    "one-shot item",
    "class",
    "curse",
    "go-up-a-level",
    "other",
]
KINDS: Final = get_args(Kind)
SLOTS: Final = ("headgear", "armor", "footgear", "1 hand", "2 hands", "none")
CLASSES: Final = ("Cultist", "Professor", "Investigator", "Monster Whacker")
SEXES: Final = ("female", "male")


@dataclass(frozen=True, slots=True)
class Modifier:
    """A monster's printed modifier: ``amount`` against a class or sex, a Run Away change,
    or words the rules do not compute (``text``)."""

    amount: int = 0
    vs_class: tuple[str, ...] = ()
    vs_sex: str | None = None
    run_away: int = 0
    text: str | None = None


@dataclass(frozen=True, slots=True)
class MCCard:
    id: str
    name: str
    kind: Kind
    deck: str
    copies: int | None
    text: str | None
    level: int | None = None
    treasures: int | None = None
    levels_gained: int | None = None
    undead: bool = False
    modifiers: tuple[Modifier, ...] = ()
    #: monster enhancers: added to a monster (or kept by a Cultist, ``cultist_bonus``)
    modifier: int | None = None
    treasure_change: int | None = None
    cultist_bonus: bool = False
    bonus: int | None = None
    bonus_note: str | None = None
    slot: str | None = None
    gold: int | None = None
    only_for: tuple[str, ...] = ()
    not_for: tuple[str, ...] = ()
    class_name: str | None = None
    run_away: int = 0  #: an item's printed bonus to Run Away rolls

    @property
    def bad_stuff(self) -> str:
        """What a monster does to whoever it catches: its text's "Bad Stuff:" part (the whole
        text when the card does not say it in those words)."""
        text = (self.text or "").strip()
        _, said, rest = text.partition("Bad Stuff:")
        return rest.strip() if said and rest.strip() else text or "no text known: read the card"


@dataclass(frozen=True)
class CthulhuCatalogue:
    cards: Mapping[str, MCCard]

    def __getitem__(self, card_id: str) -> MCCard:
        return self.cards[card_id]

    def get(self, card_id: str) -> MCCard | None:
        return self.cards.get(card_id)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __iter__(self) -> Iterator[MCCard]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)


def parse_cthulhu(path: Path, document: Any) -> CthulhuCatalogue:
    """:raises CatalogueError: naming the file, card and field of the first problem."""
    if not isinstance(document, dict) or document.get("set") != SET_ID:
        raise CatalogueError(f'{path.name}: must be an object with "set": "{SET_ID}"')
    entries = document.get("cards")
    if not isinstance(entries, list) or not entries:
        raise CatalogueError(f'{path.name}: "cards" must be a non-empty list')
    cards: dict[str, MCCard] = {}
    for index, raw in enumerate(entries):
        card = _card(raw, f"{path.name}: card {index + 1}")
        if card.id in cards:
            raise CatalogueError(f"{path.name}: card id {card.id!r} appears twice")
        cards[card.id] = card
    return CthulhuCatalogue(cards)


def _card(raw: Any, where: str) -> MCCard:
    if not isinstance(raw, dict):
        raise CatalogueError(f"{where}: must be an object")
    name = raw.get("name")
    where = f"{where} ({name})" if isinstance(name, str) else where
    card_id = _field(raw, "id", str, where)
    if not card_id.startswith(f"{SET_ID}/"):
        raise CatalogueError(f"{where}: field 'id' must start with '{SET_ID}/'")
    kind = _field(raw, "kind", str, where)
    if kind not in KINDS:
        raise CatalogueError(f"{where}: field 'kind' must be one of {', '.join(KINDS)}")
    slot = _field(raw, "slot", str, where, optional=True)
    if slot is not None and slot not in SLOTS:
        raise CatalogueError(f"{where}: field 'slot' must be one of {', '.join(SLOTS)}")
    classes = [*raw.get("only_for", []), *raw.get("not_for", [])]
    if raw.get("class_name") is not None:
        classes.append(raw["class_name"])
    for named in classes:
        if named not in CLASSES:
            raise CatalogueError(f"{where}: {named!r} is not a class ({', '.join(CLASSES)})")
    if kind == "monster" and raw.get("level") is None:
        raise CatalogueError(f"{where}: a monster needs its 'level'")
    return MCCard(
        id=card_id,
        name=_field(raw, "name", str, where),
        kind=kind,
        deck=_field(raw, "deck", str, where),
        copies=_field(raw, "copies", int, where, optional=True),
        text=_field(raw, "text", str, where, optional=True),
        level=_field(raw, "level", int, where, optional=True),
        treasures=_field(raw, "treasures", int, where, optional=True),
        levels_gained=_field(raw, "levels_gained", int, where, optional=True),
        undead=bool(raw.get("undead", False)),
        modifiers=tuple(_modifier(m, where) for m in raw.get("modifiers", [])),
        modifier=_field(raw, "modifier", int, where, optional=True),
        treasure_change=_field(raw, "treasure_change", int, where, optional=True),
        cultist_bonus=bool(raw.get("cultist_bonus", False)),
        bonus=_field(raw, "bonus", int, where, optional=True),
        bonus_note=_field(raw, "bonus_note", str, where, optional=True),
        slot=slot,
        gold=_field(raw, "gold", int, where, optional=True),
        only_for=tuple(raw.get("only_for", [])),
        not_for=tuple(raw.get("not_for", [])),
        class_name=raw.get("class_name"),
        run_away=_field(raw, "run_away", int, where, optional=True) or 0,
    )


def _modifier(raw: Any, where: str) -> Modifier:
    if not isinstance(raw, dict):
        raise CatalogueError(f"{where}: each of 'modifiers' must be an object")
    sex = raw.get("vs_sex")
    if sex is not None and sex not in SEXES:
        raise CatalogueError(f"{where}: a modifier's 'vs_sex' must be female or male")
    return Modifier(
        amount=int(raw.get("amount", 0)),
        vs_class=tuple(raw.get("vs_class", ())),
        vs_sex=sex,
        run_away=int(raw.get("run_away", 0)),
        text=raw.get("text"),
    )


def _field(raw: Mapping[str, Any], key: str, kind: type, where: str, optional: bool = False) -> Any:
    value = raw.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CatalogueError(f"{where}: field '{key}' must be a {kind.__name__}")
    return value


def _fact(value: object) -> str:
    return "?" if value is None else str(value)


def facts(card: MCCard) -> str:
    """A card's numbers in a line; unknown ones show as ``?``, never a guess."""
    if card.kind == "monster":
        return (
            f"Level {_fact(card.level)}, {_fact(card.treasures)} "
            f"treasure{'' if card.treasures == 1 else 's'}, "
            f"+{_fact(card.levels_gained)} Level{'' if card.levels_gained == 1 else 's'}"
        )
    if card.kind == "item":
        rules = ", ".join([f"{c} only" for c in card.only_for] + [f"not {c}" for c in card.not_for])
        return f"bonus {_fact(card.bonus)}, {_fact(card.slot)}, {_fact(card.gold)} gold" + (
            f", {rules}" if rules else ""
        )
    if card.kind == "one-shot item":
        return f"bonus {_fact(card.bonus)}, {_fact(card.gold)} gold"
    if card.kind == "monster enhancer":
        return f"{_fact(card.modifier)} to a monster, treasures {_fact(card.treasure_change)}"
    return card.kind


def card_table(cards: list[MCCard]) -> str:
    rows = [("ID", "NAME", "KIND", "COPIES", "FACTS")]
    rows += [(c.id, c.name, c.kind, _fact(c.copies), facts(c)) for c in cards]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)) + "  " + row[4]
        for row in rows
    )
