"""The registry of hooks: named computations for the few abilities the declarative vocabulary
cannot say. A card names one with ``{"kind": "hook", "name": "..."}``; an unknown name is
caught by the catalogue test. Each set's hooks are listed here explicitly.
"""

from __future__ import annotations

from companion.rules.card_hooks import core_sets, oops_munchkin
from companion.rules.modifiers import Hooks

HOOKS: Hooks = {**core_sets.HOOKS, **oops_munchkin.HOOKS}
