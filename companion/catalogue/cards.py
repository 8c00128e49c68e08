"""The card catalogue: typed card records loaded and validated from the JSON files in ``cards/``.

Ids follow the tape contract (``companion/tape/CONTRACT.md``): ``<set>/<slug(name)>``.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal

from companion.catalogue.cthulhu import CthulhuCatalogue, parse_cthulhu
from companion.catalogue.effects import Effect
from companion.catalogue.effects_parse import parse_effects
from companion.catalogue.fields import PRINTINGS as PRINTINGS
from companion.catalogue.fields import choice, field_of, optional, printings_of
from companion.errors import CatalogueError

CardType = Literal["minion", "action", "base", "monster", "treasure"]
CARD_TYPES: Final = ("minion", "action", "base", "monster", "treasure")
PlayTarget = Literal["minion", "base", "standard"]

CTHULHU: Final = "munchkin-cthulhu"
#: Set ids of the Smash Up sets, and how many of each kind of card a set must hold.
SMASHUP_SETS: Final = ("core", "monster-smash", "oops", "munchkin")
FACTION_SIZE: Final = 20
MUNCHKIN_TOTALS: Final = {"faction": 160, "monster": 20, "treasure": 22, "base": 16}

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slug(name: str) -> str:
    """Turn a printed name into an id part, exactly as the tape contract says.

    >>> slug("Helper's Hollow"), slug("Whack-A-Ghoul"), slug("It's Alive!")
    ('helpers-hollow', 'whack-a-ghoul', 'its-alive')
    """
    lowered = name.lower().replace("'", "").replace("\u2019", "")
    return _NOT_SLUG.sub("-", lowered).strip("-")


@dataclass(frozen=True, slots=True)
class Card:
    """One distinct card. ``None`` in a fact field means the fact is not confirmed by any source."""

    id: str
    name: str
    type: CardType
    set: str
    faction: str | None
    copies: int
    text: str | None
    power: int | None = None
    play: PlayTarget | None = None
    breakpoint: int | None = None
    vp: tuple[int | None, int | None, int | None] | None = None
    monster_number: int | None = None
    treasures: int | None = None
    undead: bool | None = None
    subtype: Literal["minion", "action"] | None = None
    effects: tuple[Effect, ...] = ()
    keywords: tuple[str, ...] = ()
    confidence: str | None = None
    #: why an ability that touches power, VP or treasures is resolved by people, not computed
    manual: str | None = None
    #: what someone answers on the tablet for the engine to compute the ability
    input: str | None = None
    #: printed traits filters may ask for (``microbot``)
    traits: tuple[str, ...] = ()
    #: a Munchkin base whose monster number is one per player (a current printing)
    monsters_per_player: bool = False
    #: other printings of this card, by name (``first``, ``current``): see ``cards/README.md``
    printings: tuple[tuple[str, Card], ...] = ()

    @property
    def is_minion(self) -> bool:
        """Minions, monsters and minion treasures all stand on bases and have power."""
        return self.type in ("minion", "monster") or self.subtype == "minion"

    @property
    def is_action(self) -> bool:
        return self.type == "action" or self.subtype == "action"

    @property
    def is_monster(self) -> bool:
        return self.type == "monster"

    @property
    def is_treasure(self) -> bool:
        return self.type == "treasure"

    @property
    def printed_power(self) -> int:
        """Printed power for arithmetic; an unconfirmed power counts as 0 (and shows as ``?``)."""
        return self.power or 0


@dataclass(frozen=True, slots=True)
class Faction:
    id: str
    name: str
    set: str
    bases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardSet:
    id: str
    name: str
    path: Path


@dataclass(frozen=True)
class Catalogue:
    """Every card, faction and set, looked up by id."""

    sets: Mapping[str, CardSet]
    factions: Mapping[str, Faction]
    cards: Mapping[str, Card]
    _by_faction: Mapping[str, tuple[Card, ...]] = field(default_factory=dict, repr=False)
    #: Munchkin Cthulhu's cards (another game: its own kinds and facts)
    cthulhu: CthulhuCatalogue = field(default_factory=lambda: CthulhuCatalogue({}), repr=False)
    #: the catalogue this one was printed from (:mod:`companion.catalogue.printings`)
    unprinted: Catalogue | None = field(default=None, repr=False, compare=False)

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def get(self, card_id: str, default: Card | None = None) -> Card | None:
        return self.cards.get(card_id, default)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def faction_cards(self, faction_id: str) -> tuple[Card, ...]:
        return self._by_faction.get(faction_id, ())

    def select(
        self,
        *,
        set_id: str | None = None,
        faction: str | None = None,
        card_type: str | None = None,
    ) -> list[Card]:
        """Cards filtered by set, faction id (or faction name) and type, in catalogue order."""
        chosen = []
        for card in self.cards.values():
            if set_id is not None and card.set != set_id:
                continue
            if faction is not None and not _faction_matches(card, faction, self.factions):
                continue
            if card_type is not None and card.type != card_type:
                continue
            chosen.append(card)
        return chosen


def _faction_matches(card: Card, wanted: str, factions: Mapping[str, Faction]) -> bool:
    if card.faction is None:
        return False
    if card.faction == wanted:
        return True
    found = factions.get(card.faction)
    return found is not None and slug(found.name) == slug(wanted)


def default_cards_dir() -> Path:
    """``$COMPANION_CARDS`` if set, else the card data shipped in the package
    (``companion/catalogue/data``, which the repository's ``cards/`` folder feeds)."""
    configured = os.environ.get("COMPANION_CARDS")
    if configured:
        return Path(configured)
    packaged = resources.files("companion.catalogue").joinpath("data")
    # Installed packages are plain folders (wheels are unpacked), so this is a real path.
    return Path(str(packaged))


_CACHE: dict[Path, Catalogue] = {}


def load_catalogue(directory: Path | None = None) -> Catalogue:
    """Load and validate every ``*.json`` set file in ``directory`` (cached per directory).

    :raises CatalogueError: naming the file, card and field of the first problem found.
    """
    where = (directory or default_cards_dir()).resolve()
    if where not in _CACHE:
        files = sorted(where.glob("*.json"))
        if not files:
            raise CatalogueError(f"{where}: no card set files (*.json) found")
        _CACHE[where] = build_catalogue((path, _read_json(path)) for path in files)
    return _CACHE[where]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CatalogueError(f"{path.name}: cannot read the file as JSON: {exc}") from exc


def build_catalogue(documents: Iterable[tuple[Path, Any]]) -> Catalogue:
    """Validate parsed set documents and build the catalogue."""
    documents = list(documents)
    other = [(p, d) for p, d in documents if isinstance(d, dict) and d.get("game") == CTHULHU]
    smash_up = [(p, d) for p, d in documents if not any(p is q for q, _ in other)]
    catalogue = _build_smash_up(smash_up)
    if other:
        catalogue = replace(catalogue, cthulhu=parse_cthulhu(*other[0]))
    return catalogue


def _build_smash_up(documents: Iterable[tuple[Path, Any]]) -> Catalogue:
    sets: dict[str, CardSet] = {}
    factions: dict[str, Faction] = {}
    cards: dict[str, Card] = {}
    for path, document in documents:
        card_set, set_factions, set_cards = _parse_set(path, document)
        if card_set.id in sets:
            raise CatalogueError(f"{path.name}: set {card_set.id!r} is defined twice")
        sets[card_set.id] = card_set
        factions.update(set_factions)
        for card in set_cards:
            if card.id in cards:
                raise CatalogueError(f"{path.name}: card {card.id}: field 'id' is not unique")
            cards[card.id] = card
        _check_set_totals(path, card_set.id, set_factions, set_cards)
    by_faction: dict[str, list[Card]] = {}
    for card in cards.values():
        if card.faction is not None:
            by_faction.setdefault(card.faction, []).append(card)
    return Catalogue(
        sets=sets,
        factions=factions,
        cards=cards,
        _by_faction={key: tuple(value) for key, value in by_faction.items()},
    )


def _parse_set(path: Path, document: Any) -> tuple[CardSet, dict[str, Faction], list[Card]]:
    name = path.name
    if not isinstance(document, dict):
        raise CatalogueError(f"{name}: the file must hold one JSON object with 'set' and 'cards'")
    set_id = field_of(document, "set", str, name)
    card_set = CardSet(id=set_id, name=field_of(document, "name", str, name), path=path)
    factions: dict[str, Faction] = {}
    for raw in field_of(document, "factions", list, name):
        where = f"{name}: faction {raw.get('id', '?') if isinstance(raw, dict) else raw!r}"
        if not isinstance(raw, dict):
            raise CatalogueError(f"{where}: must be an object")
        faction_id = field_of(raw, "id", str, where)
        faction_name = field_of(raw, "name", str, where)
        if faction_id != f"{set_id}/{slug(faction_name)}":
            raise CatalogueError(
                f"{where}: field 'id' must be {set_id}/{slug(faction_name)} (set/slug of name)"
            )
        bases = tuple(field_of(raw, "bases", list, where))
        factions[faction_id] = Faction(faction_id, faction_name, set_id, bases)
    cards = [
        _parse_card(raw, set_id, factions, name) for raw in field_of(document, "cards", list, name)
    ]
    return card_set, factions, cards


def _parse_card(raw: Any, set_id: str, factions: Mapping[str, Faction], file: str) -> Card:
    if not isinstance(raw, dict):
        raise CatalogueError(f"{file}: every entry of 'cards' must be an object, got {raw!r}")
    where = f"{file}: card {raw.get('id', raw.get('name', '?'))}"
    card_id = field_of(raw, "id", str, where)
    card_name = field_of(raw, "name", str, where)
    if card_id != f"{set_id}/{slug(card_name)}":
        raise CatalogueError(f"{where}: field 'id' must be {set_id}/{slug(card_name)}")
    card_type = field_of(raw, "type", str, where)
    if card_type not in CARD_TYPES:
        raise CatalogueError(f"{where}: field 'type' must be one of {', '.join(CARD_TYPES)}")
    faction = raw.get("faction")
    if card_type in ("minion", "action") and faction not in factions:
        raise CatalogueError(f"{where}: field 'faction' names no faction of this set: {faction!r}")
    copies = field_of(raw, "copies", int, where)
    if copies < 1:
        raise CatalogueError(f"{where}: field 'copies' must be at least 1")
    values: dict[str, Any] = {}
    if card_type in ("minion", "monster") or raw.get("subtype") == "minion":
        values["power"] = optional(raw, "power", int, where)
    if card_type == "action" or (card_type == "treasure" and raw.get("subtype") == "action"):
        values["play"] = choice(raw, "play", ("minion", "base", "standard"), where)
    if card_type == "base":
        values["breakpoint"] = optional(raw, "breakpoint", int, where)
        vp = field_of(raw, "vp", list, where)
        if len(vp) != 3 or not all(v is None or isinstance(v, int) for v in vp):
            raise CatalogueError(f"{where}: field 'vp' must be three VP numbers (or null)")
        values["vp"] = (vp[0], vp[1], vp[2])
        if set_id == "munchkin":
            values.update(_monsters(raw, where))
    if card_type == "monster":
        values["treasures"] = optional(raw, "treasures", int, where)
        values["undead"] = optional(raw, "undead", bool, where)
    if card_type == "treasure":
        values["subtype"] = choice(raw, "subtype", ("minion", "action"), where)
    text = optional(raw, "text", str, where)
    effects = parse_effects(raw.get("effects", []), where)
    keywords = tuple(str(k) for k in raw.get("keywords", []))
    values.update(_hand_written(raw, where))
    values["printings"] = printings_of(
        raw, where, lambda merged, name: _parse_card(merged, set_id, factions, f"{file} ({name})")
    )
    return Card(
        id=card_id,
        name=card_name,
        type=card_type,
        set=set_id,
        faction=faction if isinstance(faction, str) else None,
        copies=copies,
        text=text,
        effects=effects,
        keywords=keywords,
        confidence=raw.get("confidence") if isinstance(raw.get("confidence"), str) else None,
        **values,
    )


def _hand_written(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``manual`` and ``input`` (sentences) and ``traits`` (names)."""
    for key in ("manual", "input"):
        if raw.get(key) is not None and (not isinstance(raw[key], str) or not raw[key].strip()):
            raise CatalogueError(f"{where}: field {key!r} must be a sentence")
    traits = raw.get("traits", [])
    if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
        raise CatalogueError(f"{where}: field 'traits' must be a list of names")
    return {"manual": raw.get("manual"), "input": raw.get("input"), "traits": tuple(traits)}


def _monsters(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A Munchkin base's monster number: a number, ``null`` (unknown) or ``"per-player"``."""
    if raw.get("monsters") == "per-player":
        return {"monster_number": None, "monsters_per_player": True}
    return {"monster_number": optional(raw, "monsters", int, where)}


def _check_set_totals(
    path: Path, set_id: str, factions: Mapping[str, Faction], cards: list[Card]
) -> None:
    name = path.name
    ids = {card.id for card in cards}
    per_faction: Counter[str] = Counter()
    for card in cards:
        if card.type in ("minion", "action") and card.faction is not None:
            per_faction[card.faction] += card.copies
    for faction in factions.values():
        if per_faction[faction.id] != FACTION_SIZE:
            raise CatalogueError(
                f"{name}: faction {faction.id}: has {per_faction[faction.id]} cards, "
                f"a faction deck has {FACTION_SIZE}"
            )
        if set_id in SMASHUP_SETS and len(faction.bases) != 2:
            raise CatalogueError(f"{name}: faction {faction.id}: field 'bases' must list 2 bases")
        for base_id in faction.bases:
            if base_id not in ids:
                raise CatalogueError(f"{name}: faction {faction.id}: base {base_id} is missing")
    if set_id == "munchkin":
        totals = Counter[str]()
        for card in cards:
            kind: str = "faction" if card.type in ("minion", "action") else card.type
            totals[kind] += card.copies
        for kind, wanted in MUNCHKIN_TOTALS.items():
            if totals[kind] != wanted:
                raise CatalogueError(
                    f"{name}: set munchkin: has {totals[kind]} {kind} cards, the box has {wanted}"
                )
