"""Pure table operations: bases entering, minions played and moved, actions attached, cards
leaving play, counters, control, scoring a base and ending a turn (with the game-end check).

Each takes a :class:`Table` and returns a new one. They check what the physical table makes
impossible (a card in two places) and raise :class:`IllegalPlayError`; they never refuse a
play for going over the one-minion and one-action allowance.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.catalogue.cards import Catalogue
from companion.catalogue.effects import VpEffect
from companion.errors import CompanionError
from companion.rules.power import evaluate
from companion.rules.scoring import ScoringResult, score_base
from companion.rules.sources import Source, active, base_sources, matches
from companion.rules.table import MADNESS, Attached, Base, Buried, Minion, Table, Temporary

WINNING_VP = 15


class IllegalPlayError(CompanionError, ValueError):
    """The operation contradicts the table (e.g. the card is already somewhere else)."""


@dataclass(frozen=True, slots=True)
class Left:
    """What left play: the card, and treasure draws owed to whoever destroyed a monster."""

    tag: str
    card: str
    treasure_draws: int = 0
    also: tuple[str, ...] = ()  # tags of cards that went with it (attachments)


def where_is(table: Table, tag: str) -> str | None:
    """The zone a tagged card is at (as a base, minion, attachment or buried card), if any."""
    for base in table.bases:
        if base.tag == tag or any(a.tag == tag for a in base.attached):
            return base.zone
        if any(b.tag == tag for b in base.buried):
            return base.zone
        for minion in base.minions:
            if minion.tag == tag or any(a.tag == tag for a in minion.attached):
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
    """A minion (monster, minion treasure) enters play at ``zone``; on-play VP applies."""
    base = _require_base(table, zone)
    _require_free(table, tag)
    minion = Minion(tag=tag, card=card, owner=owner, controller=controller)
    table = table.with_base(replace(base, minions=(*base.minions, minion)))
    return _vp_trigger(table, catalogue, card, tag, zone, controller, owner, "play")


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
        replace(origin, minions=tuple(m for m in origin.minions if m.tag != tag))
    )
    return table.with_base(replace(target, minions=(*target.minions, minion)))


def attach_to_base(
    table: Table, zone: str, tag: str, card: str, controller: str | None, owner: str | None
) -> Table:
    base = _require_base(table, zone)
    _require_free(table, tag)
    action = Attached(tag=tag, card=card, controller=controller, owner=owner)
    return table.with_base(replace(base, attached=(*base.attached, action)))


def attach_to_minion(
    table: Table, target: str, tag: str, card: str, controller: str | None, owner: str | None
) -> Table:
    found = table.locate(target)
    if found is None:
        raise IllegalPlayError(f"minion {target} is not in play")
    _require_free(table, tag)
    base, minion = found
    action = Attached(tag=tag, card=card, controller=controller, owner=owner)
    updated = replace(minion, attached=(*minion.attached, action))
    return table.with_base(
        replace(base, minions=tuple(updated if m.tag == target else m for m in base.minions))
    )


def leave_play(table: Table, catalogue: Catalogue, tag: str) -> tuple[Table, Left]:
    """The card with ``tag`` leaves play (destroyed, or discarded by an ability).

    A minion takes its attachments and counters with it. A destroyed monster owes its
    treasure number in treasure draws to whoever destroyed it (the caller decides who).
    """
    for base in table.bases:
        if base.tag == tag:
            raise IllegalPlayError(f"base {tag} cannot be destroyed; score it or replace it")
        for action in base.attached:
            if action.tag == tag:
                kept = tuple(a for a in base.attached if a.tag != tag)
                return table.with_base(replace(base, attached=kept)), Left(tag, action.card)
        for minion in base.minions:
            for action in minion.attached:
                if action.tag == tag:
                    updated = replace(
                        minion, attached=tuple(a for a in minion.attached if a.tag != tag)
                    )
                    minions = tuple(updated if m.tag == minion.tag else m for m in base.minions)
                    return table.with_base(replace(base, minions=minions)), Left(tag, action.card)
            if minion.tag == tag:
                return _minion_leaves(table, catalogue, base, minion)
    raise IllegalPlayError(f"card {tag} is not in play")


def _minion_leaves(
    table: Table, catalogue: Catalogue, base: Base, minion: Minion
) -> tuple[Table, Left]:
    # Abilities that trigger on leaving read the table as it was while the minion was there.
    before = table
    card = catalogue[minion.card]
    table = table.with_base(
        replace(base, minions=tuple(m for m in base.minions if m.tag != minion.tag))
    )
    table = table.without_temporaries_on({minion.tag})
    leaving = (minion.tag,)
    table = _vp_trigger_on(before, table, catalogue, base, minion, leaving, "leave")
    table = _vp_trigger_on(before, table, catalogue, base, minion, leaving, "minion-leaves-here")
    draws = (card.treasures or 0) if card.is_monster else 0
    return table, Left(minion.tag, minion.card, draws, tuple(a.tag for a in minion.attached))


def _vp_trigger(
    table: Table,
    catalogue: Catalogue,
    card_id: str,
    tag: str,
    zone: str,
    controller: str | None,
    owner: str | None,
    on: str,
) -> Table:
    card = catalogue[card_id]
    for index, effect in enumerate(card.effects):
        if isinstance(effect, VpEffect) and effect.on == on:
            source = Source(card, index, effect, controller, zone, tag)
            if not active(table, catalogue, source, effect.when):
                continue
            player = owner if effect.who == "owner" else controller
            if player is not None:
                table = table.add_vp(player, effect.amount)
    return table


def _vp_trigger_on(
    before: Table,
    table: Table,
    catalogue: Catalogue,
    base: Base,
    minion: Minion,
    leaving: tuple[str],
    on: str,
) -> Table:
    """VP triggered by ``minion`` leaving ``base``: ``leave`` effects of the minion itself,
    ``minion-leaves-here`` effects of the base and the other cards there."""
    for source in base_sources(base, catalogue):
        effect = source.effect
        if not isinstance(effect, VpEffect) or effect.on != on:
            continue
        if (source.tag in leaving) != (on == "leave"):
            continue
        if not matches(before, catalogue, minion, effect.filter):
            continue
        if not active(before, catalogue, source, effect.when):
            continue
        player = minion.owner if effect.who == "owner" else source.controller
        if player is not None:
            table = table.add_vp(player, effect.amount)
    return table


def add_counters(table: Table, tag: str, delta: int) -> Table:
    """Add (or remove, with a negative delta) +1 power counters; never fewer than 0."""
    found = table.locate(tag)
    if found is None:
        raise IllegalPlayError(f"minion {tag} is not in play")
    base, minion = found
    updated = replace(minion, counters=max(0, minion.counters + delta))
    return table.with_base(
        replace(base, minions=tuple(updated if m.tag == tag else m for m in base.minions))
    )


def set_control(table: Table, tag: str, player: str | None) -> Table:
    found = table.locate(tag)
    if found is None:
        raise IllegalPlayError(f"minion {tag} is not in play")
    if player is not None and player not in table.players:
        raise IllegalPlayError(f"{player} is not playing")
    base, minion = found
    updated = replace(minion, controller=player)
    return table.with_base(
        replace(base, minions=tuple(updated if m.tag == tag else m for m in base.minions))
    )


def add_madness(table: Table, player: str, delta: int) -> Table:
    seat = table.seat(player)
    madness = list(table.madness)
    madness[seat] = max(0, madness[seat] + delta)
    return replace(table, madness=tuple(madness), madness_in_game=True)


def add_temporary(table: Table, temporary: Temporary) -> Table:
    return replace(table, temporaries=(*table.temporaries, temporary))


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
    return replace(table, scoring=zone)


def award(table: Table, catalogue: Catalogue) -> tuple[Table, ScoringResult]:
    """The chosen base scores at the current powers (even if no longer ready), VP are
    given, everything on it leaves play (not destroyed) and its zone waits for a new base."""
    if table.scoring is None:
        raise IllegalPlayError("no base has been chosen to score")
    zone = table.scoring
    result = score_base(table, catalogue, zone)
    for placing in result.ranking:
        table = table.add_vp(placing.player, placing.vp)
    table, _ = release_buried(table, zone)
    table = table.without_base(zone)
    return replace(table, scoring=None), result


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
    table = replace(table, madness=tuple(madness)).with_base(replace(base, buried=()))
    return table, base.buried


def end_turn(table: Table) -> Table:
    """End the current turn: one-turn effects expire, the game-end check runs, and the
    next seat clockwise starts (unless the game is over)."""
    kept = tuple(t for t in table.temporaries if t.expires_after_turn > table.turn)
    table = replace(table, temporaries=kept)
    winners = game_winners(table)
    if winners:
        return replace(table, winners=winners)
    return replace(table, current=(table.current + 1) % len(table.players), turn=table.turn + 1)


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
