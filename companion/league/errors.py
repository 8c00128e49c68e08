"""Errors the league answers with: each carries the HTTP status it is sent with and a message
that says what to do."""

from __future__ import annotations

from companion.errors import CompanionError


class LeagueError(CompanionError, ValueError):
    """A request the league refuses; nothing was changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class BadRequest(LeagueError):
    """The request is malformed (400) or names something the league cannot take (422)."""


class Conflict(LeagueError):
    """The request contradicts what the league already holds (409)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 409)


class NotFound(LeagueError):
    def __init__(self, message: str) -> None:
        super().__init__(message, 404)
