"""What a card tapped at the combat pad does: a monster fought or joining (a Wandering Monster
brings it), an enhancer or a one-shot on either side, a fight-wide card. Where the card lets
someone choose (which monster, which side), the likeliest choice is applied and the tablet
offers the others as one-tap options."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from companion.catalogue.cthulhu import CthulhuCatalogue, MCCard
from companion.cthulhu import classes as cls
from companion.cthulhu import rules
from companion.cthulhu.gear import SET
from companion.cthulhu.rules import Held, MCTable
from companion.cthulhu.seat import at_seat
from companion.cthulhu.sides import COGGOTH, KICKER, STARS_CONFUSED, STARS_RIGHT, STARS_WRONG
from companion.cthulhu.state import MCOutcome, MCState, ask, changed, checked, event, signed
from companion.tape.documents import Line
from companion.tape.prompts import Option

WANDERING: Final = SET + "wandering-monster"
#: H.P. Munchcraft: "Any non-Cultist who meets him turns Cultist at once"
MUNCHCRAFT: Final = SET + "h-p-munchcraft"
#: Bicker Ichor: "In a fight with several monsters, they fight each other: the lower-Level one
#: is discarded and gives no levels or Treasure"
BICKER: Final = SET + "bicker-ichor"
#: Quicker Ichor: "+2 or -2 to everyone's attempt in that combat"
QUICKER: Final = SET + "quicker-ichor"
FIGHT_WIDE: Final = frozenset({STARS_RIGHT, STARS_WRONG, STARS_CONFUSED, KICKER})


def _names(state: MCState, cards: CthulhuCatalogue) -> dict[str, str]:
    combat = state.table.combat
    return {f.tag: cards[f.card].name for f in combat.monsters} if combat else {}


def at_combat(state: MCState, held: Held, card: MCCard, cards: CthulhuCatalogue) -> MCOutcome:
    if card.kind == "monster":
        return _monster(state, held, card, cards)
    if held.card == WANDERING:
        table = state.table
        if table.combat is None:
            return ask(
                state, "not-allowed", "Wandering Monster joins a fight: none is on", tag=held.tag
            )
        combat = replace(table.combat, wandering=table.combat.wandering + 1)
        text = "Wandering Monster: tap the monster that joins the fight"
        return changed(state, replace(table, combat=combat), event("wandering", text, card=card.id))
    if card.kind == "monster enhancer":
        table = checked(lambda: rules.enhance(state.table, held))
        text = f"{card.name}: {signed(card.modifier)} to the monster"
        outcome = changed(state, table, event("enhanced", text, tag=held.tag, card=card.id))
        return _elsewhere(outcome, held, card, cards, "enhance")
    if held.card in FIGHT_WIDE | {BICKER, QUICKER}:
        return fight_card(state, held, cards)
    if card.kind == "curse" and state.table.combat is not None:
        return _curse(state, held, card, cards)
    if card.kind == "one-shot item" and card.bonus is not None:
        table = checked(lambda: rules.one_shot(state.table, held))
        text = f"{card.name}: {signed(card.bonus)} to the players"
        outcome = changed(state, table, event("one-shot", text, tag=held.tag, card=card.id))
        return _elsewhere(outcome, held, card, cards, "one-shot")
    note = f"{card.name} in the fight: resolve it by hand ({card.text or 'no text known'})"
    return MCOutcome(state, (event("note", note, card=card.id),))


def _elsewhere(
    outcome: MCOutcome, held: Held, card: MCCard, cards: CthulhuCatalogue, kind: str
) -> MCOutcome:
    """One-tap options to put the card on another monster (or a one-shot on a monster)."""
    names = _names(outcome.state, cards)
    combat = outcome.state.table.combat
    assert combat is not None
    current = combat.monsters[-1].tag if kind == "enhance" else None
    options = []
    for tag, name in names.items():
        if tag == current:
            continue
        line: Line = {"input": kind, "tag": held.tag, "target": tag}
        if kind == "one-shot":
            line["side"] = "monsters"
        options.append(Option(f"For {name}", line))
    if not options:
        return outcome
    text = f"{card.name} is on " + (
        "the players' side" if kind == "one-shot" else names[current or ""]
    )
    asked = ask(outcome.state, "choose-side", text + ": put it elsewhere?", options, tag=held.tag)
    return MCOutcome(asked.state, outcome.events + asked.events, True)


def _monster(state: MCState, held: Held, card: MCCard, cards: CthulhuCatalogue) -> MCOutcome:
    joining = state.table.combat is not None
    table = checked(lambda: rules.fight(state.table, held))
    assert table.combat is not None
    verb = "joins the fight" if joining else f"is fought by {table.combat.fighter}"
    events = [event("monster", f"{card.name} {verb}", tag=held.tag, card=card.id)]
    if card.id == MUNCHCRAFT:
        for name in table.fighting():
            table, text = cls.become_cultist(table, name, cards)
            events.append(event("class", f"H.P. Munchcraft: {text}", player=name))
    outcome = changed(state, table, *events)
    if card.id != COGGOTH:
        return outcome
    fighter = state.table.current_player if table.combat is None else table.combat.fighter
    line: Line = {"input": "declare", "tag": held.tag, "on": True}
    text = f"Coggoth: does {fighter} hold an even number of cards? (+3 if so)"
    asked = ask(outcome.state, "declare", text, [Option("Even: +3", line)], tag=held.tag)
    return MCOutcome(asked.state, outcome.events + asked.events, True)


def fight_card(
    state: MCState, held: Held, cards: CthulhuCatalogue, target: str | None = None, delta: int = 0
) -> MCOutcome:
    """A fight-wide card: The Stars Are Right/Wrong/Confused, Kicker Ichor (in the fight's
    ``effects``); The Stars Are Wrong with ``target`` removes that monster instead; Bicker
    Ichor discards the lower-Level monster; Quicker Ichor's ``delta`` (+2 or -2)."""
    table = state.table
    combat = table.combat
    card = cards[held.card]
    if combat is None or not combat.monsters:
        return ask(state, "not-allowed", f"{card.name} is played during a fight", tag=held.tag)
    effects = tuple(e for e in combat.effects if e.tag != held.tag)
    if held.card == BICKER or (held.card == STARS_WRONG and target is not None):
        return _remove(state, held, card, cards, target)
    if held.card == QUICKER:
        bonus = delta if delta in (2, -2) else 2
        table = replace(table, combat=replace(combat, run_bonus=bonus))
        outcome = changed(
            state, table, event("fight-card", f"{card.name}: {bonus:+} to Run Away", card=card.id)
        )
        if delta:
            return outcome
        line: Line = {"input": "fight-card", "tag": held.tag, "delta": -2}
        asked = ask(
            outcome.state,
            "choose-side",
            f"{card.name}: +2 to Run Away",
            [Option("-2 instead", line)],
            tag=held.tag,
        )
        return MCOutcome(asked.state, outcome.events + asked.events, True)
    table = replace(table, combat=replace(combat, effects=(*effects, held)))
    outcome = changed(
        state, table, event("fight-card", f"{card.name} on the whole fight", card=card.id)
    )
    if held.card != STARS_WRONG:
        return outcome
    options = [
        Option(f"Remove {name} instead", {"input": "fight-card", "tag": held.tag, "target": tag})
        for tag, name in _names(state, cards).items()
    ]
    asked = ask(
        outcome.state, "choose-side", f"{card.name}: -2 to every monster", options, tag=held.tag
    )
    return MCOutcome(asked.state, outcome.events + asked.events, True)


def _remove(
    state: MCState, held: Held, card: MCCard, cards: CthulhuCatalogue, target: str | None
) -> MCOutcome:
    combat = state.table.combat
    assert combat is not None
    if target is None:  # Bicker Ichor: the lower-Level one
        if len(combat.monsters) < 2:
            return ask(state, "not-allowed", f"{card.name} needs several monsters", tag=held.tag)
        target = min(combat.monsters, key=lambda f: cards[f.card].level or 0).tag
    foe = next((f for f in combat.monsters if f.tag == target), None)
    if foe is None:
        return ask(state, "not-allowed", f"{target} is not in this fight", tag=held.tag)
    effects = tuple(e for e in combat.effects if e.tag != held.tag)
    monsters = tuple(f for f in combat.monsters if f.tag != target)
    table = replace(state.table, combat=replace(combat, monsters=monsters, effects=effects))
    text = f"{card.name}: {cards[foe.card].name} is out of the fight (no levels, no treasure)"
    return changed(state, table, event("fight-card", text, card=card.id, tag=target))


def in_fight(table: MCTable, tag: str) -> bool:
    combat = table.combat
    if combat is None:
        return False
    tags = {e.tag for e in combat.effects} | {o.tag for o in combat.one_shots}
    for foe in combat.monsters:
        tags |= {foe.tag} | {e.tag for e in foe.enhancers} | {o.tag for o in foe.one_shots}
    return tag in tags


def _curse(state: MCState, held: Held, card: MCCard, cards: CthulhuCatalogue) -> MCOutcome:
    """A curse played into the fight goes on the fighter ("Curse them"); with a helper the
    tablet asks which of the two (each option is the tap at that player's seat)."""
    names = state.header.players
    fighting = state.table.fighting()
    if len(fighting) == 1:
        return at_seat(state, held, card, fighting[0], cards)
    options = [
        Option(name, {"tap": held.tag, "zone": f"seat-{names.index(name) + 1}"})
        for name in fighting
    ]
    return ask(state, "choose-zone", f"Who does {card.name} curse?", options, tag=held.tag)
