"""Random but legal Smash Up games, as tape lines: for property tests, benchmarks and the demo.

Randomness comes from the ``random.Random`` passed in, so a seed gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected
from companion.rules.power import evaluate
from companion.tape.documents import Line
from companion.tape.lines import parse_header
from companion.tracker.game import Game

FACTION_POOL = (
    "core/aliens",
    "core/dinosaurs",
    "core/ninjas",
    "core/pirates",
    "core/robots",
    "core/tricksters",
    "core/wizards",
    "core/zombies",
    "monster-smash/giant-ants",
    "monster-smash/mad-scientists",
    "monster-smash/vampires",
    "monster-smash/werewolves",
    "oops/ancient-egyptians",
    "oops/cowboys",
    "oops/samurai",
    "oops/vikings",
    "munchkin/clerics",
    "munchkin/dwarves",
    "munchkin/elves",
    "munchkin/halflings",
    "munchkin/mages",
    "munchkin/orcs",
    "munchkin/thieves",
    "munchkin/warriors",
)


def random_header(
    rng: random.Random, catalogue: Catalogue, players: int = 4, zones: int = 5
) -> dict[str, Any]:
    """A header with random factions and one tag per physical card of the sets in play."""
    names = ["Ann", "Ben", "Cat", "Dan"][:players]
    pool = [f for f in FACTION_POOL if f in catalogue.factions]
    picked = rng.sample(pool, 2 * players)
    factions = {name: picked[2 * seat : 2 * seat + 2] for seat, name in enumerate(names)}
    return make_header(names, factions, catalogue, zones)


def make_header(
    players: list[str], factions: dict[str, list[str]], catalogue: Catalogue, zones: int
) -> dict[str, Any]:
    """A header tagging every physical card of the chosen factions, and the bases of their
    sets (the rulebook's base deck), plus Munchkin monsters and treasures."""
    names = players
    picked = [f for chosen in factions.values() for f in chosen]
    tags: dict[str, str] = {}
    serial = 0
    base_sets = {f.split("/")[0] for f in picked}
    for card in catalogue:
        if card.type == "base":
            in_deck = card.set in base_sets
        else:
            munchkin_extra = card.faction is None and "munchkin" in base_sets
            in_deck = card.faction in picked or (munchkin_extra and card.set == "munchkin")
        if not in_deck:
            continue
        for _ in range(card.copies):
            serial += 1
            tags[f"04{serial:012X}"] = card.id
    return {
        "tape": 1,
        "game": "smashup",
        "players": names,
        "factions": factions,
        "zones": [f"base-{n}" for n in range(1, zones + 1)] + ["discard"],
        "tags": tags,
    }


def random_lines(
    rng: random.Random, header: dict[str, Any], catalogue: Catalogue, count: int
) -> Iterator[Line]:
    """``count`` event lines that the tracker accepts, each applied as it is made."""
    game = Game(parse_header(header, catalogue), catalogue)
    uids = sorted(header["tags"])
    base_uids = [u for u in uids if catalogue[header["tags"][u]].type == "base"]
    zones = [z for z in header["zones"] if z.startswith("base-")]
    made = 0
    while made < count:
        line = _next_line(rng, game, uids, base_uids, zones, catalogue)
        try:
            game.apply(line)
        except Rejected:
            continue
        made += 1
        yield line


def _next_line(
    rng: random.Random,
    game: Game,
    uids: list[str],
    base_uids: list[str],
    zones: list[str],
    catalogue: Catalogue,
) -> Line:
    state = game.state
    table = state.table
    if table.winners:
        return {"input": "undo"}
    if table.scoring is not None:
        return {"input": "award"} if rng.random() < 0.6 else _tap(rng, uids, zones)
    empty = [z for z in zones if table.base_at(z) is None]
    if empty:
        return {"tap": rng.choice(base_uids), "zone": rng.choice(empty)}
    if state.prompts and rng.random() < 0.7:
        prompt = rng.choice(state.prompts)
        return {
            "input": "answer",
            "prompt": prompt.id,
            "option": rng.randrange(len(prompt.options)),
        }
    roll = rng.random()
    if roll < 0.08:
        ready = [b.zone for b in evaluate(table, catalogue).bases if b.ready]
        if ready:
            return {"input": "score", "zone": rng.choice(ready)}
    if roll < 0.14:
        return {"input": "end-turn"}
    in_play = [m.tag for _, m in table.minions()]
    if roll < 0.2 and in_play:
        return {"input": "counter", "tag": rng.choice(in_play), "delta": rng.choice([1, 1, 2, -1])}
    if roll < 0.22 and in_play:
        player = rng.choice([None, *table.players])
        return {"input": "control", "tag": rng.choice(in_play), "player": player}
    if roll < 0.24:
        return {"input": "madness", "player": rng.choice(table.players), "delta": 1}
    if roll < 0.27 and game.can_undo:
        return {"input": "undo"}
    if roll < 0.35 and in_play:
        return {"tap": rng.choice(in_play), "zone": "discard"}
    return _tap(rng, uids, zones)


def _tap(rng: random.Random, uids: list[str], zones: list[str]) -> Line:
    return {"tap": rng.choice(uids), "zone": rng.choice(zones)}


class _Table:
    """Decks, hands and discard piles of a plausible game (the tracker only sees taps)."""

    def __init__(self, rng: random.Random, header: dict[str, Any], catalogue: Catalogue) -> None:
        self.rng = rng
        self.catalogue = catalogue
        tags: dict[str, str] = header["tags"]
        by_type: dict[str, list[str]] = {}
        for uid, card_id in tags.items():
            by_type.setdefault(catalogue[card_id].type, []).append(uid)
        self.bases = self._shuffled(by_type.get("base", []))
        self.monsters = self._shuffled(by_type.get("monster", []))
        self.treasures = self._shuffled(by_type.get("treasure", []))
        self.decks: dict[str, list[str]] = {}
        self.hands: dict[str, list[str]] = {}
        for player, factions in header["factions"].items():
            mine = [u for u, c in tags.items() if catalogue[c].faction in factions]
            self.decks[player] = self._shuffled(mine)
            self.hands[player] = []
            self.draw(player, 5)

    def _shuffled(self, items: list[str]) -> list[str]:
        items = sorted(items)
        self.rng.shuffle(items)
        return items

    def draw(self, player: str, count: int) -> None:
        for _ in range(count):
            if self.decks[player]:
                self.hands[player].append(self.decks[player].pop())

    def take(self, pile: list[str]) -> str | None:
        return pile.pop() if pile else None


def plausible_lines(
    rng: random.Random, header: dict[str, Any], catalogue: Catalogue, max_turns: int = 400
) -> Iterator[Line]:
    """A whole game as people would play it: one minion and one action a turn, bases scored
    when they break, new bases and their monsters, treasures dealt, until someone wins."""
    game = Game(parse_header(header, catalogue), catalogue)
    deal = _Table(rng, header, catalogue)
    clock = 0.0

    def emit(line: Line) -> Line:
        nonlocal clock
        clock += rng.uniform(4.0, 30.0)
        game.apply(line)  # a plausible game never makes an unacceptable line
        stamped = line.copy()
        stamped["at"] = round(clock, 1)
        return stamped

    zones = [z for z in header["zones"] if z.startswith("base-")]
    for zone in zones:
        yield from _new_base(deal, game, zone, emit)
    for _ in range(max_turns):
        player = game.state.table.current_player
        yield from _play_turn(deal, game, player, zones, emit)
        yield from _score_ready(deal, game, emit)
        yield emit({"input": "end-turn"})
        if game.state.table.winners:
            return
        deal.draw(player, 2)


def _new_base(deal: _Table, game: Game, zone: str, emit: Any) -> Iterator[Line]:
    uid = deal.take(deal.bases)
    if uid is None:
        return
    yield emit({"tap": uid, "zone": zone})
    for _ in range(game.state.setup_left(zone)):
        monster = deal.take(deal.monsters)
        if monster is not None:
            yield emit({"tap": monster, "zone": zone})


def _play_turn(
    deal: _Table, game: Game, player: str, zones: list[str], emit: Any
) -> Iterator[Line]:
    hand = deal.hands[player]
    catalogue = deal.catalogue
    tags = game.state.header.tags
    minions = [u for u in hand if catalogue[tags[u].card].is_minion]
    actions = [u for u in hand if catalogue[tags[u].card].is_action]
    live = [z for z in zones if game.state.table.base_at(z) is not None]
    if not live:
        return
    if minions:
        uid = deal.rng.choice(minions)
        hand.remove(uid)
        yield emit({"tap": uid, "zone": deal.rng.choice(live)})
    if actions:
        uid = deal.rng.choice(actions)
        card = catalogue[tags[uid].card]
        targets = [(b.zone, m.tag) for b, m in game.state.table.minions() if m.controller == player]
        if card.play == "minion" and not targets:
            return
        hand.remove(uid)
        if card.play == "minion":
            zone, target = deal.rng.choice(targets)
            yield emit({"tap": uid, "zone": zone})
            yield emit({"tap": target, "zone": zone})
        else:
            first = game.state.next_prompt
            yield emit({"tap": uid, "zone": deal.rng.choice(live)})
            # a one-turn effect asks for its minion, counters for theirs: answer what it asked
            for prompt in [p for p in game.state.prompts if p.id >= first]:
                yield emit({"input": "answer", "prompt": prompt.id, "option": 0})
    mine = [m.tag for _, m in game.state.table.minions() if m.controller == player]
    if mine and deal.rng.random() < 0.15:
        yield emit({"input": "counter", "tag": deal.rng.choice(mine), "delta": 1})
    monsters = [m.tag for _, m in game.state.table.minions() if m.controller is None]
    if monsters and deal.rng.random() < 0.2:  # a Warrior or a Mage kills a monster
        before = len(game.state.treasure_draws)
        yield emit({"tap": deal.rng.choice(monsters), "zone": "discard"})
        owed = game.state.treasure_draws[before:]
        for _ in range(sum(draw.count for draw in owed)):
            treasure = deal.take(deal.treasures)
            if treasure is not None:
                hand.append(treasure)


def _score_ready(deal: _Table, game: Game, emit: Any) -> Iterator[Line]:
    while True:
        view = evaluate(game.state.table, deal.catalogue)
        ready = [b for b in view.bases if b.ready]
        if not ready:
            return
        zone = max(ready, key=lambda b: b.total).zone
        yield emit({"input": "score", "zone": zone})
        yield emit({"input": "award"})
        result = game.state.scorings[-1]
        for picker in result.treasure_order:
            treasure = deal.take(deal.treasures)
            if treasure is not None:
                deal.hands[picker].append(treasure)
        yield from _new_base(deal, game, zone, emit)
