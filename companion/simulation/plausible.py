"""Random but legal Smash Up games, as tape lines: for property tests, benchmarks and the demo.

Randomness comes from the ``random.Random`` passed in, so a seed gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.errors import Rejected
from companion.rules.game import where_is
from companion.rules.power import evaluate
from companion.rules.table import Table
from companion.simulation.answers import dismiss_index, next_response
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
    state = game.smashup
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


SHARED_DECKS = ("base", "monster", "treasure")


class _Table:
    """Decks, hands and discard piles of a plausible game (the tracker only sees taps)."""

    def __init__(self, rng: random.Random, header: dict[str, Any], catalogue: Catalogue) -> None:
        self.rng = rng
        self.catalogue = catalogue
        tags: dict[str, str] = header["tags"]
        by_type: dict[str, list[str]] = {}
        for uid, card_id in tags.items():
            by_type.setdefault(catalogue[card_id].type, []).append(uid)
        #: the shared decks (bases, monsters, treasures), each card of the kind once
        self.kinds = {kind: sorted(by_type.get(kind, [])) for kind in SHARED_DECKS}
        self.piles = {kind: self.shuffled(self.kinds[kind]) for kind in SHARED_DECKS}
        self.decks: dict[str, list[str]] = {}
        self.hands: dict[str, list[str]] = {}
        self.owned: dict[str, list[str]] = {}
        for player, factions in header["factions"].items():
            self.owned[player] = sorted(
                u for u, c in tags.items() if catalogue[c].faction in factions
            )
            self.decks[player] = self.shuffled(self.owned[player])
            self.hands[player] = []
            self.draw(player, 5, None)

    def shuffled(self, items: list[str]) -> list[str]:
        items = sorted(items)
        self.rng.shuffle(items)
        return items

    def draw(self, player: str, count: int, table: Table | None) -> None:
        """``count`` cards from the player's deck; an empty deck is their discard pile
        shuffled (their cards neither in play nor in their hand), as the rulebook says."""
        for _ in range(count):
            deck = self.decks[player]
            if not deck and table is not None:
                hand = set(self.hands[player])
                gone = [
                    u for u in self.owned[player] if u not in hand and where_is(table, u) is None
                ]
                deck.extend(self.shuffled(gone))
            if deck:
                self.hands[player].append(deck.pop())

    def take(self, kind: str, table: Table) -> str | None:
        """The top card of a shared deck. An empty one is made again from its discard pile,
        shuffled ("Shuffle the base or monster discard pile if needed"): every card of that
        kind neither in play nor in a hand."""
        pile = self.piles[kind]
        if not pile:
            held = {uid for hand in self.hands.values() for uid in hand}
            gone = [u for u in self.kinds[kind] if u not in held and where_is(table, u) is None]
            pile.extend(self.shuffled(gone))
        return pile.pop() if pile else None


#: the most lines a table sends on its own after one play (a guard, never reached in practice)
MAX_RESPONSES = 40


class _Play:
    """A plausible game being made: the tracker's game, the table's cards, the tape's clock."""

    def __init__(self, rng: random.Random, header: dict[str, Any], catalogue: Catalogue) -> None:
        self.rng = rng
        self.catalogue = catalogue
        self.game = Game(parse_header(header, catalogue), catalogue)
        self.deal = _Table(rng, header, catalogue)
        self.clock = 0.0

    def act(self, line: Line) -> Iterator[Line]:
        """Play ``line``, then everything the table answers to it."""
        yield self.emit(line)
        yield from self._respond()

    def emit(self, line: Line) -> Line:
        self.clock += self.rng.uniform(4.0, 30.0)
        self.game.apply(line)  # :raises Rejected: (the state is then unchanged)
        stamped = line.copy()
        stamped["at"] = round(self.clock, 1)
        return stamped

    def _respond(self) -> Iterator[Line]:
        """Prompts answered, a duel resolved, treasures handed out, as a table would."""
        for _ in range(MAX_RESPONSES):
            state = self.game.smashup
            line = next_response(state, self.rng)
            if line is None:
                return
            if line["input"] == "dealt":
                self._hand_out()
            try:
                yield self.emit(line)
            except Rejected:  # the offer no longer fits the table: pass on it
                if line["input"] != "answer":
                    return
                ignore = dismiss_index(next(p for p in state.prompts if p.id == line["prompt"]))
                yield self.emit({**line, "option": ignore or 0})

    def _hand_out(self) -> None:
        """The treasures of the oldest deal go to the hands: one pick, or a whole draw."""
        deal = self.game.smashup.deals[0]
        picks = deal.order[deal.taken :] if deal.kind == "draw" else deal.order[deal.taken :][:1]
        for picker in picks:
            treasure = self.deal.take("treasure", self.game.smashup.table)
            if treasure is not None:
                self.deal.hands[picker].append(treasure)


def plausible_lines(
    rng: random.Random, header: dict[str, Any], catalogue: Catalogue, max_turns: int = 400
) -> Iterator[Line]:
    """A whole game as people would play it: one minion and one action a turn, bases scored
    when they break, new bases and their monsters, every prompt answered and treasures dealt
    at once, until someone wins."""
    yield from _lines(_Play(rng, header, catalogue), header, max_turns)


def plausible_game(
    rng: random.Random, header: dict[str, Any], catalogue: Catalogue, max_turns: int = 400
) -> tuple[list[Line], Game]:
    """:func:`plausible_lines` whole, with the tracker's game after the last of them: what the
    table would claim, without replaying the lines through another game."""
    play = _Play(rng, header, catalogue)
    return list(_lines(play, header, max_turns)), play.game


def _lines(play: _Play, header: dict[str, Any], max_turns: int) -> Iterator[Line]:
    zones = [z for z in header["zones"] if z.startswith("base-")]
    for zone in zones:
        yield from _new_base(play, zone)
    for _ in range(max_turns):
        player = play.game.smashup.table.current_player
        yield from _play_turn(play, player, zones)
        yield from _score_ready(play)
        yield from play.act({"input": "end-turn"})
        if play.game.smashup.table.winners:
            return
        play.deal.draw(player, 2, play.game.smashup.table)


def _new_base(play: _Play, zone: str) -> Iterator[Line]:
    deal = play.deal
    uid = deal.take("base", play.game.smashup.table)
    if uid is None:
        return
    yield from play.act({"tap": uid, "zone": zone})
    for _ in range(play.game.smashup.setup_left(zone)):
        monster = deal.take("monster", play.game.smashup.table)
        if monster is not None:
            yield from play.act({"tap": monster, "zone": zone})


def _play_turn(play: _Play, player: str, zones: list[str]) -> Iterator[Line]:
    deal, game, catalogue = play.deal, play.game, play.catalogue
    hand = deal.hands[player]
    tags = game.smashup.header.tags
    minions = [u for u in hand if catalogue[tags[u].card].is_minion]
    actions = [u for u in hand if catalogue[tags[u].card].is_action]
    live = [z for z in zones if game.smashup.table.base_at(z) is not None]
    if not live:
        return
    if minions:
        uid = deal.rng.choice(minions)
        hand.remove(uid)
        yield from play.act({"tap": uid, "zone": deal.rng.choice(live)})
    if actions:
        yield from _play_action(play, player, deal.rng.choice(actions), live)
    mine = [m.tag for _, m in game.smashup.table.minions() if m.controller == player]
    if mine and deal.rng.random() < 0.15:
        yield from play.act({"input": "counter", "tag": deal.rng.choice(mine), "delta": 1})
    monsters = [m.tag for _, m in game.smashup.table.minions() if m.controller is None]
    if monsters and deal.rng.random() < 0.2:  # a Warrior or a Mage kills a monster
        yield from play.act({"tap": deal.rng.choice(monsters), "zone": "discard"})


def _play_action(play: _Play, player: str, uid: str, live: list[str]) -> Iterator[Line]:
    game, rng = play.game, play.deal.rng
    card = play.catalogue[game.smashup.header.tags[uid].card]
    targets = [(b.zone, m.tag) for b, m in game.smashup.table.minions() if m.controller == player]
    if card.play == "minion" and not targets:
        return
    play.deal.hands[player].remove(uid)
    if card.play == "minion":
        zone, target = rng.choice(targets)
        yield play.emit({"tap": uid, "zone": zone})  # its target's tap comes next
        yield from play.act({"tap": target, "zone": zone})
    else:
        yield from play.act({"tap": uid, "zone": rng.choice(live)})


def _score_ready(play: _Play) -> Iterator[Line]:
    while not play.game.smashup.table.winners:
        view = evaluate(play.game.smashup.table, play.catalogue)
        ready = [b for b in view.bases if b.ready]
        if not ready:
            return
        zone = max(ready, key=lambda b: b.total).zone
        yield from play.act({"input": "score", "zone": zone})
        yield from play.act({"input": "award"})
        yield from _new_base(play, zone)
