"""Hooks for card abilities the effect vocabulary cannot say, one module per set.

Importing this package registers them all (see :mod:`companion.rules.hooks`).
"""

from companion.rules.card_hooks import (
    core_sets,  # noqa: F401
    oops_munchkin,  # noqa: F401
)
