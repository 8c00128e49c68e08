"""+1 power counters that cards place, remove or move, for the tracker.

A card's ``counters`` effect acts when its trigger happens: placed at once when the card
says exactly where (on itself, its bearer, the minion just played, each of your minions),
otherwise a prompt whose options each put ``amount`` on one chosen minion, one answer per
counter. ``move-counters`` prompts (from, to) pairs. Inputs: ``counter`` (``tag``, ``delta``),
``move-counters`` (``from``, ``to``, ``count``), ``talent`` (``tag``: use a Talent).
"""

from __future__ import annotations

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.effect_terms import Filter, Scope
from companion.catalogue.table_effects import CountersEffect, MoveCountersEffect
from companion.errors import CompanionError
from companion.rules import game as rules
from companion.rules.counters import move_counters
from companion.rules.power import evaluate
from companion.rules.sources import Source, active, in_scope, matches
from companion.rules.table import Minion
from companion.tape.documents import Line
from companion.tape.english import plural
from companion.tape.prompts import Option
from companion.tracker import one_turn
from companion.tracker.common import ask, card_label, event, merge, need, note
from companion.tracker.state import Outcome, Rejected, TrackerState, evolve
from companion.tracker.trigger import Trigger as Trigger
from companion.tracker.trigger import cancelled
from companion.tracker.words import counters_from

HERE_SCOPES = {Scope.HERE, Scope.OTHER_HERE, Scope.MINE_HERE, Scope.OTHER_MINE_HERE}


def fire(state: TrackerState, trigger: Trigger, on: str, catalogue: Catalogue) -> Outcome:
    """Every counters and move-counters effect of ``trigger.card`` with trigger ``on``, then
    its triggered one-turn effects; nothing if its abilities are cancelled."""
    # both kinds are effects "on" a moment: most cards have none on this one, and then whether
    # their abilities are cancelled (a scan of the table's status) does not matter
    if all(getattr(effect, "on", None) != on for effect in trigger.card.effects):
        return Outcome(state)
    if cancelled(state.table, trigger, catalogue):
        return Outcome(state)
    outcome = Outcome(state)
    for index, effect in enumerate(trigger.card.effects):
        if isinstance(effect, CountersEffect) and effect.on == on:
            outcome = merge(outcome, _counters(outcome.state, trigger, index, effect, catalogue))
        elif isinstance(effect, MoveCountersEffect) and effect.on == on:
            outcome = merge(outcome, _move_prompt(outcome.state, trigger, effect, catalogue))
    return merge(outcome, one_turn.fire(outcome.state, trigger, on, catalogue))


def _counters(
    state: TrackerState, trigger: Trigger, index: int, effect: CountersEffect, cat: Catalogue
) -> Outcome:
    table = state.table
    source = Source(
        trigger.card, index, effect, trigger.controller, trigger.zone, trigger.tag, trigger.bearer
    )
    if not active(table, cat, source, effect.when):
        return Outcome(state)
    if effect.behind and not _behind(state, trigger, cat):
        return Outcome(state)
    if effect.once:
        key = f"{trigger.tag or trigger.zone}:{trigger.card.id}"
        if key in state.used:
            return Outcome(state)
        state = evolve(state, used=state.used | {key})
    if effect.target == "next":
        if trigger.controller is None:
            return Outcome(state)
        owed = dict(state.next_minion)
        owed[trigger.controller] = owed.get(trigger.controller, 0) + effect.amount
        text = f"{trigger.card.name}: the next minion {trigger.controller} plays gets a counter"
        return Outcome(evolve(state, next_minion=tuple(owed.items())), (note(text),), True)
    if effect.target == "self" and trigger.tag is not None and table.locate(trigger.tag) is None:
        return place(state, {trigger.tag: effect.amount}, trigger.card.name)  # on an action
    chosen = _targets(state, trigger, source, effect, cat)
    if effect.target == "choose" or effect.may or effect.count == 0:
        return _prompt(state, trigger, effect, chosen, cat)
    return place(state, {minion.tag: effect.amount for minion in chosen}, trigger.card.name)


def _targets(
    state: TrackerState, trigger: Trigger, source: Source, effect: CountersEffect, cat: Catalogue
) -> list[Minion]:
    table = state.table
    fixed = {
        "self": trigger.tag,
        "bearer": trigger.bearer,
        "played": trigger.played,
        "duelist": trigger.duelist,
    }.get(effect.target)
    if effect.target in ("self", "bearer", "played", "duelist"):
        found = table.locate(fixed) if fixed is not None else None
        return [found[1]] if found is not None else []
    if effect.target == "winners":
        return [m for _, m in table.minions() if m.controller in trigger.winners]
    return in_scope(table, cat, source, effect.scope, effect.filter)


def _behind(state: TrackerState, trigger: Trigger, cat: Catalogue) -> bool:
    """Some opponent has more power at the trigger's base than its controller."""
    if trigger.zone is None or state.table.base_at(trigger.zone) is None:
        return False
    power = evaluate(state.table, cat).base(trigger.zone).power
    mine = power.get(trigger.controller or "", 0)
    return any(value > mine for player, value in power.items() if player != trigger.controller)


def _prompt(
    state: TrackerState,
    trigger: Trigger,
    effect: CountersEffect,
    chosen: list[Minion],
    cat: Catalogue,
) -> Outcome:
    if not chosen:
        return Outcome(state, (note(f"{trigger.card.name}: no minion to take its counters"),))
    verb = "Put" if effect.amount > 0 else "Take"
    word = f"{abs(effect.amount)} counter{'s' if abs(effect.amount) != 1 else ''}"
    where = "on" if effect.amount > 0 else "off"
    options = [
        Option(
            f"{verb} {word} {where} {card_label(state, cat, m.tag)}",
            {"input": "counter", "tag": m.tag, "delta": effect.amount},
        )
        for m in chosen
    ]
    left = None if effect.count == 0 else effect.count
    times = "any number of times" if left is None else plural(left, "time")
    text = f"{trigger.card.name}: {verb.lower()} +1 power counters ({word}, {times})"
    return ask(state, "counters", text, options, tag=trigger.tag, zone=trigger.zone, left=left)


def _move_prompt(
    state: TrackerState, trigger: Trigger, effect: MoveCountersEffect, cat: Catalogue
) -> Outcome:
    table = state.table
    source = Source(trigger.card, 0, effect, trigger.controller, trigger.zone, trigger.tag)
    if effect.source == "self":
        found = table.locate(trigger.tag) if trigger.tag is not None else None
        givers = [found[1]] if found is not None else []
    else:
        givers = in_scope(table, cat, source, Scope.MINE, Filter())
    takers = in_scope(table, cat, source, effect.scope, Filter())
    options = [
        Option(
            f"Move a counter from {card_label(state, cat, g.tag)} "
            f"to {card_label(state, cat, t.tag)}",
            {"input": "move-counters", "from": g.tag, "to": t.tag, "count": 1},
        )
        for g in givers
        if g.counters > 0
        for t in takers
        if t.tag != g.tag
    ]
    if not options:
        return Outcome(state, (note(f"{trigger.card.name}: no counters to move"),))
    left = None if effect.count == 0 else effect.count
    text = f"{trigger.card.name}: move +1 power counters, one an answer"
    return ask(state, "counters", text, options, tag=trigger.tag, zone=trigger.zone, left=left)


def place(state: TrackerState, deltas: dict[str, int], why: str) -> Outcome:
    """Put (or take off) counters on minions (or actions on bases) in play at once, with an
    event each."""
    table = state.table
    events = []
    for tag, delta in deltas.items():
        if delta == 0 or rules.where_is(table, tag) is None:
            continue
        table = rules.add_counters(table, tag, delta)
        events.append(event("counters", tag=tag, delta=delta, text=counters_from(why, delta)))
    return Outcome(evolve(state, table=table), tuple(events), bool(events))


def played(
    state: TrackerState, uid: str, zone: str, controller: str, catalogue: Catalogue
) -> Outcome:
    """A minion was played at ``zone``: its own on-play counters, the counters it is owed
    (It's Alive!), and the ``minion-played-here`` abilities of the base and cards there."""
    card = catalogue[state.table.locate(uid)[1].card]  # type: ignore[index]
    outcome = fire(state, Trigger(card, uid, controller, zone), "play", catalogue)
    owed = dict(outcome.state.next_minion)
    if owed.get(controller):
        amount = owed.pop(controller)
        cleared = evolve(outcome.state, next_minion=tuple(owed.items()))
        outcome = merge(outcome, place(cleared, {uid: amount}, "entered with counters"))
    return merge(outcome, played_here(outcome.state, uid, zone, controller, catalogue))


def played_here(
    state: TrackerState, uid: str, zone: str, controller: str, catalogue: Catalogue
) -> Outcome:
    """The ``minion-played-here`` abilities of the base at ``zone`` and the cards there, for
    ``uid`` just played by ``controller`` (a monster too: the Smash Up: Munchkin rulebook,
    "Monsters are minions, and their abilities trigger just as with normal minions")."""
    outcome = Outcome(state)
    base = state.table.base_at(zone)
    if base is None:
        return outcome
    here: list[Trigger] = [Trigger(catalogue[base.card], base.tag, None, zone, played=uid)]
    here += [
        Trigger(catalogue[a.card], a.tag, a.controller, zone, played=uid) for a in base.attached
    ]
    here += [
        Trigger(catalogue[m.card], m.tag, m.controller, zone, played=uid)
        for m in base.minions
        if m.tag != uid
    ]
    for trigger in here:
        if trigger.controller is not None and trigger.controller != controller:
            continue  # "each minion you play there"
        outcome = merge(outcome, fire(outcome.state, trigger, "minion-played-here", catalogue))
    return outcome


def discarded(
    state: TrackerState,
    gone: list[tuple[Minion, str]],
    catalogue: Catalogue,
    *,
    destroyed: bool,
) -> Outcome:
    outcome = Outcome(state)
    for minion, zone in gone:
        for base, other in list(outcome.state.table.minions()):
            card = catalogue[other.card]
            triggers: list[tuple[Trigger, str]] = []
            for effect in card.effects:
                if not isinstance(effect, CountersEffect):
                    continue
                if effect.on == "other-mine-discarded" and other.controller == minion.controller:
                    triggers.append((Trigger(card, other.tag, other.controller, base.zone), ""))
            if destroyed:
                triggers += _watchers(outcome.state, minion, zone, catalogue, base.zone, other)
            for trigger, on in triggers:
                outcome = merge(
                    outcome, fire(outcome.state, trigger, on or "other-mine-discarded", catalogue)
                )
    return outcome


def _watchers(
    state: TrackerState, minion: Minion, zone: str, cat: Catalogue, at: str, other: Minion
) -> list[tuple[Trigger, str]]:
    """The minion ``other`` (at ``at``) and the actions on it that watch for destruction."""
    found: list[tuple[Trigger, str]] = []
    sources: list[tuple[Card, str, str | None, str | None]] = [
        (cat[other.card], other.tag, other.controller, None)
    ]
    sources += [(cat[a.card], a.tag, a.controller, other.tag) for a in other.attached]
    for card, tag, controller, bearer in sources:
        for effect in card.effects:
            if not isinstance(effect, CountersEffect) or effect.on != "minion-destroyed":
                continue
            if effect.opponents and minion.controller in (None, controller):
                continue
            if effect.scope in HERE_SCOPES and at != zone:
                continue
            if not matches(state.table, cat, minion, effect.filter):
                continue
            found.append((Trigger(card, tag, controller, at, bearer=bearer), "minion-destroyed"))
            break
    return found


def counter_input(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    tag = str(need(line, "tag", str, "a tag uid")).upper()
    delta = need(line, "delta", int, "a whole number of counters (may be negative)")
    if state.table.locate(tag) is None:
        raise Rejected(f"{tag} is not in play as a minion (buried cards take no counters)")
    table = rules.add_counters(state.table, tag, delta)
    return Outcome(evolve(state, table=table), (event("counters", tag=tag, delta=delta),), True)


def move_input(state: TrackerState, line: Line, catalogue: Catalogue) -> Outcome:
    origin = str(need(line, "from", str, "the tag of the minion giving counters")).upper()
    target = str(need(line, "to", str, "the tag of the minion taking them")).upper()
    count = line.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool):
        raise Rejected('"count" is a whole number of counters')
    try:
        table = move_counters(state.table, origin, target, count)
    except CompanionError as exc:
        raise Rejected(str(exc)) from None
    moved = event("counters-moved", origin=origin, target=target, count=count)
    return Outcome(evolve(state, table=table), (moved,), True)
