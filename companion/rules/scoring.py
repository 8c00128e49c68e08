"""Scoring a base: placings with ties, scoring abilities, and the Munchkin treasure draft."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from companion.catalogue.cards import Catalogue
from companion.catalogue.effects import ScoreEffect, TreasureEffect, VpEffect
from companion.rules.power import BaseView, TableView, evaluate
from companion.rules.sources import Source, active, base_sources, multiplier
from companion.rules.table import Table
from companion.tape.documents import ScoringDocument


@dataclass(frozen=True, slots=True)
class Placing:
    player: str
    power: int
    place: int
    vp: int


@dataclass(frozen=True)
class ScoringResult:
    zone: str
    card: str
    ranking: tuple[Placing, ...]
    treasure_count: int
    treasure_order: tuple[str, ...]

    def vp_of(self, player: str) -> int:
        return sum(p.vp for p in self.ranking if p.player == player)

    @cached_property
    def document(self) -> ScoringDocument:
        """Its entry in the state document's ``scorings``, built once (a night's list grows,
        and a tap must not cost more for it); treat it as read-only."""
        return {
            "zone": self.zone,
            "card": self.card,
            "ranking": [
                {"player": p.player, "power": p.power, "place": p.place, "vp": p.vp}
                for p in self.ranking
            ],
            "treasures": {"count": self.treasure_count, "order": list(self.treasure_order)},
        }


def clockwise_from(players: Sequence[str], first: int) -> list[str]:
    return [players[(first + step) % len(players)] for step in range(len(players))]


def rank(
    power: Mapping[str, int],
    eligible: Iterable[str],
    vp: Sequence[int | None],
    order: Sequence[str],
) -> tuple[Placing, ...]:
    """Placings at a scoring base.

    Only ``eligible`` players place (the rulebook: at least one minion or 1 power there).
    A player's place is one more than the number of players with strictly more power, so
    tied players share the best place they tie for and the places after them are skipped
    (10/10/5 gives 1, 1, 3). Places past the third, or with no VP printed, give 0 VP.
    ``order`` is the seat order starting at the current player; it orders ties for display.

    >>> [(p.place, p.vp) for p in rank({"A": 10, "B": 10, "C": 5}, "ABC", (4, 2, 1), "ABC")]
    [(1, 4), (1, 4), (3, 1)]
    """
    chosen = set(eligible)
    seated = [player for player in order if player in chosen]
    seated.sort(key=lambda player: -power.get(player, 0))  # stable: ties stay clockwise
    placings = []
    for player in seated:
        mine = power.get(player, 0)
        place = 1 + sum(1 for other in seated if power.get(other, 0) > mine)
        award = (vp[place - 1] or 0) if place <= len(vp) else 0
        placings.append(Placing(player, mine, place, award))
    return tuple(placings)


def eligible_players(view: BaseView) -> set[str]:
    return set(view.present) | {player for player, value in view.power.items() if value >= 1}


def treasure_draft(
    power: Mapping[str, int], participants: Iterable[str], count: int, order: Sequence[str]
) -> tuple[str, ...]:
    """Who picks each revealed treasure, in turn: players with a minion at the base, by
    power highest first, ties broken clockwise from the current player, cycling until
    ``count`` treasures are taken.

    >>> treasure_draft({"A": 9, "B": 4}, ["A", "B"], 5, ["A", "B", "C"])
    ('A', 'B', 'A', 'B', 'A')
    """
    chosen = set(participants)
    pickers = [player for player in order if player in chosen]
    pickers.sort(key=lambda player: -power.get(player, 0))
    if not pickers or count <= 0:
        return ()
    return tuple(pickers[i % len(pickers)] for i in range(count))


def score_base(
    table: Table, catalogue: Catalogue, zone: str, view: TableView | None = None
) -> ScoringResult:
    """Score the base at ``zone`` at the current powers (whether or not it is still ready:
    once chosen, a base finishes scoring). ``view`` saves evaluating the table again."""
    base_view = (view or evaluate(table, catalogue)).base(zone)
    base = table.base_at(zone)
    assert base is not None, zone
    card = catalogue[base.card]
    order = clockwise_from(table.players, table.current)
    ranking = rank(base_view.power, eligible_players(base_view), card.vp or (0, 0, 0), order)
    # Scoring abilities sit on the base and its cards (one-turn effects only change power).
    here = list(base_sources(base, catalogue))
    ranking = _apply_score_effects(table, catalogue, base_view, ranking, here)
    treasures = sum(
        catalogue[m.card].treasures or 0 for m in base.minions if _monster(catalogue, m.card)
    )
    for source in here:
        effect = source.effect
        if isinstance(effect, TreasureEffect) and active(table, catalogue, source, effect.when):
            treasures += effect.amount * multiplier(table, catalogue, source, effect.per)
    treasures = max(0, treasures)
    draft = treasure_draft(base_view.power, base_view.present, treasures, order)
    return ScoringResult(zone, base.card, ranking, treasures, draft)


def _monster(catalogue: Catalogue, card_id: str) -> bool:
    return catalogue[card_id].is_monster


def _apply_score_effects(
    table: Table,
    catalogue: Catalogue,
    view: BaseView,
    ranking: tuple[Placing, ...],
    here: list[Source],
) -> tuple[Placing, ...]:
    extra: dict[str, int] = {}
    placings = {p.player: p for p in ranking}
    base = table.base_at(view.zone)
    assert base is not None
    for source in here:
        effect = source.effect
        if isinstance(effect, ScoreEffect) and active(table, catalogue, source, effect.when):
            if effect.replaces:
                placings = {name: replace(p, vp=0) for name, p in placings.items()}
            for player, gained in _score_effect(effect, source, view, base.minions, placings):
                extra[player] = extra.get(player, 0) + gained
        elif isinstance(effect, VpEffect) and effect.on == "base-scored":
            if not active(table, catalogue, source, effect.when):
                continue
            who = _vp_receivers(effect.who, source, placings)
            for player in who:
                extra[player] = extra.get(player, 0) + effect.amount
    # Every receiver above is placed: a player with a minion there is always eligible.
    return tuple(replace(p, vp=p.vp + extra.get(p.player, 0)) for p in placings.values())


def _score_effect(
    effect: ScoreEffect,
    source: Source,
    view: BaseView,
    minions: Sequence[object],
    placings: Mapping[str, Placing],
) -> list[tuple[str, int]]:
    if effect.rule == "winner-vp-per-power":
        return [
            (p.player, effect.amount * (p.power // effect.step))
            for p in placings.values()
            if p.place == 1
        ]
    if effect.rule == "vp-per-minion":
        counts: dict[str, int] = {}
        for minion in minions:
            controller = getattr(minion, "controller", None)
            if controller is not None:
                counts[controller] = counts.get(controller, 0) + 1
        return [(player, effect.amount * n) for player, n in counts.items()]
    if effect.rule == "bonus-over-total":
        if view.total < effect.total:
            return []
        return [(p.player, effect.amount) for p in placings.values() if p.place <= effect.places]
    # place-bonus: the source's controller, if placed well enough
    placing = placings.get(source.controller or "")
    if placing is not None and placing.place <= effect.place:
        return [(placing.player, effect.amount)]
    return []


def _vp_receivers(who: str, source: Source, placings: Mapping[str, Placing]) -> list[str]:
    if who == "winner":
        return [p.player for p in placings.values() if p.place == 1]
    if source.controller is not None and source.controller in placings:
        return [source.controller]
    return []
