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
from typing import Any

from companion.catalogue.cards import Catalogue
from companion.tape.documents import Event, Line
from companion.tracker.common import event, need
from companion.tracker.state import Rejected, evolve

TAP_MOVED = "tap-moved"
JOURNAL_KEPT = 64  #: lines kept to correct: the filter corrects within a second of the tap

Step = Callable[[Any, Line, Catalogue], Any]
"""A game's reducer (Smash Up's or Munchkin Cthulhu's): its outcome has ``state``,
``events`` and ``changed``."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A line applied to the game, and the state before it."""

    before: Any
    line: Line


Journal = tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Correction:
    """What a correction made: the game's new state, its events, and the rebuilt journal."""

    state: Any
    events: tuple[Event, ...]
    changed: bool
    journal: Journal


def record(journal: Journal, before: Any, line: Line) -> Journal:
    """``journal`` with ``line`` (applied to ``before``) added; the oldest lines drop off."""
    return (*journal[-(JOURNAL_KEPT - 1) :], Entry(before, line))


def move_tap(
    journal: Journal, state: Any, line: Line, step: Step, catalogue: Catalogue
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
        text=f"Tag {tag} rests at {zone}: its tap at {origin} moved there",
    )
    index = _last_tap(journal, tag, origin)
    if index is None:  # it never reached the game: the card is simply tapped where it rests
        retap: Line = {"tap": tag, "zone": zone}
        if "at" in line:
            retap["at"] = line["at"]
        outcome = step(state, retap, catalogue)
        events = (said, *outcome.events)
        return Correction(outcome.state, events, outcome.changed, record(journal, state, retap))
    moved: Line = {**journal[index].line, "zone": zone}
    # Tag bindings made since are kept (as undo keeps them): they are not game events.
    base = evolve(journal[index].before, header=state.header)
    tapped = step(base, moved, catalogue)
    rebuilt, current = [Entry(base, moved)], tapped.state
    for entry in journal[index + 1 :]:
        try:
            after = step(current, entry.line, catalogue)
        except Rejected as exc:
            raise Rejected(
                f"the tap of {tag} at {origin} cannot be moved to {zone} ({exc}): "
                f"tap the card at {zone} again, or undo"
            ) from None
        rebuilt.append(Entry(current, entry.line))
        current = after.state
    return Correction(current, (said, *tapped.events), True, (*journal[:index], *rebuilt))


def _last_tap(journal: Journal, tag: str, zone: str) -> int | None:
    for index in range(len(journal) - 1, -1, -1):
        line = journal[index].line
        tapped = line.get("tap")
        if isinstance(tapped, str) and tapped.upper() == tag and line.get("zone") == zone:
            return index
    return None


def moved_by_answer(state: Any, line: Line) -> Line | None:
    """The ``tap-moved`` line that ``line`` picks when it answers an open prompt with one, else
    ``None`` (every other answer, good or bad, is the game's own step's to apply or refuse)."""
    if line.get("input") != "answer":
        return None
    wanted, choice = line.get("prompt"), line.get("option")
    prompt = next((p for p in getattr(state, "prompts", ()) if p.id == wanted), None)
    if prompt is None or not isinstance(choice, int) or not 0 <= choice < len(prompt.options):
        return None
    chosen: Line = prompt.options[choice].line
    return chosen if chosen.get("input") == TAP_MOVED else None


def answer_by_moving(
    journal: Journal, state: Any, line: Line, step: Step, catalogue: Catalogue
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
    asked = _asking(journal, moved)
    if asked is not None:  # replayed, it would ask again: the moved tap settles it
        journal = (*journal[:asked], *journal[asked + 1 :])
    corrected = move_tap(journal, cleared, moved, step, catalogue)
    answered = event("answered", prompt=wanted, option=line["option"])
    return replace(corrected, events=(answered, *corrected.events))


def _asking(journal: Journal, moved: Line) -> int | None:
    """The last crosstalk line about the tag and the two zones of ``moved``."""
    tag, zones = str(moved["tag"]).upper(), [moved["from"], moved["zone"]]
    for index in range(len(journal) - 1, -1, -1):
        line = journal[index].line
        said = line.get("tag")
        if line.get("input") != "crosstalk" or line.get("zones") != zones:
            continue
        if isinstance(said, str) and said.upper() == tag:
            return index
    return None
