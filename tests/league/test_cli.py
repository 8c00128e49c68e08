"""The league's commands on the server: the schema, table keys, the organiser token, seasons,
voiding and merging, with clear messages instead of tracebacks."""

from __future__ import annotations

import re

from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.cli.main import main
from companion.league.admin import is_organiser, table_for_key
from companion.league.database import Connection
from tests.league.games import push
from tests.league.test_ingest import send


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["league", *args])
    return result.exit_code, result.output


def test_tables_get_keys_that_work_until_revoked(league_db: str, db: Connection) -> None:
    assert run("migrate", "--db", league_db) == (0, "the schema is up to date\n")
    code, out = run("table", "add", "Table 3", "--db", league_db)
    assert code == 0 and "[league]" in out
    key = re.search(r'table_key = "(tk_[^"]+)"', out)
    assert key is not None
    found = table_for_key(db, key.group(1))
    assert found is not None and found.name == "Table 3"
    assert run("table", "add", "Table 3", "--db", league_db)[0] == 1
    code, new_key = run("table", "rekey", "Table 3", "--db", league_db)
    assert code == 0 and table_for_key(db, key.group(1)) is None
    assert table_for_key(db, new_key.strip()) is not None
    assert run("table", "revoke", "Table 3", "--db", league_db)[0] == 0
    assert table_for_key(db, new_key.strip()) is None
    assert "revoked" in run("table", "list", "--db", league_db)[1]


def test_the_organiser_token_seasons_void_and_merge(
    league_db: str, db: Connection, league_client: FlaskClient, table_key: str
) -> None:
    code, token = run("organiser-token", "--db", league_db)
    assert code == 0 and is_organiser(db, token.strip())
    send(league_client, table_key, push(1, "Ann", "Ben"))
    send(league_client, table_key, push(2, "anne", "Cat"))
    assert run("merge", "anne", "Ann", "--db", league_db) == (0, "anne is now Ann\n")
    assert run("void", "game-1", "--reason", "wrong deck", "--db", league_db) == (
        0,
        "game game-1 is void (it was counted)\n",
    )
    status = db.execute("SELECT status, void_reason FROM games WHERE uid = 'game-1'").fetchone()
    assert status == {"status": "void", "void_reason": "wrong deck"}
    assert run("season", "Spring", "--db", league_db) == (0, "season Spring started\n")


def test_errors_are_messages_not_tracebacks(league_db: str) -> None:
    code, out = run("void", "no-such-game", "--db", league_db)
    assert code == 1 and "there is no game 'no-such-game'" in out
    code, out = run("migrate", "--db", "host=127.0.0.1 port=1 user=x dbname=x connect_timeout=2")
    assert code == 1 and "cannot connect to the league database" in out
    assert "Traceback" not in out
    code, out = run("migrate")
    assert code == 2 and "--db" in out
