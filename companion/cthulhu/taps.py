"""Munchkin Cthulhu taps: a card's kind and the zone say what it means (a seat, the fight,
the discard pile); anything else is a prompt, never a guess."""

from __future__ import annotations

import re
from dataclasses import replace

from companion.catalogue.cthulhu import CthulhuCatalogue, MCCard
from companion.cthulhu import classes as cls
from companion.cthulhu import rules
from companion.cthulhu.fight import at_combat
from companion.cthulhu.gear import EVIL
from companion.cthulhu.rules import Held, Player
from companion.cthulhu.seat import at_seat, holder
from companion.cthulhu.state import MCOutcome, MCState, after_checks, ask, changed, event
from companion.errors import Rejected
from companion.tape.documents import Line
from companion.tape.prompts import Option


def _seat(state: MCState, zone: str) -> str | None:
    found = re.fullmatch(r"seat-(\d+)", zone)
    if found is None:
        return None
    number = int(found.group(1))
    if not 1 <= number <= len(state.header.players):
        raise Rejected(f"nobody sits at {zone}: this game has {len(state.header.players)} seats")
    return state.header.players[number - 1]


def tap(state: MCState, uid: str, zone: str, cards: CthulhuCatalogue) -> MCOutcome:
    if zone not in state.header.zones:
        raise Rejected(
            f"unknown zone {zone!r}; this table's zones are {', '.join(state.header.zones)}"
        )
    bound = state.header.tags.get(uid)
    if bound is None or bound.card not in cards:
        text = f"Tag {uid} is not enrolled to any card. Enrol it, then tap it again."
        return ask(state, "unknown-tag", text, tag=uid, zone=zone)
    card = cards[bound.card]
    held = Held(uid, card.id)
    before = state.table
    if zone == "discard":
        outcome = _discard(state, held, card, cards)
    elif zone == "combat":
        outcome = at_combat(state, held, card, cards)
    else:
        player = _seat(state, zone)
        if player is None:  # a shared pad: the tablet says where the card went
            return _where(state, held, card)
        outcome = at_seat(state, held, card, player, cards)
    return after_checks(
        outcome, before, rules.cultist_check(before, outcome.state.table, cards), cards
    )


def _where(state: MCState, held: Held, card: MCCard) -> MCOutcome:
    """A card tapped on a shared pad: one option per place it can go, the likeliest first."""
    players = state.header.players
    seats = [
        Option(f"{name}'s", {"tap": held.tag, "zone": f"seat-{n}"})
        for n, name in enumerate(players, start=1)
        if f"seat-{n}" in state.header.zones
    ]
    current = state.table.current
    seats = seats[current:] + seats[:current]  # the current player's seat first
    fight = [Option("The fight", {"tap": held.tag, "zone": "combat"})]
    if "combat" not in state.header.zones:
        fight = []
    gone = [Option("Discarded", {"tap": held.tag, "zone": "discard"})]
    if "discard" not in state.header.zones:
        gone = []
    in_fight = card.kind in ("monster", "one-shot item") or (
        card.kind == "monster enhancer" and state.table.combat is not None
    )
    options = [*fight, *seats, *gone] if in_fight else [*seats, *fight, *gone]
    return ask(state, "choose-zone", f"Where does {card.name} go?", options, tag=held.tag)


def _without(player: Player, group: str, tag: str) -> Player:
    if group == "items":
        attached = tuple(a for a in player.attached if a.item != tag and a.held.tag != tag)
        items = tuple(h for h in player.items if h.tag != tag)
        return replace(player, items=items, attached=attached)
    if group == "boons":
        return replace(player, boons=tuple(h for h in player.boons if h.tag != tag))
    return replace(player, kept=tuple(h for h in player.kept if h.tag != tag))


def _discard(state: MCState, held: Held, card: MCCard, cards: CthulhuCatalogue) -> MCOutcome:
    table = state.table
    found = holder(table, held.tag)
    if found is not None and found[1] == "classes":
        return _class_discarded(state, held, card, found[0], cards)
    if found is not None:
        player, group = found
        updated = _without(player, group, held.tag)
        text = f"{card.name} left {player.name}"
        if any(a.item == held.tag and a.held.card == EVIL for a in player.attached):
            table = rules.change_level(table, player.name, -2)
            text += " (discarding the evil weapon costs 2 Levels)"
            updated = replace(updated, level=table.player(player.name).level)
        return changed(
            state,
            table.with_player(updated),
            event("left", text, tag=held.tag, card=card.id, player=player.name),
        )
    on_item = next(
        (p for p in table.players if any(a.held.tag == held.tag for a in p.attached)), None
    )
    if on_item is not None:
        kept = tuple(a for a in on_item.attached if a.held.tag != held.tag)
        text = f"{card.name} left {on_item.name}'s item"
        table = table.with_player(replace(on_item, attached=kept))
        return changed(state, table, event("left", text, tag=held.tag, card=card.id))
    left = _left_fight(state, held, card)
    if left is not None:
        return left
    return ask(
        state,
        "not-in-play",
        f"{card.name} is not in play, so there is nothing to discard.",
        tag=held.tag,
        zone="discard",
    )


def _left_fight(state: MCState, held: Held, card: MCCard) -> MCOutcome | None:
    """A monster, enhancer, one-shot or fight-wide card taken out of the fight."""
    table = state.table
    combat = table.combat
    if combat is not None:
        monsters = tuple(m for m in combat.monsters if m.tag != held.tag)
        monsters = tuple(
            replace(m, enhancers=tuple(e for e in m.enhancers if e.tag != held.tag))
            for m in monsters
        )
        monsters = tuple(
            replace(m, one_shots=tuple(o for o in m.one_shots if o.tag != held.tag))
            for m in monsters
        )
        one_shots = tuple(o for o in combat.one_shots if o.tag != held.tag)
        effects = tuple(e for e in combat.effects if e.tag != held.tag)
        if (monsters, one_shots, effects) != (combat.monsters, combat.one_shots, combat.effects):
            ended = not monsters
            fight = (
                None
                if ended
                else replace(combat, monsters=monsters, one_shots=one_shots, effects=effects)
            )
            text = f"{card.name} left the fight" + (
                " (the fight is over, without a result)" if ended else ""
            )
            return changed(
                state,
                replace(table, combat=fight),
                event("left", text, tag=held.tag, card=card.id),
            )
    return None


def _class_discarded(
    state: MCState, held: Held, card: MCCard, player: Player, cards: CthulhuCatalogue
) -> MCOutcome:
    """ "You can discard a Class card at any time . . . Exception: you *cannot* discard the
    Cultist card voluntarily": a Cultist card at the discard pad asks whether a card took it."""
    if card.class_name == "Cultist":
        text = (
            f"{player.name} cannot give up being a Cultist voluntarily: put the card back, "
            "unless a card took it"
        )
        line: Line = {"input": "lose", "player": player.name, "tag": held.tag}
        options = [Option("A card took it", line)]
        return ask(state, "not-allowed", text, options, tag=held.tag, zone="discard")
    table, text = cls.lose_class(state.table, player.name, held.tag, cards)
    return changed(
        state, table, event("left", text, tag=held.tag, card=card.id, player=player.name)
    )
