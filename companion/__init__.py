"""Table companion: NFC-tagged tabletop card games, a pure rules engine, a durable event log."""

from companion.catalogue.cards import Card, Catalogue, load_catalogue
from companion.errors import CatalogueError, CompanionError, StoreError, TapeError

__all__ = [
    "Card",
    "Catalogue",
    "CatalogueError",
    "CompanionError",
    "StoreError",
    "TapeError",
    "load_catalogue",
]
