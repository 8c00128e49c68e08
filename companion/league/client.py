"""Talking to a league server with the standard library only (a table must not need more):
push a game, fetch the player list, and when to try again.
"""

from __future__ import annotations

import http.client
import json
import random
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from companion.league.payload import MAX_PUSH_BYTES

#: statuses worth sending again later: the server (or its database) is busy or restarting
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: Any

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def retry(self) -> bool:
        """Worth sending again later (never for a refusal: a 4xx says the push is wrong)."""
        return self.status in RETRY_STATUSES

    @property
    def error(self) -> str:
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), str):
            return str(self.body["error"])
        return f"HTTP {self.status}"


def request(
    method: str, url: str, body: Any = None, *, token: str | None = None, timeout: float = 10.0
) -> Answer:
    """One JSON request. :raises OSError: the server cannot be reached (URLError, timeouts)."""
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    call = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(call, timeout=timeout) as response:
            return Answer(response.status, _json(response.read()))
    except urllib.error.HTTPError as exc:
        with exc:
            return Answer(exc.code, _json(exc.read()))
    except http.client.HTTPException as exc:  # the connection broke mid-answer
        raise OSError(f"the answer was cut off ({type(exc).__name__})") from None


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8")) if raw else None
    except (UnicodeDecodeError, ValueError):
        return {"error": raw[:200].decode("utf-8", "replace")}


def push_game(url: str, key: str, payload: dict[str, Any], *, timeout: float = 20.0) -> Answer:
    """Send one game (see :mod:`companion.league.payload`); one larger than the league takes
    is answered 413 here, unsent. :raises OSError: unreachable."""
    size = len(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
    if size > MAX_PUSH_BYTES:
        return Answer(413, {"error": too_large(size)})
    return request("POST", f"{url.rstrip('/')}/api/v1/games", payload, token=key, timeout=timeout)


def too_large(size: int) -> str:
    mb = 1024 * 1024
    return (
        f"the game's push is {size / mb:.1f} MB and the league takes at most "
        f"{MAX_PUSH_BYTES // mb} MB: it is kept on the table and not sent"
    )


def player_names(url: str, *, timeout: float = 5.0) -> list[str]:
    """The league's player names. :raises OSError: unreachable or not a league server."""
    answer = request("GET", f"{url.rstrip('/')}/api/v1/players", timeout=timeout)
    body = answer.body
    if not answer.ok or not isinstance(body, dict) or not isinstance(body.get("players"), list):
        raise OSError(f"{url} did not answer with the league's players ({answer.error})")
    return [str(p["name"]) for p in body["players"] if isinstance(p, dict) and "name" in p]


@dataclass
class Backoff:
    """Waits between attempts: doubling from ``first`` up to ``most`` seconds, with jitter so
    ten tables coming back at once do not knock in step."""

    first: float = 1.0
    most: float = 300.0
    rng: random.Random = field(default_factory=random.Random)
    failures: int = 0

    def next_wait(self) -> float:
        base = min(self.most, self.first * 2.0 ** min(self.failures, 30))
        self.failures += 1
        return base * self.rng.uniform(0.5, 1.0)

    def reset(self) -> None:
        self.failures = 0
