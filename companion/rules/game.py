"""Pure table operations: bases entering, minions played and moved, actions attached, cards
leaving play, counters, control, scoring a base and ending a turn (with the game-end check).

Each takes a :class:`Table` and returns a new one (leaving play is :mod:`.leaving`). They
check what the physical table makes impossible (a card in two places) and raise
:class:`IllegalPlayError`; they never refuse a play for going over the one-minion and
one-action allowance.
"""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.rules.leaving import SCORED, leaving_vp, play_vp
from companion.rules.leaving import Left as Left
from companion.rules.leaving import leave_play as leave_play
from companion.rules.one_turn import bind_armed
from companion.rules.power import evaluate
from companion.rules.scoring import ScoringResult, score_base
from companion.rules.table import MADNESS, Attached, Base, Buried, Loan, Minion, Table, Temporary
from companion.rules.table import IllegalPlayError as IllegalPlayError
from companion.rules.values import revise

WINNING_VP = 15


def where_is(table: Table, tag: str) -> str | None:
    """The zone a tagged card is at (as a base, minion, attachment or buried card), if any."""
    # plain loops: this runs several times a step, and a generator per card list cost more
    # than the comparisons
    for base in table.bases:
        if base.tag == tag:
            return base.zone
        for action in base.attached:
            if action.tag == tag:
                return base.zone
        for buried in base.buried:
            if buried.tag == tag:
                return base.zone
        for minion in base.minions:
            if minion.tag == tag:
                return base.zone
            for action in minion.attached:
                if action.tag == tag:
                    return base.zone
    return None


def _require_free(table: Table, tag: str) -> None:
    zone = where_is(table, tag)
    if zone is not None:
        raise IllegalPlayError(f"card {tag} is already in play at {zone}")


def _require_base(table: Table, zone: str) -> Base:
    base = table.base_at(zone)
    if base is None:
        raise IllegalPlayError(f"there is no base at {zone}")
    return base


def enter_base(table: Table, zone: str, card: str, tag: str | None = None) -> Table:
    if table.base_at(zone) is not None:
        raise IllegalPlayError(f"{zone} already has a base")
    if tag is not None:
        _require_free(table, tag)
    return table.with_base(Base(zone=zone, card=card, tag=tag))


def play_minion(
    table: Table,
    catalogue: Catalogue,
    zone: str,
    tag: str,
    card: str,
    owner: str | None,
    controller: str | None,
) -> Table:
    """A minion (monster, minion treasure) enters play at ``zone``; cancels waiting for the
    next minion its controller plays there reach it, then its on-play VP applies."""
    base = _require_base(table, zone)
    _require_free(table, tag)
    minion = Minion(tag=tag, card=card, owner=owner, controller=controller)
    table = table.with_base(revise(base, minions=(*base.minions, minion)))
    table = bind_armed(table, catalogue, tag, zone, controller)
    return play_vp(table, catalogue, tag, zone)


def move_minion(table: Table, tag: str, zone: str) -> Table:
    """The minion moves with its counters and attachments (moving is not playing)."""
    found = table.locate(tag)
    if found is None:
        raise IllegalPlayError(f"minion {tag} is not in play")
    origin, minion = found
    if origin.zone == zone:
        raise IllegalPlayError(f"minion {tag} is already at {zone}")
    target = _require_base(table, zone)
    table = table.with_base(
        revise(origin, minions=tuple(m for m in origin.minions if m.tag != tag))
    )
    return table.with_base(revise(target, minions=(*target.minions, minion)))


def attach_to_base(
    table: Table, zone: str, tag: str, card: str, controller: str | None, owner: str | None
) -> Table:
    base = _require_base(table, zone)
    _require_free(table, tag)
    action = Attached(tag=tag, card=card, controller=controller, owner=owner)
    return table.with_base(revise(base, attached=(*base.attached, action)))


def attach_to_minion(
    table: Table, target: str, tag: str, card: str, controller: str | None, owner: str | None
) -> Table:
    found = table.locate(target)
    if found is None:
        raise IllegalPlayError(f"minion {target} is not in play")
    _require_free(table, tag)
    base, minion = found
    action = Attached(tag=tag, card=card, controller=controller, owner=owner)
    updated = revise(minion, attached=(*minion.attached, action))
    return table.with_base(
        revise(base, minions=tuple(updated if m.tag == target else m for m in base.minions))
    )


def add_counters(table: Table, tag: str, delta: int) -> Table:
    """Add (or remove, with a negative delta) +1 power counters on a minion, or on an action
    on a base (Summon Wolves); never fewer than 0."""
    found = table.locate(tag)
    if found is None:
        return _action_counters(table, tag, delta)
    base, minion = found
    updated = revise(minion, counters=max(0, minion.counters + delta))
    return table.with_base(
        revise(base, minions=tuple(updated if m.tag == tag else m for m in base.minions))
    )


def _action_counters(table: Table, tag: str, delta: int) -> Table:
    for base in table.bases:
        for action in base.attached:
            if action.tag == tag:
                updated = revise(action, counters=max(0, action.counters + delta))
                attached = tuple(updated if a.tag == tag else a for a in base.attached)
                return table.with_base(revise(base, attached=attached))
    raise IllegalPlayError(f"minion {tag} is not in play")


def lend(table: Table, tag: str, player: str) -> Table:
    """``player`` takes control of ``tag`` until the end of this turn (Charm): then it goes
    back to whoever controlled it before."""
    found = table.locate(tag)
    if found is None:
        raise IllegalPlayError(f"minion {tag} is not in play")
    previous = next((loan.previous for loan in table.loans if loan.tag == tag), found[1].controller)
    loans = tuple(loan for loan in table.loans if loan.tag != tag)
    table = revise(table, loans=(*loans, Loan(tag, previous, table.turn)))
    return set_control(table, tag, player)


def set_control(table: Table, tag: str, player: str | None) -> Table:
    found = table.locate(tag)
    if found is None:
        raise IllegalPlayError(f"minion {tag} is not in play")
    if player is not None and player not in table.players:
        raise IllegalPlayError(f"{player} is not playing")
    base, minion = found
    updated = revise(minion, controller=player)
    return table.with_base(
        revise(base, minions=tuple(updated if m.tag == tag else m for m in base.minions))
    )


def add_madness(table: Table, player: str, delta: int) -> Table:
    seat = table.seat(player)
    madness = list(table.madness)
    madness[seat] = max(0, madness[seat] + delta)
    return revise(table, madness=tuple(madness), madness_in_game=True)


def add_temporary(table: Table, temporary: Temporary) -> Table:
    return revise(table, temporaries=(*table.temporaries, temporary))


def choose_to_score(table: Table, catalogue: Catalogue, zone: str) -> Table:
    """The current player picks a ready base: its before-scoring window opens."""
    if table.scoring is not None:
        raise IllegalPlayError(f"the base at {table.scoring} is being scored; award it first")
    _require_base(table, zone)
    view = evaluate(table, catalogue).base(zone)
    if not view.ready:
        raise IllegalPlayError(
            f"the base at {zone} is not ready: {view.total} power of {view.breakpoint}"
        )
    return revise(table, scoring=zone)


def award(table: Table, catalogue: Catalogue) -> tuple[Table, ScoringResult]:
    """The chosen base scores at the current powers (even if no longer ready), VP are
    given, everything on it leaves play (not destroyed) and its zone waits for a new base."""
    if table.scoring is None:
        raise IllegalPlayError("no base has been chosen to score")
    zone = table.scoring
    result = score_base(table, catalogue, zone)
    before = table
    for placing in result.ranking:
        table = table.add_vp(placing.player, placing.vp)
    base = table.base_at(zone)
    assert base is not None
    table = leaving_vp(before, table, catalogue, [(base, m) for m in base.minions], SCORED)
    table, _ = release_buried(table, zone)
    table = table.without_base(zone)
    return revise(table, scoring=None), result


def release_buried(table: Table, zone: str) -> tuple[Table, tuple[Buried, ...]]:
    """The base at ``zone`` scored or leaves play: the cards still buried there go to their
    owners' discard piles (a Madness card back to its controller's count)."""
    base = table.base_at(zone)
    if base is None or not base.buried:
        return table, ()
    madness = list(table.madness)
    for card in base.buried:
        if card.card == MADNESS:
            madness[table.seat(card.controller)] += 1
    table = revise(table, madness=tuple(madness)).with_base(revise(base, buried=()))
    return table, base.buried


def end_turn(table: Table) -> Table:
    """End the current turn: one-turn effects expire, control taken for the turn goes back,
    the game-end check runs, and the next seat clockwise starts (unless the game is over)."""
    kept = tuple(t for t in table.temporaries if t.expires_after_turn > table.turn)
    if len(kept) != len(table.temporaries):  # a new table only where something expired
        table = revise(table, temporaries=kept)
    for loan in table.loans:
        if loan.expires_after_turn <= table.turn and table.locate(loan.tag) is not None:
            table = set_control(table, loan.tag, loan.previous)
    loans = tuple(t for t in table.loans if t.expires_after_turn > table.turn)
    if len(loans) != len(table.loans):
        table = revise(table, loans=loans)
    winners = game_winners(table)
    if winners:
        return revise(table, winners=winners)
    return revise(table, current=(table.current + 1) % len(table.players), turn=table.turn + 1)


def buried_madness(table: Table) -> tuple[int, ...]:
    """Madness cards each seat has buried: they still count against their controller at the
    end of the game (Oops rulebook, Burying: Scoring)."""
    counts = [0] * len(table.players)
    for base in table.bases:
        for card in base.buried:
            if card.card == MADNESS:
                counts[table.seat(card.controller)] += 1
    return tuple(counts)


def madness_counted(table: Table) -> tuple[int, ...]:
    """Madness cards counted against each seat: held ones plus buried ones they control."""
    return tuple(a + b for a, b in zip(table.madness, buried_madness(table), strict=True))


def final_vp(table: Table) -> tuple[int, ...]:
    """VP after the Madness penalty (1 VP per 2 Madness cards) where Madness is in the game."""
    if not table.madness_in_game:
        return table.vp
    counted = madness_counted(table)
    return tuple(vp - madness // 2 for vp, madness in zip(table.vp, counted, strict=True))


def game_winners(table: Table) -> tuple[str, ...]:
    """Who wins if the game ends now: () while nobody has 15 VP, or while the most VP are
    tied (play on). With Madness in the game, ties go to fewer Madness cards, further
    ties share the win."""
    if max(table.vp, default=0) < WINNING_VP:
        return ()
    scores = final_vp(table)
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    if len(leaders) > 1 and table.madness_in_game:
        counted = madness_counted(table)
        fewest = min(counted[seat] for seat in leaders)
        leaders = [seat for seat in leaders if counted[seat] == fewest]
        return tuple(table.players[seat] for seat in leaders)
    if len(leaders) > 1:
        return ()
    return (table.players[leaders[0]],)
