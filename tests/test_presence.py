"""Presence from polls, then taps from the filter, on an injected clock: the polls happen at
the times the presence logic asks for, on a timeline of what lies on the antenna (no threads,
no sleeps, nothing timed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.hardware.readers.base import TagRead
from companion.hardware.readers.presence import EMPTY_PERIOD, PRESENT_PERIOD, Presence
from companion.hardware.readers.taps import SAME_VISIT, Tap, TapFilter

ZONE = "base-1"


@dataclass
class Antenna:
    """What lies on one antenna over time: ``(from, until, uid)`` spans, and polls that miss."""

    spans: list[tuple[float, float, str]] = field(default_factory=list)
    flickers: set[int] = field(default_factory=set)  # poll numbers that find nothing
    unreadable: set[int] = field(default_factory=set)  # poll numbers whose reading fails
    unreadable_uids: set[str] = field(default_factory=set)  # tags that never read

    def at(self, now: float) -> str | None:
        return next((uid for start, end, uid in self.spans if start <= now < end), None)


@dataclass
class Run:
    reads: list[TagRead]
    polls: list[float]


def poll(antenna: Antenna, until: float, presence: Presence | None = None) -> Run:
    """Poll ``antenna`` as a reader thread does, the clock advancing by the presence's
    period; a new card is read (or fails to be) in the same poll."""
    presence = presence or Presence(ZONE)
    now, reads, polls = 0.0, [], []
    while now < until:
        number = len(polls)
        polls.append(now)
        uid = None if number in antenna.flickers else antenna.at(now)
        if uid is None:
            reads += presence.missed(now)
        elif not presence.is_new(uid):
            presence.seen(uid)
        elif number in antenna.unreadable or uid in antenna.unreadable_uids:
            reads += presence.unreadable(uid, now)
        else:
            reads += presence.read(uid, f"card-{uid}", now, activated=now)
        now += presence.period
    return Run(reads, polls)


def taps(reads: list[TagRead]) -> list[str]:
    """The filter's taps, polled as the table's worker does (a tap comes once its card has
    dwelt, so the end is polled too)."""
    tap_filter, outputs = TapFilter(), []
    for read in reads:
        outputs += tap_filter.poll(read.at) + tap_filter.feed(read)
    if reads:
        outputs += tap_filter.poll(reads[-1].at + 10.0)
    return [o.uid for o in outputs if isinstance(o, Tap)]


def kinds(reads: list[TagRead]) -> list[tuple[str, str]]:
    return [(r.kind, r.uid) for r in reads]


def test_a_card_swapped_at_once_is_two_taps_read_at_the_next_poll() -> None:
    antenna = Antenna([(0.01, 1.0, "A"), (1.0, 2.0, "B")])
    run = poll(antenna, 2.5)
    assert kinds(run.reads) == [("arrived", "A"), ("left", "A"), ("arrived", "B"), ("left", "B")]
    swap = run.reads[2]
    first_poll_after = min(t for t in run.polls if t >= 1.0)
    assert swap.at == first_poll_after  # not after a removal check: at once
    assert run.reads[1].at == swap.at  # A went when B answered in its place
    assert swap.at - 1.0 <= Presence(ZONE).present_period
    assert taps(run.reads) == ["A", "B"]


def test_a_card_lifted_and_put_back_within_the_filters_window_is_one_tap() -> None:
    antenna = Antenna([(0.0, 1.0, "A"), (1.4, 3.0, "A")])  # 0.4 s off the antenna
    run = poll(antenna, 3.5)
    assert kinds(run.reads) == [("arrived", "A"), ("left", "A"), ("arrived", "A"), ("left", "A")]
    assert taps(run.reads) == ["A"]


def test_put_back_after_the_filters_window_is_a_second_tap() -> None:
    back = 1.0 + SAME_VISIT + 0.5  # lost longer than a brief loss (the filter's window)
    antenna = Antenna([(0.0, 1.0, "A"), (back, back + 0.5, "A")])
    assert taps(poll(antenna, back + 1.0).reads) == ["A", "A"]


def test_a_flicker_of_one_missed_poll_is_not_a_removal() -> None:
    antenna = Antenna([(0.0, 5.0, "A")], flickers={10, 20, 22, 40})  # never two in a row
    run = poll(antenna, 4.0)
    assert kinds(run.reads) == [("arrived", "A")]


def test_two_missed_polls_are_a_removal_noticed_within_two_polls() -> None:
    presence = Presence(ZONE)
    for lifted in (1.0, 1.013, 1.029, 1.034):
        run = poll(Antenna([(0.0, lifted, "A")]), 2.0, presence=Presence(ZONE))
        left = run.reads[-1]
        assert (left.kind, left.uid) == ("left", "A")
        assert 0 < left.at - lifted <= 2 * presence.present_period
    run = poll(Antenna([(0.0, 3.0, "A")], flickers={10, 11}), 2.0)  # two in a row, card still on
    assert kinds(run.reads) == [("arrived", "A"), ("left", "A"), ("arrived", "A")]
    assert taps(run.reads) == ["A"]  # the filter makes it one tap all the same


def test_an_empty_antenna_is_polled_as_often_as_one_with_a_card() -> None:
    # both polls are four PN532 round trips: an idle table costs what a full one does, and a
    # card put on waits half of that period on average
    presence = Presence(ZONE)
    assert presence.period == presence.empty_period == EMPTY_PERIOD
    presence.read("A", None, 0.0)
    assert presence.period == presence.present_period == PRESENT_PERIOD == EMPTY_PERIOD


def test_a_new_card_that_cannot_be_read_is_retried_at_every_poll() -> None:
    once = poll(Antenna([(0.0, 1.0, "A")], unreadable={0}), 1.5)
    assert [(r.kind, r.card) for r in once.reads] == [("arrived", "card-A"), ("left", None)]
    assert once.reads[0].at == once.polls[1]  # read at the second poll
    often = poll(Antenna([(0.0, 1.0, "A")], unreadable={0, 1, 2, 3}), 1.5)
    assert [(r.kind, r.card) for r in often.reads] == [("arrived", "card-A"), ("left", None)]
    assert often.reads[0].at == often.polls[4]  # with its card id, when it could be read


def test_a_card_swapped_for_an_unreadable_one_leaves_after_two_polls() -> None:
    antenna = Antenna([(0.0, 1.0, "A"), (1.0, 2.0, "B"), (2.0, 3.0, "C")])
    antenna.unreadable_uids = {"B"}
    run = poll(antenna, 2.5)
    arrived_a, left_a = run.reads[0], run.reads[1]
    assert (arrived_a.kind, left_a.kind, left_a.uid) == ("arrived", "left", "A")
    after = [t for t in run.polls if t >= 1.0]
    assert left_a.at == after[1]  # B answered twice without being read: A is gone
    # B is not reported while it cannot be read; once C lies in its place, B was there.
    assert [(r.kind, r.uid, r.card) for r in run.reads[2:]] == [
        ("arrived", "B", None),
        ("left", "B", None),
        ("arrived", "C", "card-C"),
    ]
    assert run.reads[2].at == min(t for t in run.polls if t >= 2.0)


def test_a_card_swapped_away_while_it_was_read_is_not_lost() -> None:
    # A rests; B lands and answers a poll but is swapped for C before nfcpy could read it.
    antenna = Antenna([(0.0, 1.0, "A"), (1.0, 1.02, "B"), (1.02, 2.0, "C")])
    antenna.unreadable_uids = {"B"}
    run = poll(antenna, 1.5)
    assert [(r.kind, r.uid, r.card) for r in run.reads] == [
        ("arrived", "A", "card-A"),
        ("left", "A", None),
        ("arrived", "B", None),  # by its uid alone: the tracker knows an enrolled tag by it
        ("left", "B", None),
        ("arrived", "C", "card-C"),
    ]
    assert taps(run.reads) == ["A", "B", "C"]


def test_a_card_that_flickers_while_it_is_read_is_read_when_it_settles() -> None:
    antenna = Antenna([(0.0, 0.02, "A"), (0.1, 0.12, "A"), (0.2, 1.0, "A")])
    antenna.unreadable = {0, 2}  # the polls (50 ms apart) that find it in the first glimpses
    run = poll(antenna, 1.5, presence=Presence(ZONE, empty_period=0.05))
    assert [(r.kind, r.uid, r.card) for r in run.reads] == [
        ("arrived", "A", "card-A"),  # with its NDEF record: nothing was reported before
        ("left", "A", None),
    ]
    assert run.reads[0].at == run.polls[4]


def test_a_card_flickering_at_the_edge_stays_one_card_however_its_glimpses_fall() -> None:
    # On 25 ms, off 25 ms for two seconds; only the first glimpse can be read.
    spans = [(n * 0.05, n * 0.05 + 0.025, "A") for n in range(40)]
    read_once = Antenna(spans, unreadable=set(range(1, 200)))
    run = poll(read_once, 2.5)
    arrivals = [r for r in run.reads if r.kind == "arrived"]
    assert len(arrivals) > 1 and {r.card for r in arrivals} == {"card-A"}
    assert taps(run.reads) == ["A"]


def test_a_card_brushed_over_the_antenna_too_fast_to_read_is_no_read() -> None:
    assert poll(Antenna([(0.0, 0.02, "A")], unreadable_uids={"A"}), 1.0).reads == []


def test_no_polls_no_removal() -> None:
    """A reader error means no polls at all: the card stays, however long the reader is away."""
    presence = Presence(ZONE)
    assert kinds(presence.read("A", None, 0.0)) == [("arrived", "A")]
    assert presence.missed(30.0) == []  # the first poll after a minute away: one miss
    assert presence.present == "A"
    presence.seen("A")
    assert presence.missed(31.0) == []
    assert kinds(presence.missed(31.05)) == [("left", "A")]


def test_arrivals_carry_the_activation_time() -> None:
    presence = Presence(ZONE)
    (read,) = presence.read("A", "core/x", 2.0, activated=1.99)
    assert (read.at, read.activated, read.card) == (2.0, 1.99, "core/x")
