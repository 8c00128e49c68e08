"""A plausible Munchkin Cthulhu game, move by move, for the self-playing demo.

Each move is chosen from the state document the table shows now: answer an open prompt, roll
for a runner, help a fighter who is losing, play a card against the fighter (an enhancer, a
one-shot for the monster), resolve; outside a fight, put an item or a class in play, sell, curse
a rival, kick open the door (a monster the player can usually beat, so the game reaches a
winner), end the turn. Pure: the randomness and the document come in as arguments.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from companion.catalogue.cthulhu import CthulhuCatalogue
from companion.tape.documents import CombatDocument, CthulhuDocument, CthulhuPlayerDocument

Line = dict[str, Any]
#: more moves than any game takes: a plan that cannot finish stops here
MAX_MOVES: Final = 5000


@dataclass
class _Turn:
    """What the current player did this turn."""

    turn: int = 0
    setup: int = 0
    fought: bool = False
    fight_moves: int = 0
    helped: bool = False
    answered: set[int] = field(default_factory=set)  #: prompt ids answered this turn


@dataclass
class _Pools:
    """Tags by card kind."""

    kinds: dict[str, list[str]] = field(default_factory=dict)
    levels: dict[str, int] = field(default_factory=dict)  #: monsters' printed Levels
    #: class cards the plan has played (the document names classes by card, not tag)
    classes: set[str] = field(default_factory=set)

    def free(self, kind: str, document: CthulhuDocument) -> list[str]:
        used = in_play(document)
        return [t for t in self.kinds.get(kind, []) if t not in used]


def in_play(document: CthulhuDocument) -> set[str]:
    """Every tag the document shows in play (in front of a player or in the fight)."""
    used: set[str] = set()
    for player in document["players"]:
        held = (*player["items"], *player["kept"], *player["boons"], *player["attached"])
        used |= {h["tag"] for h in held}
    used |= {c["tag"] for c in document["cultist_pile"]}
    fight = document["combat"]
    if fight:
        used |= {o["tag"] for o in fight["one_shots"]} | {e["tag"] for e in fight["effects"]}
        for foe in fight["monsters"]:
            used |= {foe["tag"]} | {e["tag"] for e in foe["enhancers"] + foe["one_shots"]}
    return used


def cthulhu_lines(
    rng: random.Random,
    tags: Mapping[str, str],
    cards: CthulhuCatalogue,
    now: Callable[[], CthulhuDocument | None],
) -> Iterator[Line]:
    """Moves until the game has a winner (``now`` gives the table's state document, ``None``
    once the table plays no Munchkin Cthulhu game)."""
    pools = _Pools()
    for uid, card in sorted(tags.items()):
        if card in cards:
            pools.kinds.setdefault(cards[card].kind, []).append(uid)
            pools.levels[uid] = cards[card].level or 0
    turn = _Turn()
    for _ in range(MAX_MOVES):
        document = now()
        if document is None or document["winners"]:
            return
        if document["turn"] != turn.turn:
            turn = _Turn(turn=document["turn"])
        yield _move(rng, document, pools, cards, turn)


def _seat(document: CthulhuDocument, name: str) -> str:
    names = [p["name"] for p in document["players"]]
    return f"seat-{names.index(name) + 1}"


def _move(
    rng: random.Random,
    document: CthulhuDocument,
    pools: _Pools,
    cards: CthulhuCatalogue,
    turn: _Turn,
) -> Line:
    if document["prompts"]:
        prompt = document["prompts"][-1]
        pick = 0 if prompt["kind"] in ("choose-item", "declare") else len(prompt["options"]) - 1
        if prompt["kind"] == "choose-side" and rng.random() < 0.5:
            pick = 0
        if prompt["id"] in turn.answered:  # answered once: that is enough (Ignore is last)
            pick = len(prompt["options"]) - 1
        turn.answered.add(prompt["id"])
        return {"input": "answer", "prompt": prompt["id"], "option": pick}
    running = document.get("running")
    if running:
        return {"input": "run-away", "player": running["players"][0], "roll": rng.randint(1, 6)}
    fight = document["combat"]
    if fight:
        return _in_fight(rng, document, fight, pools, turn)
    return _out_of_fight(rng, document, pools, turn)


def _in_fight(
    rng: random.Random, document: CthulhuDocument, fight: CombatDocument, pools: _Pools, turn: _Turn
) -> Line:
    turn.fight_moves += 1
    if turn.fight_moves <= 3:
        losing = not fight["winning"]
        others = [p["name"] for p in document["players"] if p["name"] != fight["fighter"]]
        if losing and fight["helper"] is None and not turn.helped:
            turn.helped = True
            return {"input": "help", "player": rng.choice(others)}
        roll = rng.random()
        enhancers = pools.free("monster enhancer", document)
        if roll < 0.25 and enhancers:
            return {"tap": rng.choice(enhancers), "zone": "combat"}  # a rival makes it stronger
        shots = pools.free("one-shot item", document)
        if roll < 0.5 and shots:
            return {"tap": rng.choice(shots), "zone": "combat"}
    turn.fought = True
    return {"input": "resolve"}


def _out_of_fight(
    rng: random.Random, document: CthulhuDocument, pools: _Pools, turn: _Turn
) -> Line:
    me = next(p for p in document["players"] if p["name"] == document["current_player"])
    if turn.fought:
        return {"input": "end-turn"}
    if turn.setup < 2 and rng.random() < 0.6:
        turn.setup += 1
        return _setup(rng, document, pools, me)
    turn.fought = True  # kicking the door open: the fight starts with this tap
    monsters = pools.free("monster", document)
    beatable = [t for t in monsters if pools.levels[t] < me["strength"] + 2]
    return {"tap": rng.choice(beatable or monsters), "zone": "combat"}


def _setup(
    rng: random.Random, document: CthulhuDocument, pools: _Pools, me: CthulhuPlayerDocument
) -> Line:
    """Before the door: an item or a class in play, a sale, or a curse on a rival."""
    seat = _seat(document, me["name"])
    roll = rng.random()
    if roll < 0.15 and len(me["items"]) >= 3 and me["level"] < 8:
        return {"input": "sell", "player": me["name"], "tags": [i["tag"] for i in me["items"]]}
    if roll < 0.3:
        rivals = [p["name"] for p in document["players"] if p["name"] != me["name"]]
        curses = pools.free("curse", document)
        if curses:
            return {"tap": rng.choice(curses), "zone": _seat(document, rng.choice(rivals))}
    if roll < 0.4 and not me["classes"]:
        classes = [t for t in pools.free("class", document) if t not in pools.classes]
        if classes:
            chosen = rng.choice(classes)
            pools.classes.add(chosen)
            return {"tap": chosen, "zone": seat}
    items = pools.free("item", document) or pools.free("go-up-a-level", document)
    return {"tap": rng.choice(items), "zone": seat} if items else {"input": "dismiss"}
