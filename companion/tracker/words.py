"""Every event in words, in one place, for the table screen ("Ben played Blaster Master on
Treehouse"): the core words its own events, so the table builds its view without the web.

A sentence never carries a tag's uid (a uid names a physical card: whoever saw it face up
would know the card when it lies face down): an unknown tag is "an unknown tag", a buried card
"a face-down card"."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.tape.english import plural, signed_count, unhedged, zone_label

#: what a buried card (or its tag) is called wherever a viewer could read it
FACE_DOWN = "a face-down card"
#: events that say nothing a person at the table needs to read
QUIET = frozenset({"answered", "prompt", "bound", "owner"})


def card_name(catalogue: Catalogue, card_id: str) -> str:
    """A card's printed name, from either game's catalogue (the id if it is unknown)."""
    known = catalogue.get(card_id) or catalogue.cthulhu.get(card_id)
    return known.name if known is not None else card_id


class Words:
    """Names for the ids an event carries: cards, tags (through the game's bindings), zones
    (through the base lying there now); ``hidden``: the tags of the cards lying face down."""

    def __init__(
        self,
        catalogue: Catalogue,
        tags: Mapping[str, str],
        bases: Mapping[str, str],
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        self.catalogue = catalogue
        self.tags = tags
        self.bases = dict(bases)
        self.hidden = hidden

    def card(self, card_id: object) -> str:
        return card_name(self.catalogue, str(card_id))

    def tag(self, uid: object) -> str:
        if str(uid) in self.hidden:
            return FACE_DOWN
        card = self.tags.get(str(uid))
        return self.card(card) if card is not None else "an unknown tag"

    def zone(self, zone: object) -> str:
        base = self.bases.get(str(zone))
        return self.card(base) if base is not None else zone_label(str(zone))

    def describe(self, event: Mapping[str, Any]) -> str | None:
        """The event in a sentence, or None for one nobody needs to read."""
        kind = str(event.get("event"))
        if kind in QUIET:
            return None
        build = SENTENCES.get(kind)
        if build is not None:
            return unhedged(build(self, event))
        text = event.get("text")  # an event of a newer tracker: its own words, if it has them
        return unhedged(str(text)) if text else f"Something changed ({kind.replace('-', ' ')})"


def in_context(events: Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
    """One line's events as they read together: a turn that ended the game hands the play to
    nobody (the tracker still names the next seat). Nothing is copied otherwise: this runs for
    every line shown on every state sent."""
    if not any(e.get("event") == "game-over" for e in events):
        return events
    return [{**e, "next": None} if e.get("event") == "turn-ended" else e for e in events]


# Sentences the trackers also write into an event's ``text`` (the contract's words for other
# clients): made by these, so each is written once.


def attached_to(card: str, where: str) -> str:
    return f"{card} attached to {where}"


def buried_at(player: str | None, where: str, *, madness: bool = False) -> str:
    return f"{player or 'Someone'} buried a {'Madness ' if madness else ''}card at {where}"


def rests_on(card: str, zone: str, origin: str) -> str:
    """A card that brushed ``origin`` on its way to ``zone`` (the tap filter's tap-moved)."""
    return f"{card} rests on {zone}: it only passed over {origin}"


def left_play(card: str, where: str | None = None) -> str:
    return f"{card} left {where}" if where else f"{card} left play"


def counters_from(why: str, delta: int) -> str:
    """Counters a card's effect (``why``: its name, or how they came) put on or took off a
    card: "Worker: +2 counters"."""
    return f"{why}: {_counted(delta, 'counter')}"


def _played(w: Words, e: Mapping[str, Any]) -> str:
    return f"{e.get('player') or 'Someone'} played {w.card(e['card'])} on {w.zone(e['zone'])}"


def _attached(w: Words, e: Mapping[str, Any]) -> str:
    where = w.tag(e["target"]) if e.get("target") else w.zone(e.get("zone"))
    return attached_to(w.card(e["card"]), where)


def _scored(w: Words, e: Mapping[str, Any]) -> str:
    places = ", ".join(f"{r['player']} {r['vp']} VP" for r in e.get("ranking", []))
    return f"{w.card(e['card'])} scored: {places or 'nobody placed'}"


def _signed(delta: object) -> str:
    number = int(delta) if isinstance(delta, int) else 0
    return f"+{number}" if number > 0 else str(number)


def _counted(delta: object, noun: str) -> str:
    """A signed count of ``noun`` (an event's delta; 0 if it is not a number)."""
    return signed_count(delta if isinstance(delta, int) else 0, noun)


def _own_text(w: Words, e: Mapping[str, Any]) -> str:
    """The event carries its sentence: made where the event is, from what only that moment
    knows (a scoring's breakpoint, a card's own effect text, Munchkin Cthulhu's combat)."""
    return str(e.get("text") or "")


def _vp(w: Words, e: Mapping[str, Any]) -> str:
    delta = int(e.get("delta") or 0)
    return f"{e['player']} {'gains' if delta >= 0 else 'loses'} {abs(delta)} VP"


def _left(w: Words, e: Mapping[str, Any]) -> str:
    if e.get("text"):  # the tracker's (left_play): where it did not say the base
        return str(e["text"])
    return left_play(w.card(e["card"]), w.zone(e["zone"]) if e.get("zone") else None)


def _turn_ended(w: Words, e: Mapping[str, Any]) -> str:
    if e.get("next"):
        return f"{e['player']}'s turn ended; {e['next']} to play"
    return f"{e['player']}'s turn ended, and with it the game"


#: every event the trackers make, in words (a test walks them all); events that carry their
#: own sentence say so with :func:`_own_text`; the ones in :data:`QUIET` are not shown
SENTENCES: dict[str, Callable[[Words, Mapping[str, Any]], str]] = {
    "played": _played,
    "action-played": _played,
    "attached": _attached,
    "monster-placed": lambda w, e: f"{w.card(e['card'])} guards {w.zone(e['zone'])}",
    "monster-played": lambda w, e: f"{w.card(e['card'])} was played on {w.zone(e['zone'])}",
    "scored": _scored,
    "turn-ended": _turn_ended,
    "game-over": lambda w, e: f"Game over: {' and '.join(e['winners'])} won",
    "vp": _vp,
    "undone": lambda w, e: "The last change was undone",
    "talent": lambda w, e: f"{w.tag(e['tag'])} used its Talent",
    "left": _left,
    "counters": lambda w, e: f"{_counted(e['delta'], 'power counter')} on {w.tag(e['tag'])}",
    "control": lambda w, e: (
        f"{e['player']} took control of {w.tag(e['tag'])}"
        if e.get("player")
        else f"{w.tag(e['tag'])} is uncontrolled"
    ),
    "madness": lambda w, e: f"{e['player']} Madness {_signed(e['delta'])}",
    "buried": lambda w, e: buried_at(
        e.get("player"), w.zone(e["zone"]), madness=bool(e.get("madness"))
    ),
    "treasure-draw": lambda w, e: (
        f"{e['player']} draws {plural(int(e['count']), 'treasure')} for {w.card(e['card'])}"
    ),
    "targeted": lambda w, e: f"{w.card(e['card'])} affects {w.tag(e['target'])}",
    "base-removed": lambda w, e: f"{w.zone(e['zone'])} was removed",
    "duel-opened": lambda w, e: (
        f"Duel at {w.zone(e['zone'])}: {w.tag(e['challenger'])} against {w.tag(e['challenged'])}"
    ),
    "counters-moved": lambda w, e: (
        f"{plural(int(e['count']), 'counter')} moved from {w.tag(e['origin'])} to "
        f"{w.tag(e['target'])}"
    ),
    "declared": lambda w, e: f"{w.tag(e['tag'])}: condition {'on' if e.get('on') else 'off'}",
    # a card that brushed a zone on its way to where it rests (the tap filter's tap-moved)
    "tap-moved": lambda w, e: rests_on(w.tag(e["tag"]), w.zone(e["zone"]), w.zone(e["origin"])),
    **dict.fromkeys(
        [
            # Smash Up
            "base-entered",
            "bury-next",
            "buried-discarded",
            "discarded",
            "duel-resolved",
            "duel-stopped",
            "dueling-card",
            "lapsed",
            "moved",
            "note",
            "resolved-effect",
            "scoring-opened",
            "treasure-dealt",
            "uncovered",
            # Munchkin Cthulhu (every event of its tracker carries its sentence)
            "class",
            "enhanced",
            "help",
            "item",
            "kept",
            "level",
            "monster",
            "one-shot",
            "ran",
            "resolved",
            "sold",
            # the whole fight, on main from the cthulhu branch: these carry their sentences too
            "bad-stuff",
            "card-played",
            "charity",
            "died",
            "fight-card",
            "lost",
            "modifier",
            "wandering",
        ],
        _own_text,
    ),
}
