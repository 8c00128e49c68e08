"""Reading the league: standings, games, faction statistics and a player's history, as
plain data ready for JSON and for the pages. Only counted games count; disputed and voided
games are listed with their reasons.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from companion.league.bodies import (
    FactionStats,
    GameAnswer,
    HistoryEntry,
    LeaguePlayer,
    PlayerAnswer,
    Rating,
    RatingChange,
    SeatAnswer,
    Standing,
)
from companion.league.bodies import WinRate as WinRateAnswer
from companion.league.charts import PALETTE
from companion.league.database import Connection
from companion.league.engine import faction_name
from companion.league.errors import NotFound
from companion.league.ledger import name_key
from companion.league.ratings import DEFAULT, Skill
from companion.league.stats import Result, WinRate, faction_rates, pair_rates

_GAME = (
    "SELECT g.id, g.uid, g.status, g.table_status, g.dispute, g.void_reason, g.winners,"
    " g.turns, g.lines, g.received, g.finished_at, g.timeline, g.claimed, t.name AS table_name,"
    " s.name AS season FROM games g JOIN tables t ON t.id = g.table_id"
    " JOIN seasons s ON s.id = g.season_id"
)


def standings(conn: Connection, season: int) -> list[Standing]:
    """Every league player with a counted game this season, best rating first."""
    rows = conn.execute(
        "SELECT p.name, count(*) AS games, count(*) FILTER (WHERE s.won) AS wins,"
        " count(*) FILTER (WHERE s.won AND cardinality(g.winners) > 1) AS shared_wins,"
        " sum(s.vp) AS vp, r.mu, r.sigma FROM game_seats s"
        " JOIN games g ON g.id = s.game_id JOIN players p ON p.id = s.player_id"
        " LEFT JOIN ratings r ON r.season_id = g.season_id AND r.player_id = p.id"
        " WHERE g.season_id = %s AND g.status = 'counted'"
        " GROUP BY p.name, r.mu, r.sigma",
        [season],
    ).fetchall()
    table: list[Standing] = []
    for row in rows:
        skill = DEFAULT if row["mu"] is None else Skill(row["mu"], row["sigma"])
        table.append(
            {
                "rank": 0,  # once sorted
                "player": row["name"],
                "games": row["games"],
                "wins": row["wins"],
                "shared_wins": row["shared_wins"],
                "vp": int(row["vp"]),
                "vp_per_game": round(int(row["vp"]) / row["games"], 2),
                "rating": _rating(skill),
            }
        )
    table.sort(key=lambda r: (-r["rating"]["ordinal"], -r["wins"], name_key(r["player"])))
    for rank, standing in enumerate(table, start=1):
        standing["rank"] = rank
    return table


def _rating(skill: Skill) -> Rating:
    return {"ordinal": skill.ordinal, "mu": skill.mu, "sigma": skill.sigma}


def games(
    conn: Connection, season: int, *, limit: int = 20, before: int | None = None
) -> list[GameAnswer]:
    """The season's games, newest first (``before``: only games older than that league order)."""
    rows = conn.execute(
        _GAME + " WHERE g.season_id = %s AND (%s::bigint IS NULL OR g.id < %s)"
        " ORDER BY g.id DESC LIMIT %s",
        [season, before, before, limit],
    ).fetchall()
    seats = _seats(conn, [row["id"] for row in rows])
    return [_game(row, seats[row["id"]]) for row in rows]


def game(conn: Connection, uid: str) -> GameAnswer:
    """One game with its seats and each league player's rating change."""
    row = conn.execute(_GAME + " WHERE g.uid = %s", [uid]).fetchone()
    if row is None:
        raise NotFound(f"there is no game {uid!r}")
    detail = _game(row, _seats(conn, [row["id"]])[row["id"]])
    detail["claimed"] = row["claimed"]
    return detail


def tape(conn: Connection, uid: str) -> list[dict[str, Any]]:
    row = conn.execute("SELECT tape FROM games WHERE uid = %s", [uid]).fetchone()
    if row is None:
        raise NotFound(f"there is no game {uid!r}")
    return list(row["tape"])


def _seats(conn: Connection, ids: list[int]) -> dict[int, list[SeatAnswer]]:
    rows = conn.execute(
        "SELECT s.game_id, s.seat, s.name, p.name AS player, s.factions, s.vp, s.place, s.won,"
        " c.mu_before, c.sigma_before, c.mu_after, c.sigma_after FROM game_seats s"
        " LEFT JOIN players p ON p.id = s.player_id"
        " LEFT JOIN rating_changes c ON c.game_id = s.game_id AND c.player_id = s.player_id"
        " WHERE s.game_id = ANY(%s) ORDER BY s.game_id, s.seat",
        [ids],
    ).fetchall()
    found: defaultdict[int, list[SeatAnswer]] = defaultdict(list)
    for r in rows:
        change: RatingChange | None = None
        if r["mu_after"] is not None:
            before = Skill(r["mu_before"], r["sigma_before"])
            after = Skill(r["mu_after"], r["sigma_after"])
            change = {"before": _rating(before), "after": _rating(after)}
        found[r["game_id"]].append(
            {
                "name": r["name"],
                "colour": PALETTE[r["seat"] % len(PALETTE)],
                "player": r["player"],
                "guest": r["player"] is None,
                "factions": list(r["factions"]),
                "faction_names": [faction_name(f) for f in r["factions"]],
                "vp": r["vp"],
                "place": r["place"],
                "won": r["won"],
                "rating": change,
            }
        )
    return found


def _game(row: dict[str, Any], seats: list[SeatAnswer]) -> GameAnswer:
    return {
        "id": row["uid"],
        "order": row["id"],
        "season": row["season"],
        "table": row["table_name"],
        "status": row["status"],
        "table_status": row["table_status"],
        "dispute": list(row["dispute"]),
        "void_reason": row["void_reason"],
        "winners": list(row["winners"]),
        "turns": row["turns"],
        "lines": row["lines"],
        "received": row["received"].isoformat(),
        "finished_at": row["finished_at"],
        "seats": seats,
        "timeline": row["timeline"],
    }


def faction_results(conn: Connection, season: int) -> list[Result]:
    rows = conn.execute(
        "SELECT s.factions, s.won, count(*) OVER (PARTITION BY s.game_id) AS players"
        " FROM game_seats s JOIN games g ON g.id = s.game_id"
        " WHERE g.season_id = %s AND g.status = 'counted'",
        [season],
    ).fetchall()
    return [Result(tuple(r["factions"]), r["won"], r["players"]) for r in rows]


def faction_stats(conn: Connection, season: int) -> FactionStats:
    """Win rates per faction and per faction pair, with sample sizes and 95% intervals."""
    results = faction_results(conn, season)
    return {
        "factions": [_win_rate(rate) for rate in faction_rates(results)],
        "pairs": [_win_rate(rate) for rate in pair_rates(results)],
    }


def _win_rate(rate: WinRate) -> WinRateAnswer:
    low, high = rate.interval
    return {
        "factions": list(rate.factions),
        "names": [faction_name(f) for f in rate.factions],
        "games": rate.games,
        "wins": rate.wins,
        "win_rate": round(rate.rate, 4),
        "interval": [round(low, 4), round(high, 4)],
        "expected": round(rate.expected, 4),
    }


def players(conn: Connection) -> list[LeaguePlayer]:
    """The league's player names (merged spellings left out), for tables to offer at setup."""
    rows = conn.execute(
        "SELECT p.name, count(s.game_id) AS games FROM players p"
        " LEFT JOIN game_seats s ON s.player_id = p.id WHERE p.merged_into IS NULL"
        " GROUP BY p.id, p.name ORDER BY p.name_key"
    ).fetchall()
    return [{"name": r["name"], "games": r["games"]} for r in rows]


def player(conn: Connection, name: str, *, limit: int = 100) -> PlayerAnswer:
    """A player's seasons and their latest games, with the rating after each."""
    row = conn.execute(
        "SELECT p.id, p.name FROM players q JOIN players p ON p.id = coalesce(q.merged_into, q.id)"
        " WHERE q.name_key = %s",
        [name_key(name)],
    ).fetchone()
    if row is None:
        raise NotFound(f"there is no league player {name!r}")
    aliases = conn.execute(
        "SELECT name FROM players WHERE merged_into = %s ORDER BY name_key", [row["id"]]
    ).fetchall()
    history = conn.execute(
        "SELECT g.uid, g.status, g.received, se.name AS season, s.factions, s.vp, s.place,"
        " s.won, c.mu_after, c.sigma_after,"
        " (SELECT count(*) FROM game_seats x WHERE x.game_id = g.id) AS players"
        " FROM game_seats s JOIN games g ON g.id = s.game_id JOIN seasons se ON se.id = g.season_id"
        " LEFT JOIN rating_changes c ON c.game_id = g.id AND c.player_id = s.player_id"
        " WHERE s.player_id = %s ORDER BY g.id DESC LIMIT %s",
        [row["id"], limit],
    ).fetchall()
    return {
        "player": row["name"],
        "aliases": [a["name"] for a in aliases],
        "games": [_history_entry(h) for h in history],
    }


def _history_entry(h: dict[str, Any]) -> HistoryEntry:
    skill = None if h["mu_after"] is None else Skill(h["mu_after"], h["sigma_after"])
    return {
        "id": h["uid"],
        "season": h["season"],
        "status": h["status"],
        "received": h["received"].isoformat(),
        "factions": list(h["factions"]),
        "faction_names": [faction_name(f) for f in h["factions"]],
        "players": h["players"],
        "vp": h["vp"],
        "place": h["place"],
        "won": h["won"],
        "rating_after": None if skill is None else _rating(skill),
    }
