"""The rules for a push the league has seen before, and for a result it does not believe.

Pure. A push whose game id is already stored is the same game sent again (a retry, a table
that lost the answer) only if it comes from the same table with the same tape and the same
claim; anything else under that id is a conflict, refused and never merged. A received result
counts only if our own replay of the tape agrees with everything the table claimed.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.league.engine import Replayed
from companion.league.payload import Push


@dataclass(frozen=True, slots=True)
class Stored:
    """What the league kept of the first push of a game id."""

    table: str
    tape_digest: str
    digest: str


def repeat_conflict(stored: Stored, push: Push, table: str) -> str | None:
    """``None`` if ``push`` is the stored game sent again, else why it conflicts."""
    if stored.table != table:
        return (
            f"game {push.id} was sent by table {stored.table!r}; a table cannot send another "
            "table's game (check the table's id prefix)"
        )
    if stored.tape_digest != push.tape_digest:
        return (
            f"game {push.id} is already stored with a different tape; nothing was changed "
            "(ask the organiser to void the stored game if this one is right)"
        )
    if stored.digest != push.digest:
        return (
            f"game {push.id} is already stored with the same tape but a different claim "
            "(status, winners, VP or guests); nothing was changed"
        )
    return None


def dispute(push: Push, replayed: Replayed) -> list[str]:
    """Why the table's claim and our replay disagree (nothing: the result counts)."""
    if push.status == "void":
        return []
    reasons = []
    if replayed.error is not None:
        reasons.append(f"the tape does not replay: {replayed.error}")
    elif not replayed.winners:
        reasons.append("the tape ends before anyone has won")
    if set(push.claimed_winners) != set(replayed.winners):
        reasons.append(
            f"the table says {_who(push.claimed_winners)} won; "
            f"the rules engine says {_who(replayed.winners)}"
        )
    for seat in replayed.seats:
        claimed = push.claimed_vp.get(seat.name)
        if claimed != seat.vp:
            reasons.append(f"{seat.name}: the table says {claimed} VP, the rules engine {seat.vp}")
    return reasons


def _who(names: tuple[str, ...]) -> str:
    return " and ".join(names) if names else "nobody"
