"""+1 power counters moving between minions (Monster Smash rulebook: "+1 Power Counters";
Oops rulebook Terms: "Transfer"). Pure. Placing and removing is
:func:`companion.rules.game.add_counters`; a minion leaving play drops its counters (they are
part of the :class:`~companion.table.Minion` that leaves)."""

from __future__ import annotations

from companion.rules.game import IllegalPlayError, add_counters
from companion.rules.table import Table
from companion.tape.english import plural


def move_counters(table: Table, origin: str, target: str, count: int = 1) -> Table:
    """Transfer ``count`` counters from the minion ``origin`` to the minion ``target``.

    :raises IllegalPlayError: either is not in play, they are the same, or ``origin`` has
        fewer than ``count`` counters.
    """
    found, other = table.locate(origin), table.locate(target)
    if found is None or other is None:
        raise IllegalPlayError(f"minion {origin if found is None else target} is not in play")
    if origin == target:
        raise IllegalPlayError("counters move to a different minion")
    if count < 1 or found[1].counters < count:
        raise IllegalPlayError(
            f"minion {origin} has {plural(found[1].counters, 'counter')}; cannot move {count}"
        )
    return add_counters(add_counters(table, origin, -count), target, count)
