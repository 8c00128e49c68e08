"""Hooks for card abilities the effect vocabulary cannot say, one module per set.

Each module lists its hooks in a ``HOOKS`` mapping; :mod:`companion.rules.hooks` joins them
into the one registry the power rules consult (nothing registers itself on import).
"""
