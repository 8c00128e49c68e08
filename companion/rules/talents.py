"""When a Talent may be used: the generic rule and the cards that change it.

The Oops rulebook (Terms): "Talent: This is an ability that the card may use once during the
Play Cards phase of each of your turns." So a Talent is its controller's, on that controller's
own turn, once a turn, before a base is chosen to score; a card's text may say otherwise ("when
the rulesheet disagrees with a card, follow the card"), and the ones that do are listed here by
card id, each with the words that allow it.
"""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.rules.table import IllegalPlayError, Table

#: minions that may also use their Talent just before their base scores (on any turn, once for
#: that scoring): Happy Zapper, "Special: you may also use that talent just before its base
#: scores"
BEFORE_ITS_BASE_SCORES = frozenset({"munchkin/happy-zapper"})
#: bases where one minion of the current player's gets a second use a turn: Standing Stones,
#: "On your turn, one minion of yours here gets to use its Talent a second time"
SECOND_USE_HERE = frozenset({"monster-smash/standing-stones"})


def talent_key(
    table: Table,
    catalogue: Catalogue,
    used: frozenset[str],
    tag: str,
    card: str,
    controller: str | None,
    zone: str | None,
) -> str:
    """The once-a-turn key a use of ``tag``'s Talent spends (the caller adds it to ``used``,
    which empties when a turn ends).

    :raises IllegalPlayError: the Talent may not be used now; the message says why.
    """
    name = catalogue[card].name
    if controller is None:
        raise IllegalPlayError(
            f"nobody controls {name}: a Talent is used by its controller (take control first)"
        )
    if zone is not None and table.scoring == zone and card in BEFORE_ITS_BASE_SCORES:
        key = f"talent-before-scoring:{tag}"
        if key not in used:
            return key  # its Special: one more use, just before its base scores
    if table.scoring is not None:
        raise IllegalPlayError(
            f"{name}'s Talent is used in the Play Cards phase; a base is scoring now"
        )
    if controller != table.current_player:
        raise IllegalPlayError(
            f"{name}'s Talent is used once during each of its controller's own turns"
            f" ({controller}'s); it is {table.current_player}'s turn"
        )
    key = f"talent:{tag}"
    if key not in used:
        return key
    second = _second_use(table, catalogue, used, controller, zone)
    if second is not None:
        return second
    raise IllegalPlayError(
        f"{name} already used its Talent this turn (once during each of your turns)"
    )


def _second_use(
    table: Table, catalogue: Catalogue, used: frozenset[str], controller: str, zone: str | None
) -> str | None:
    """Standing Stones' second use for one minion of the current player's there, once a turn."""
    base = table.base_at(zone) if zone is not None else None
    if base is None or base.card not in SECOND_USE_HERE:
        return None
    key = f"talent-second-use:{zone}"
    if key in used or controller != table.current_player:
        return None
    return key
