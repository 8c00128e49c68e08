"""A tap corrected to where its card rests (``{"input": "tap-moved", "tag", "from", "zone"}``).

The tap filter counts a card on its first read. One that only passed over a zone on its way to
another was counted at the wrong zone: the filter then says where it rests, and the tap is
moved there. The game becomes what it would be had the tap been read there in the first place:
the same play, never a second one. The recent lines are kept with the state before each (a
journal); the tap's line is applied again at its new zone, then every line after it. If one of
those no longer applies, the correction is refused and the game is unchanged.

A tap that never reached the game (refused), or is older than the journal, is simply tapped
where the card rests. Undo takes a correction back as one change (and Redo makes it again).
Tag bindings are kept as they are now, as undo keeps them. Pure: states and lines in, states and
events out.

A prompt may offer the same correction as an option (the crosstalk prompt's "On <second
zone>"): answering it closes the prompt and moves the tap, and the line that asked leaves the
journal (the moved tap settles it), so the answer is never a second play either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.catalogue.cards import Catalogue
from companion.tape.documents import Event, Line
from companion.tracker.common import event, need
from companion.tracker.games import GameOutcome, GameState
from companion.tracker.state import Rejected, evolve
from companion.tracker.words import Words, rests_on

TAP_MOVED = "tap-moved"
JOURNAL_KEPT = 64  #: lines kept to correct: the filter corrects within a second of the tap

Step = Callable[[GameState, Line, Catalogue], GameOutcome]
"""The game's reducer (:func:`companion.tracker.games.step_game`)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A line applied to the game, and the state before it."""

    before: GameState
    line: Line


_Link = tuple[GameState, Line, "_Link | None"]
"""A recorded line: the state before it, the line, and the link recorded before it."""


@dataclass(frozen=True, slots=True)
class Journal:
    """The recent lines, newest first as a linked list: recording a line links it in front of
    the journal it came from (every line is recorded, and undo and checkpoints keep old
    journals, so copying the kept lines on every line cost O(kept)). Only the newest
    :data:`JOURNAL_KEPT` lines count; the chain is cut back to them once it reaches twice
    that, which lets the older states go (O(1) a line on average)."""

    newest: _Link | None = None
    length: int = 0
    """Links in the chain (at most JOURNAL_KEPT of them count)."""

    def __len__(self) -> int:
        return min(self.length, JOURNAL_KEPT)

    def entries(self) -> tuple[Entry, ...]:
        """The kept lines with the state before each, oldest first."""
        found: list[Entry] = []
        link = self.newest
        while link is not None and len(found) < JOURNAL_KEPT:
            before, line, link = link
            found.append(Entry(before, line))
        found.reverse()
        return tuple(found)

    @staticmethod
    def of(entries: tuple[Entry, ...]) -> Journal:
        """A journal of ``entries`` (oldest first; the newest JOURNAL_KEPT count)."""
        newest: _Link | None = None
        kept = entries[-JOURNAL_KEPT:]
        for entry in kept:
            newest = (entry.before, entry.line, newest)
        return Journal(newest, len(kept))


EMPTY = Journal()


@dataclass(frozen=True, slots=True)
class Correction:
    """What a correction made: the game's new state, its events, and the rebuilt journal."""

    state: GameState
    events: tuple[Event, ...]
    changed: bool
    journal: Journal


def _rests_on(state: GameState, catalogue: Catalogue, tag: str, zone: str, origin: str) -> str:
    """The correction in words, named as the table now stands (either game)."""
    tags = {uid: bound.card for uid, bound in state.header.tags.items()}
    bases = {base.zone: base.card for base in getattr(state.table, "bases", ())}
    words = Words(catalogue, tags, bases)
    return rests_on(words.tag(tag), words.zone(zone), words.zone(origin))


def record(journal: Journal, before: GameState, line: Line) -> Journal:
    """``journal`` with ``line`` (applied to ``before``) added; the oldest lines drop off."""
    if journal.length + 1 < 2 * JOURNAL_KEPT:
        return Journal((before, line, journal.newest), journal.length + 1)
    kept: list[tuple[GameState, Line]] = []  # the chain cut back: its newest lines, linked again
    link = journal.newest
    while link is not None and len(kept) < JOURNAL_KEPT - 1:
        kept.append((link[0], link[1]))
        link = link[2]
    newest: _Link | None = None
    for earlier, recorded in reversed(kept):
        newest = (earlier, recorded, newest)
    return Journal((before, line, newest), len(kept) + 1)


def move_tap(
    journal: Journal, state: GameState, line: Line, step: Step, catalogue: Catalogue
) -> Correction:
    """The game with the last tap of ``line["tag"]`` at ``line["from"]`` moved to
    ``line["zone"]``, and the journal as if it had been read there.

    :raises Rejected: a field is missing, or a line after the tap no longer applies.
    """
    tag = str(need(line, "tag", str, "the uid of the tag whose tap moved")).upper()
    origin = need(line, "from", str, "the zone the tag was tapped at")
    zone = need(line, "zone", str, "the zone the card rests at")
    said = event(
        TAP_MOVED,
        tag=tag,
        origin=origin,
        zone=zone,
        text=_rests_on(state, catalogue, tag, zone, origin),
    )
    entries = journal.entries()
    index = _last_tap(entries, tag, origin)
    if index is None:  # it never reached the game: the card is simply tapped where it rests
        retap: Line = {"tap": tag, "zone": zone}
        if "at" in line:
            retap["at"] = line["at"]
        outcome = step(state, retap, catalogue)
        events = (said, *outcome.events)
        return Correction(outcome.state, events, outcome.changed, record(journal, state, retap))
    moved: Line = {**entries[index].line, "zone": zone}
    # Tag bindings made since are kept (as undo keeps them): they are not game events.
    base = evolve(entries[index].before, header=state.header)
    tapped = step(base, moved, catalogue)
    rebuilt, current = [Entry(base, moved)], tapped.state
    for entry in entries[index + 1 :]:
        try:
            after = step(current, entry.line, catalogue)
        except Rejected as exc:
            raise Rejected(
                f"the tap of {tag} at {origin} cannot be moved to {zone} ({exc}): "
                f"tap the card at {zone} again, or undo"
            ) from None
        rebuilt.append(Entry(current, entry.line))
        current = after.state
    rebuilt_journal = Journal.of((*entries[:index], *rebuilt))
    return Correction(current, (said, *tapped.events), True, rebuilt_journal)


def _last_tap(entries: tuple[Entry, ...], tag: str, zone: str) -> int | None:
    for index in range(len(entries) - 1, -1, -1):
        line = entries[index].line
        tapped = line.get("tap")
        if isinstance(tapped, str) and tapped.upper() == tag and line.get("zone") == zone:
            return index
    return None


def moved_by_answer(state: GameState, line: Line) -> Line | None:
    """The ``tap-moved`` line that ``line`` picks when it answers an open prompt with one, else
    ``None`` (every other answer, good or bad, is the game's own step's to apply or refuse)."""
    if line.get("input") != "answer":
        return None
    wanted, choice = line.get("prompt"), line.get("option")
    prompt = next((p for p in state.prompts if p.id == wanted), None)
    if prompt is None or not isinstance(choice, int) or not 0 <= choice < len(prompt.options):
        return None
    chosen: Line = prompt.options[choice].line
    return chosen if chosen.get("input") == TAP_MOVED else None


def answer_by_moving(
    journal: Journal, state: GameState, line: Line, step: Step, catalogue: Catalogue
) -> Correction:
    """``line`` answers a prompt with a ``tap-moved`` option (:func:`moved_by_answer`): the
    prompt closes and the tap moves, as one change.

    :raises Rejected: as :func:`move_tap`; the prompt then stays open.
    """
    moved = moved_by_answer(state, line)
    if moved is None:
        raise Rejected("this answer does not move a tap")
    wanted = line["prompt"]
    cleared = evolve(state, prompts=tuple(p for p in state.prompts if p.id != wanted))
    if "at" in line:
        moved = {**moved, "at": line["at"]}
    entries = journal.entries()
    asked = _asking(entries, moved)
    if asked is not None:  # replayed, it would ask again: the moved tap settles it
        journal = Journal.of((*entries[:asked], *entries[asked + 1 :]))
    corrected = move_tap(journal, cleared, moved, step, catalogue)
    answered = event("answered", prompt=wanted, option=line["option"])
    return replace(corrected, events=(answered, *corrected.events))


def _asking(entries: tuple[Entry, ...], moved: Line) -> int | None:
    """The last crosstalk line about the tag and the two zones of ``moved``."""
    tag, zones = str(moved["tag"]).upper(), [moved["from"], moved["zone"]]
    for index in range(len(entries) - 1, -1, -1):
        line = entries[index].line
        said = line.get("tag")
        if line.get("input") != "crosstalk" or line.get("zones") != zones:
            continue
        if isinstance(said, str) and said.upper() == tag:
            return index
    return None
