"""Munchkin Cthulhu taps: a card's kind and the zone say what it means (a seat, the fight,
the discard pile); anything else is a prompt, never a guess."""

from __future__ import annotations

import re
from dataclasses import replace

from companion.catalogue.cthulhu import CthulhuCatalogue, MCCard
from companion.cthulhu import rules
from companion.cthulhu.rules import Held, MCTable, Player
from companion.cthulhu.state import (
    MCOutcome,
    MCState,
    after_checks,
    ask,
    changed,
    checked,
    event,
    signed,
)
from companion.errors import Rejected
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
        outcome = _combat(state, held, card)
    else:
        player = _seat(state, zone)
        if player is None:  # a shared pad: the tablet says where the card went
            return _where(state, held, card)
        outcome = _at_seat(state, held, card, player, cards)
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


def _holder(table: MCTable, uid: str) -> tuple[Player, str] | None:
    """Who has the card in front of them, and as what (classes, items, kept)."""
    for player in table.players:
        for group in ("classes", "items", "kept"):
            if any(h.tag == uid for h in getattr(player, group)):
                return player, group
    return None


def _at_seat(
    state: MCState, held: Held, card: MCCard, name: str, cards: CthulhuCatalogue
) -> MCOutcome:
    table = state.table
    player = table.player(name)
    if table.winners:
        return ask(
            state,
            "game-over",
            f"The game is over ({' and '.join(table.winners)} won). Undo to go on.",
        )
    if card.kind == "class":
        return _take_class(state, held, card, player, cards)
    if card.kind == "item":
        holder = _holder(table, held.tag)
        if holder is not None and holder[0].name == name:
            return ask(state, "already-here", f"{name} already carries {card.name}.", tag=held.tag)
        if holder is not None:
            giver = holder[0]
            table = table.with_player(
                replace(giver, items=tuple(h for h in giver.items if h.tag != held.tag))
            )
            player = table.player(name)
        table = table.with_player(replace(player, items=(*player.items, held)))
        text = f"{name} carries {card.name}" + (f" (from {holder[0].name})" if holder else "")
        return changed(state, table, event("item", text, player=name, tag=held.tag, card=card.id))
    if card.kind == "go-up-a-level":
        table = rules.change_level(table, name, 1)
        return changed(
            state,
            table,
            event(
                "level", f"{name} played {card.name}: +1 Level", player=name, delta=1, card=card.id
            ),
        )
    if card.kind == "monster enhancer" and card.cultist_bonus and rules.is_cultist(player, cards):
        table = table.with_player(replace(player, kept=(*player.kept, held)))
        return changed(
            state,
            table,
            event(
                "kept",
                f"{name} keeps {card.name}: +{card.modifier}",
                player=name,
                tag=held.tag,
                card=card.id,
            ),
        )
    if card.kind in ("monster", "monster enhancer", "one-shot item"):
        text = f"{card.name} is played at the combat pad, not at {name}'s seat."
        return ask(state, "wrong-zone", text, tag=held.tag)
    note = f"{card.name} on {name}: resolve it by hand ({card.text or 'no text known'})"
    return MCOutcome(state, (event("note", note, card=card.id),))


def _take_class(
    state: MCState, held: Held, card: MCCard, player: Player, cards: CthulhuCatalogue
) -> MCOutcome:
    if any(c.tag == held.tag for c in player.classes):
        return ask(
            state, "already-here", f"{player.name} is already a {card.class_name}.", tag=held.tag
        )
    current = rules.class_names(player, cards)
    if card.class_name in current:  # another Cultist card: "there is no further effect"
        return MCOutcome(state, (event("note", f"{player.name} is already a {card.class_name}"),))
    kept = tuple(c for c in player.classes if cards[c.card].class_name == "Cultist")
    replaced = [cards[c.card].class_name for c in player.classes if c not in kept]
    updated = replace(player, classes=(*kept, held))
    article = "an" if str(card.class_name)[0] in "AEIOU" else "a"
    text = f"{player.name} is {article} {card.class_name}" + (
        f" (was {', '.join(map(str, replaced))})" if replaced else ""
    )
    return changed(
        state,
        state.table.with_player(updated),
        event("class", text, player=player.name, card=card.id),
    )


def _combat(state: MCState, held: Held, card: MCCard) -> MCOutcome:
    table = state.table
    if card.kind == "monster":
        joining = table.combat is not None
        table = checked(lambda: rules.fight(state.table, held))
        assert table.combat is not None
        verb = "joins the fight" if joining else f"is fought by {table.combat.fighter}"
        return changed(
            state, table, event("monster", f"{card.name} {verb}", tag=held.tag, card=card.id)
        )
    if card.kind == "monster enhancer":
        table = checked(lambda: rules.enhance(state.table, held))
        return changed(
            state,
            table,
            event(
                "enhanced",
                f"{card.name}: {signed(card.modifier)} to the monster",
                tag=held.tag,
                card=card.id,
            ),
        )
    if card.kind == "one-shot item" and card.bonus is not None:
        table = checked(lambda: rules.one_shot(state.table, held))
        return changed(
            state,
            table,
            event(
                "one-shot",
                f"{card.name}: {signed(card.bonus)} to the players",
                tag=held.tag,
                card=card.id,
            ),
        )
    note = f"{card.name} in the fight: resolve it by hand ({card.text or 'no text known'})"
    return MCOutcome(state, (event("note", note, card=card.id),))


def _without(player: Player, group: str, tag: str) -> Player:
    if group == "classes":
        return replace(player, classes=tuple(h for h in player.classes if h.tag != tag))
    if group == "items":
        return replace(player, items=tuple(h for h in player.items if h.tag != tag))
    return replace(player, kept=tuple(h for h in player.kept if h.tag != tag))


def _discard(state: MCState, held: Held, card: MCCard, cards: CthulhuCatalogue) -> MCOutcome:
    table = state.table
    holder = _holder(table, held.tag)
    if holder is not None:
        player, group = holder
        updated = _without(player, group, held.tag)
        if group == "classes" and not rules.is_cultist(updated, cards):
            updated = replace(updated, kept=())  # enhancers kept by a Cultist go with the class
        text = f"{card.name} left {player.name}"
        return changed(
            state,
            table.with_player(updated),
            event("left", text, tag=held.tag, card=card.id, player=player.name),
        )
    combat = table.combat
    if combat is not None:
        monsters = tuple(m for m in combat.monsters if m.tag != held.tag)
        monsters = tuple(
            replace(m, enhancers=tuple(e for e in m.enhancers if e.tag != held.tag))
            for m in monsters
        )
        one_shots = tuple(o for o in combat.one_shots if o.tag != held.tag)
        if monsters != combat.monsters or one_shots != combat.one_shots:
            ended = not monsters
            fight = None if ended else replace(combat, monsters=monsters, one_shots=one_shots)
            text = f"{card.name} left the fight" + (
                " (the fight is over, without a result)" if ended else ""
            )
            return changed(
                state,
                replace(table, combat=fight),
                event("left", text, tag=held.tag, card=card.id),
            )
    return ask(
        state,
        "not-in-play",
        f"{card.name} is not in play, so there is nothing to discard.",
        tag=held.tag,
        zone="discard",
    )
