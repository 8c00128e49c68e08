"""The conflict rules (a game id seen before) and the dispute rules (a claimed result our
replay does not confirm), and what a push must look like. Pure: no database."""

from __future__ import annotations

from typing import Any

import pytest

from companion.league.conflicts import Stored, dispute, repeat_conflict
from companion.league.engine import Replayed, Seat, TapeRefused, replay_tape
from companion.league.errors import BadRequest
from companion.league.payload import parse_push
from tests.league.games import push


def _stored(body: dict[str, Any], table: str = "kitchen") -> Stored:
    parsed = parse_push(body)
    return Stored(table, parsed.tape_digest, parsed.digest)


def test_the_same_push_again_is_no_conflict() -> None:
    body = push(1)
    assert repeat_conflict(_stored(body), parse_push(push(1)), "kitchen") is None


def test_the_same_tape_written_differently_is_the_same_push() -> None:
    body = push(1)
    shuffled = {**body, "tape": [dict(reversed(list(line.items()))) for line in body["tape"]]}
    assert repeat_conflict(_stored(body), parse_push(shuffled), "kitchen") is None


def test_another_tape_under_a_stored_id_conflicts() -> None:
    other = push(2, game_id="game-1")
    problem = repeat_conflict(_stored(push(1)), parse_push(other), "kitchen")
    assert problem is not None and "different tape" in problem


def test_the_same_tape_with_another_claim_conflicts() -> None:
    body = push(1)
    changed = {**body, "status": "void"}
    problem = repeat_conflict(_stored(body), parse_push(changed), "kitchen")
    assert problem is not None and "different claim" in problem


def test_another_table_cannot_send_a_stored_game() -> None:
    problem = repeat_conflict(_stored(push(1)), parse_push(push(1)), "window")
    assert problem is not None and "'kitchen'" in problem


def _replayed(vp: dict[str, int], winners: tuple[str, ...], error: str | None = None) -> Replayed:
    seats = tuple(Seat(name, ("core/ninjas", "core/robots"), v) for name, v in vp.items())
    return Replayed(seats, winners, 5, 100, (), error)


def _claiming(vp: dict[str, int], winners: list[str], status: str = "finished") -> Any:
    body = push(1, *vp)
    body["claimed"] = {"winners": winners, "vp": vp}
    body["status"] = status
    return parse_push(body)


def test_a_result_that_replays_the_same_counts() -> None:
    claim = _claiming({"Ann": 15, "Ben": 9}, ["Ann"])
    assert dispute(claim, _replayed({"Ann": 15, "Ben": 9}, ("Ann",))) == []


def test_a_different_winner_or_vp_is_disputed_saying_what_differs() -> None:
    claim = _claiming({"Ann": 15, "Ben": 9}, ["Ann"])
    reasons = dispute(claim, _replayed({"Ann": 14, "Ben": 15}, ("Ben",)))
    assert "the table says Ann won; the rules engine says Ben" in reasons
    assert "Ann: the table says 15 VP, the rules engine 14" in reasons
    assert "Ben: the table says 9 VP, the rules engine 15" in reasons


def test_a_tape_that_stops_replaying_or_never_ends_is_disputed() -> None:
    claim = _claiming({"Ann": 15, "Ben": 9}, ["Ann"])
    stopped = dispute(claim, _replayed({"Ann": 15, "Ben": 9}, ("Ann",), "line 7: no such tag"))
    assert stopped == ["the tape does not replay: line 7: no such tag"]
    unfinished = dispute(claim, _replayed({"Ann": 15, "Ben": 9}, ()))
    assert "the tape ends before anyone has won" in unfinished


def test_a_shared_win_must_be_claimed_as_shared() -> None:
    claim = _claiming({"Ann": 16, "Ben": 16}, ["Ann"])
    assert dispute(claim, _replayed({"Ann": 16, "Ben": 16}, ("Ann", "Ben")))
    shared = _claiming({"Ann": 16, "Ben": 16}, ["Ben", "Ann"])
    assert dispute(shared, _replayed({"Ann": 16, "Ben": 16}, ("Ann", "Ben"))) == []


def test_a_voided_game_is_never_disputed() -> None:
    claim = _claiming({"Ann": 3, "Ben": 2}, [], status="void")
    assert dispute(claim, _replayed({"Ann": 3, "Ben": 2}, ())) == []


def test_our_replay_of_a_simulated_game_agrees_with_its_claim() -> None:
    body = push(3)
    replayed = replay_tape(body["tape"])
    assert replayed.error is None and replayed.winners
    assert dispute(parse_push(body), replayed) == []
    assert replayed.timeline[0] == (0.0, tuple(0 for _ in replayed.seats))
    # no Madness in these factions: the VP chart ends at the final VP
    assert replayed.timeline[-1][1] == tuple(s.vp for s in replayed.seats)


def test_a_tape_the_league_cannot_take_is_refused() -> None:
    with pytest.raises(TapeRefused, match="Smash Up"):
        replay_tape([{"tape": 1, "game": "munchkin-cthulhu", "players": ["A", "B", "C"]}])
    header = push(1)["tape"][0]
    with pytest.raises(TapeRefused, match="header"):
        replay_tape([{**header, "factions": {"Ann": ["core/nope", "core/robots"]}}])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: [], "JSON object"),
        (lambda b: {**b, "id": "no spaces allowed"}, '"id"'),
        (lambda b: {**b, "status": "won"}, '"status"'),
        (lambda b: {**b, "tape": []}, '"tape"'),
        (lambda b: {**b, "tape": [*b["tape"], "tap"]}, "must be a JSON object"),
        (lambda b: {**b, "tape": [{**b["tape"][0], "players": ["A"]}]}, "2 to 4"),
        (lambda b: {**b, "tape": [{**b["tape"][0], "players": ["A", "A"]}]}, "twice"),
        (lambda b: {**b, "claimed": None}, '"claimed"'),
        (lambda b: {**b, "claimed": {"winners": ["Zed"], "vp": {}}}, "'Zed'"),
        (lambda b: {**b, "claimed": {**b["claimed"], "vp": {}}}, "every player"),
        (lambda b: {**b, "guests": "Ann"}, '"guests"'),
        (lambda b: {**b, "finished_at": "today"}, '"finished_at"'),
    ],
)
def test_a_malformed_push_says_what_is_wrong(change: Any, message: str) -> None:
    with pytest.raises(BadRequest, match=message.replace("(", r"\(")):
        parse_push(change(push(1)))
