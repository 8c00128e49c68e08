"""Hooks for the core set and Monster Smash: abilities the vocabulary cannot say.

None today: Jammed Signal's cancelling is the ``cancel`` effect kind
(:mod:`companion.rules.abilities`). The module stays as the core sets' place for hooks.
"""

from __future__ import annotations

from companion.rules.modifiers import Hooks

HOOKS: Hooks = {}
