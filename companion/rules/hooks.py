"""Named computations for the few abilities the declarative vocabulary cannot say.

A hook receives the table, the catalogue, its :class:`~companion.rules.sources.Source` and the
modifiers being added up, and adds to them. Register one with :func:`hook`; a card names it
with ``{"kind": "hook", "name": "..."}``. An unknown name is caught by the catalogue test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.catalogue.cards import Catalogue
    from companion.rules.sources import Source
    from companion.rules.table import Table

HookFn = Callable[["Table", "Catalogue", "Source", Any], None]
HOOKS: dict[str, HookFn] = {}


def hook(name: str) -> Callable[[HookFn], HookFn]:
    def register(fn: HookFn) -> HookFn:
        HOOKS[name] = fn
        return fn

    return register


def run(name: str, table: Table, catalogue: Catalogue, source: Source, mods: Any) -> None:
    registered()[name](table, catalogue, source, mods)


def registered() -> dict[str, HookFn]:
    """Every hook, after importing the per-set hook modules that register them."""
    import companion.rules.card_hooks  # noqa: F401  (registers on import)

    return HOOKS
