"""Munchkin Cthulhu's table as immutable values: players, what is in front of them, the fight.

Every change makes a new :class:`MCTable` (old ones stay valid, which makes undo a pop).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from companion.errors import CompanionError

MAX_LEVEL: Final = 10
ESCAPE_ROLL: Final = 5  #: "You only escape on a 5 or better."
GOLD_PER_LEVEL: Final = 1000
Side = Literal["players", "monsters"]


class RulesError(CompanionError):
    """What the table makes impossible; the message says what to do instead."""


@dataclass(frozen=True, slots=True)
class Held:
    """A tagged card in front of a player or in the fight."""

    tag: str
    card: str


@dataclass(frozen=True, slots=True)
class Attached:
    """A card played on one of the player's items (an item enhancer, Cheat!, Curse! Weapon
    Becomes Evil): it stays with that item (``item``: the item's tag)."""

    held: Held
    item: str


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    sex: str | None = None
    level: int = 1
    classes: tuple[Held, ...] = ()
    items: tuple[Held, ...] = ()  #: carried, in the order they came into play
    kept: tuple[Held, ...] = ()  #: monster enhancers a Cultist keeps as a lasting bonus
    #: cards kept in front of the player that change the rules for them (Super Munchkin,
    #: Created Using Cinematic Rules, Corrupted By Power)
    boons: tuple[Held, ...] = ()
    attached: tuple[Attached, ...] = ()
    #: curses waiting for the player's next fight (Change Sex's -5, Flashlight Goes Out's -3)
    penalties: tuple[Held, ...] = ()
    #: Bad Stuff that lasts until the player next gains a Level: ``no-helping`` (Geek Ones),
    #: ``no-asking`` (The Unpronounceable Evil)
    bans: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Foe:
    tag: str
    card: str
    enhancers: tuple[Held, ...] = ()
    #: one-shots played for this monster (the monsters' side)
    one_shots: tuple[Held, ...] = ()
    wandering: bool = False  #: brought in by a Wandering Monster


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A labelled +/- a person added to one side for what the table cannot see."""

    side: Side
    amount: int
    label: str


@dataclass(frozen=True, slots=True)
class Combat:
    fighter: str
    helper: str | None = None
    monsters: tuple[Foe, ...] = ()
    one_shots: tuple[Held, ...] = ()  #: bonuses played for the players' side
    #: fight-wide cards (The Stars Are Right / Wrong / Confused, Kicker Ichor, Quicker Ichor)
    effects: tuple[Held, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    #: items put into play during the fight: they count from the next one ("Once you expose a
    #: monster card, you must resolve the fight with your equipment as it stands")
    arrived: tuple[str, ...] = ()
    #: tags whose condition a person declared (Coggoth's even hand)
    declared: tuple[str, ...] = ()
    #: curses counting in this fight: (player, curse)
    penalties: tuple[tuple[str, Held], ...] = ()
    #: Quicker Ichor's +2 or -2 to every Run Away roll after this fight
    run_bonus: int = 0
    wandering: int = 0  #: Wandering Monster cards waiting for their monster


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the last combat ended (``levels`` and ``treasures`` are the fighter's)."""

    won: bool
    fighter: str
    helper: str | None
    levels: int
    treasures: int


@dataclass(frozen=True, slots=True)
class Escape:
    """Players who lost a fight and still have to roll to run away."""

    players: tuple[str, ...]
    monsters: tuple[Foe, ...]
    fighter: str = ""
    run_bonus: int = 0
    caught: tuple[str, ...] = ()  #: who did not escape so far
    #: (player, monster tag) rolls made: "If you are fleeing from multiple monsters, you roll
    #: separately to escape each one, in any order you choose"
    rolled: tuple[tuple[str, str], ...] = ()

    def pending(self, name: str) -> tuple[Foe, ...]:
        """The monsters ``name`` still has to roll against."""
        return tuple(f for f in self.monsters if (name, f.tag) not in self.rolled)


@dataclass(frozen=True, slots=True)
class Looting:
    """A dead player's cards in play, taken one each by the others, highest Level first."""

    dead: str
    order: tuple[str, ...]
    cards: tuple[Held, ...]
    taken: int = 0

    @property
    def next(self) -> str | None:
        return self.order[self.taken] if self.taken < len(self.order) and self.cards else None


@dataclass(frozen=True)
class MCTable:
    players: tuple[Player, ...]
    current: int = 0
    turn: int = 1
    combat: Combat | None = None
    last_combat: Outcome | None = None
    escape: Escape | None = None
    winners: tuple[str, ...] = ()
    #: Cultist cards discarded: "put it in a separate discard pile" (Become a Cultist takes one)
    cultist_pile: tuple[Held, ...] = ()
    looting: Looting | None = None

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        raise RulesError(f"{name!r} is not playing; players: {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def current_player(self) -> str:
        return self.players[self.current].name

    def with_player(self, player: Player) -> MCTable:
        return replace(
            self, players=tuple(player if p.name == player.name else p for p in self.players)
        )

    def fighting(self) -> tuple[str, ...]:
        """The fighter and the helper of the fight in progress (none without one)."""
        if self.combat is None:
            return ()
        helper = (self.combat.helper,) if self.combat.helper else ()
        return (self.combat.fighter, *helper)


def new_table(names: tuple[str, ...], sex: dict[str, str]) -> MCTable:
    return MCTable(players=tuple(Player(name, sex.get(name)) for name in names))
