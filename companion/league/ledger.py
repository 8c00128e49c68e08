"""Writing the league: a received game, a voided game, two player names merged, and a
season's ratings recomputed from scratch.

Every write takes the write lock first (:func:`companion.league.database.lock_writes`), so
games get their ids, and are rated, in one order that every server process agrees on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from psycopg.types.json import Jsonb

from companion.league.admin import TableRow, current_season
from companion.league.bodies import GameStatus
from companion.league.conflicts import Stored, dispute, repeat_conflict
from companion.league.database import Connection, Pool, lock_writes, transaction
from companion.league.engine import Replayed
from companion.league.errors import BadRequest, Conflict, NotFound
from companion.league.payload import Push
from companion.league.ratings import Change, RatedGame, Skill, placings, rerate, update


@dataclass(frozen=True, slots=True)
class Receipt:
    """What the league answers a push with."""

    id: str
    status: GameStatus
    season: str
    duplicate: bool
    dispute: tuple[str, ...] = ()
    #: the stored game whose tape this push repeats under another id
    duplicate_of: str | None = None


def name_key(name: str) -> str:
    """Two spellings of one name that are the same player: case and spacing do not count."""
    return " ".join(name.split()).casefold()


def known_push(conn: Connection, push: Push, table: TableRow) -> Receipt | None:
    """The receipt of a push already stored (``None``: the id is new).

    :raises Conflict: the id is stored with another tape, claim or table.
    """
    row = conn.execute(
        "SELECT g.status, g.dispute, g.tape_digest, g.push_digest, t.name AS table_name,"
        " s.name AS season FROM games g JOIN tables t ON t.id = g.table_id"
        " JOIN seasons s ON s.id = g.season_id WHERE g.uid = %s",
        [push.id],
    ).fetchone()
    if row is None:
        return same_tape(conn, push)
    stored = Stored(row["table_name"], row["tape_digest"], row["push_digest"])
    problem = repeat_conflict(stored, push, table.name)
    if problem is not None:
        raise Conflict(problem)
    return Receipt(push.id, row["status"], row["season"], True, tuple(row["dispute"]))


def same_tape(conn: Connection, push: Push) -> Receipt | None:
    """The receipt of the game stored first with this push's tape under another id (a table
    restored from a backup sends its games again with new ids), or ``None``. From any table:
    one game played is one tape, and it counts once."""
    row = conn.execute(
        "SELECT g.uid, g.status, g.dispute, s.name AS season FROM games g"
        " JOIN seasons s ON s.id = g.season_id WHERE g.tape_digest = %s ORDER BY g.id LIMIT 1",
        [push.tape_digest],
    ).fetchone()
    if row is None:
        return None
    return Receipt(push.id, row["status"], row["season"], True, tuple(row["dispute"]), row["uid"])


def receive(pool: Pool, table: TableRow, push: Push, replayed: Replayed) -> Receipt:
    """Store a pushed game once, counted only if our replay agrees with the table's claim."""
    with transaction(pool) as conn:
        lock_writes(conn)
        again = known_push(conn, push, table)
        if again is not None:
            return again
        season = current_season(conn)
        players = [
            None if seat.name in push.guests else _player_id(conn, seat.name)
            for seat in replayed.seats
        ]
        reasons = dispute(push, replayed) + _same_person(replayed, players)
        status: GameStatus = (
            "void" if push.status == "void" else "disputed" if reasons else "counted"
        )
        game_id = _insert_game(conn, season.id, table, push, replayed, status, reasons)
        seats = _insert_seats(conn, game_id, replayed, players)
        if status == "counted":
            _rate(conn, season.id, RatedGame(game_id, seats))
    return Receipt(push.id, status, season.name, False, tuple(reasons))


def _player_id(conn: Connection, name: str) -> int:
    """The league player with this name (made on first sight), following merges."""
    key = name_key(name)
    conn.execute(
        "INSERT INTO players (name, name_key) VALUES (%s, %s) ON CONFLICT (name_key) DO NOTHING",
        [" ".join(name.split()), key],
    )
    row = conn.execute(
        "SELECT coalesce(merged_into, id) AS id FROM players WHERE name_key = %s", [key]
    ).fetchone()
    assert row is not None
    return int(row["id"])


def _same_person(replayed: Replayed, players: Sequence[int | None]) -> list[str]:
    seen: dict[int, str] = {}
    reasons = []
    for seat, player in zip(replayed.seats, players, strict=True):
        if player is None:
            continue
        if player in seen:
            reasons.append(f"{seen[player]} and {seat.name} are the same league player")
        seen[player] = seat.name
    return reasons


def _insert_game(
    conn: Connection,
    season: int,
    table: TableRow,
    push: Push,
    replayed: Replayed,
    status: str,
    reasons: list[str],
) -> int:
    claimed = {"winners": list(push.claimed_winners), "vp": dict(push.claimed_vp)}
    timeline = [{"at": at, "vp": list(vp)} for at, vp in replayed.timeline]
    row = conn.execute(
        "INSERT INTO games (uid, season_id, table_id, finished_at, table_status, status,"
        " dispute, winners, turns, lines, timeline, claimed, tape, tape_digest, push_digest)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        [
            push.id,
            season,
            table.id,
            push.finished_at,
            push.status,
            status,
            reasons,
            list(replayed.winners),
            replayed.turns,
            replayed.lines,
            Jsonb(timeline),
            Jsonb(claimed),
            Jsonb(push.tape),
            push.tape_digest,
            push.digest,
        ],
    ).fetchone()
    assert row is not None
    return int(row["id"])


def _insert_seats(
    conn: Connection, game_id: int, replayed: Replayed, players: Sequence[int | None]
) -> tuple[tuple[int | None, int], ...]:
    winners = [n for n, seat in enumerate(replayed.seats) if seat.name in replayed.winners]
    places = placings([seat.vp for seat in replayed.seats], winners)
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO game_seats (game_id, seat, name, player_id, factions, vp, place, won)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                [game_id, n, s.name, p, list(s.factions), s.vp, place, n in winners]
                for n, (s, p, place) in enumerate(zip(replayed.seats, players, places, strict=True))
            ],
        )
    return tuple(zip(players, places, strict=True))


def _rate(conn: Connection, season: int, game: RatedGame[int]) -> None:
    """The incremental update: this game against the season's current ratings."""
    ids = [player for player, _ in game.seats if player is not None]
    rows = conn.execute(
        "SELECT player_id, mu, sigma FROM ratings WHERE season_id = %s AND player_id = ANY(%s)",
        [season, ids],
    ).fetchall()
    current = {r["player_id"]: Skill(r["mu"], r["sigma"]) for r in rows}
    _write_changes(conn, season, update(current, game), upsert=True)


def _write_changes(
    conn: Connection, season: int, changes: Sequence[Change[int]], *, upsert: bool
) -> None:
    latest = {change.player: change.after for change in changes}
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO rating_changes (game_id, player_id, mu_before, sigma_before, mu_after,"
            " sigma_after) VALUES (%s, %s, %s, %s, %s, %s)",
            [
                [c.game, c.player, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma]
                for c in changes
            ],
        )
        cursor.executemany(
            "INSERT INTO ratings (season_id, player_id, mu, sigma) VALUES (%s, %s, %s, %s)"
            + (
                " ON CONFLICT (season_id, player_id) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma"
                if upsert
                else ""
            ),
            [[season, player, skill.mu, skill.sigma] for player, skill in latest.items()],
        )


def rerate_season(conn: Connection, season: int) -> None:
    """Every rating of the season from scratch, in the league's order (hold the write lock)."""
    rows = conn.execute(
        "SELECT s.game_id, s.player_id, s.place FROM game_seats s"
        " JOIN games g ON g.id = s.game_id WHERE g.season_id = %s AND g.status = 'counted'"
        " ORDER BY s.game_id, s.seat",
        [season],
    ).fetchall()
    games = [
        RatedGame(game_id, tuple((r["player_id"], r["place"]) for r in seats))
        for game_id, seats in groupby(rows, key=lambda r: r["game_id"])
    ]
    _, changes = rerate(games)
    conn.execute(
        "DELETE FROM rating_changes WHERE game_id IN (SELECT id FROM games WHERE season_id = %s)",
        [season],
    )
    conn.execute("DELETE FROM ratings WHERE season_id = %s", [season])
    _write_changes(conn, season, changes, upsert=False)


def void_game(pool: Pool, uid: str, reason: str) -> str:
    """The game stops counting (its ratings are recomputed); returns its previous status."""
    reason = reason.strip() or "voided by the organiser"
    with transaction(pool) as conn:
        lock_writes(conn)
        row = conn.execute("SELECT status, season_id FROM games WHERE uid = %s", [uid]).fetchone()
        if row is None:
            raise NotFound(f"there is no game {uid!r}")
        if row["status"] == "void":
            return "void"
        conn.execute(
            "UPDATE games SET status = 'void', void_reason = %s WHERE uid = %s", [reason, uid]
        )
        if row["status"] == "counted":
            rerate_season(conn, row["season_id"])
    return str(row["status"])


def merge_players(pool: Pool, source: str, target: str) -> str:
    """``source``'s games become ``target``'s, now and for future pushes under that name;
    returns the target's name. Ratings of every season either played in are recomputed."""
    with transaction(pool) as conn:
        lock_writes(conn)
        old, new = _find_player(conn, source), _find_player(conn, target)
        if old[0] == new[0]:
            raise BadRequest(f"{source!r} and {target!r} are already one player ({new[1]})")
        shared = conn.execute(
            "SELECT g.uid FROM game_seats a JOIN game_seats b ON a.game_id = b.game_id"
            " JOIN games g ON g.id = a.game_id WHERE a.player_id = %s AND b.player_id = %s"
            " LIMIT 1",
            [old[0], new[0]],
        ).fetchone()
        if shared is not None:
            raise Conflict(
                f"{old[1]} and {new[1]} played against each other in game {shared['uid']}: "
                "they are two people, not one name spelt twice"
            )
        conn.execute("UPDATE game_seats SET player_id = %s WHERE player_id = %s", [new[0], old[0]])
        conn.execute(
            "UPDATE players SET merged_into = %s WHERE id = %s OR merged_into = %s",
            [new[0], old[0], old[0]],
        )
        conn.execute("DELETE FROM ratings WHERE player_id = %s", [old[0]])
        seasons = conn.execute(
            "SELECT DISTINCT g.season_id FROM games g JOIN game_seats s ON s.game_id = g.id"
            " WHERE s.player_id = %s ORDER BY 1",
            [new[0]],
        ).fetchall()
        for season in seasons:
            rerate_season(conn, season["season_id"])
    return new[1]


def _find_player(conn: Connection, name: str) -> tuple[int, str]:
    row = conn.execute(
        "SELECT p.id, p.name FROM players q JOIN players p ON p.id = coalesce(q.merged_into, q.id)"
        " WHERE q.name_key = %s",
        [name_key(name)],
    ).fetchone()
    if row is None:
        raise NotFound(f"there is no league player {name!r}")
    return int(row["id"]), str(row["name"])
