"""The league's PostgreSQL schema, as numbered migrations applied in order, once.

Add a migration at the end; never edit one that has shipped. :func:`migrate` runs them under an
advisory lock in one transaction, so two servers starting at once cannot apply one twice and a
failed migration leaves the database as it was.
"""

from __future__ import annotations

from companion.errors import CompanionError
from companion.league.database import Connection, scalar

MIGRATION_LOCK = 0x4C454147  #: "LEAG": the advisory lock key migrations run under

_INITIAL = """
CREATE TABLE seasons (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE,
    started timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE tables (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE,
    key_hash text NOT NULL UNIQUE,
    created timestamptz NOT NULL DEFAULT now(),
    revoked timestamptz
);
CREATE TABLE players (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    name_key text NOT NULL UNIQUE,
    merged_into integer REFERENCES players (id),
    created timestamptz NOT NULL DEFAULT now()
);
-- id is the league's order: games are rated in it (assigned under the write lock)
CREATE TABLE games (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uid text NOT NULL UNIQUE,
    season_id integer NOT NULL REFERENCES seasons (id),
    table_id integer NOT NULL REFERENCES tables (id),
    received timestamptz NOT NULL DEFAULT now(),
    finished_at double precision,
    table_status text NOT NULL CHECK (table_status IN ('finished', 'void')),
    status text NOT NULL CHECK (status IN ('counted', 'disputed', 'void')),
    dispute text[] NOT NULL DEFAULT '{}',
    void_reason text,
    winners text[] NOT NULL,
    turns integer NOT NULL,
    lines integer NOT NULL,
    timeline jsonb NOT NULL,
    claimed jsonb NOT NULL,
    tape jsonb NOT NULL,
    tape_digest text NOT NULL,
    push_digest text NOT NULL
);
CREATE INDEX games_by_season ON games (season_id, status, id);
CREATE TABLE game_seats (
    game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat smallint NOT NULL,
    name text NOT NULL,
    player_id integer REFERENCES players (id),
    factions text[] NOT NULL,
    vp integer NOT NULL,
    place smallint NOT NULL,
    won boolean NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_by_player ON game_seats (player_id, game_id);
CREATE TABLE ratings (
    season_id integer NOT NULL REFERENCES seasons (id),
    player_id integer NOT NULL REFERENCES players (id),
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    PRIMARY KEY (season_id, player_id)
);
CREATE TABLE rating_changes (
    game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id integer NOT NULL REFERENCES players (id),
    mu_before double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu_after double precision NOT NULL,
    sigma_after double precision NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player_id, game_id);
CREATE TABLE settings (
    key text PRIMARY KEY,
    value text NOT NULL
);
INSERT INTO seasons (name) VALUES ('Season 1');
"""

#: (version, name, SQL), in order
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "initial", _INITIAL),
    # a tape already stored under another id is the same game sent again: found by its digest
    (2, "games-by-tape", "CREATE INDEX games_by_tape ON games (tape_digest, id);"),
)
LATEST = MIGRATIONS[-1][0]


class SchemaError(CompanionError):
    """The database's schema is not one this code can use."""


def migrate(conn: Connection) -> list[str]:
    """Apply the migrations the database lacks; returns their names (none: up to date).

    :raises SchemaError: the database was migrated by a newer version of the league.
    """
    applied: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", [MIGRATION_LOCK])
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY,"
            " name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())"
        )
        current = version(conn)
        if current > LATEST:
            raise SchemaError(_too_new(current))
        for number, name, sql in MIGRATIONS:
            if number > current:
                conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", [number, name]
                )
                applied.append(f"{number:04d}-{name}")
    return applied


def version(conn: Connection) -> int:
    """The last migration applied (0: none, or not a league database yet)."""
    if not scalar(conn, "SELECT to_regclass('schema_migrations') IS NOT NULL"):
        return 0
    return int(scalar(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations"))


def check_current(conn: Connection) -> None:
    """:raises SchemaError: the schema is behind (run the migrations) or ahead of this code."""
    current = version(conn)
    if current > LATEST:
        raise SchemaError(_too_new(current))
    if current < LATEST:
        raise SchemaError(
            f"the league database is at schema {current}, this server needs {LATEST}: "
            "run `companion league migrate --db URL` (or start `companion league serve`)"
        )


def _too_new(current: int) -> str:
    return (
        f"the league database is at schema {current}, newer than this server knows ({LATEST}); "
        "upgrade the companion package"
    )
