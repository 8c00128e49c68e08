"""The table's control token: made once, kept beside the games database in a file only its
owner can read, and replaced by ``companion token --rotate``.

The running table reads it through :class:`TokenFile`, which notices a rotation made by
another process (the file is replaced, never rewritten in place).
"""

from __future__ import annotations

import os
import secrets
import threading
from pathlib import Path

TOKEN_BYTES = 32


def token_path(db: str | Path) -> Path:
    """The control token of the store at ``db`` lives beside it: ``<db>.token``."""
    return Path(f"{db}.token")


def load_or_create_token(path: str | Path) -> str:
    """The token in ``path``; a new one (``secrets.token_urlsafe``) written there with mode
    0600 if the file is missing or empty. A readable-by-others file is narrowed to 0600.

    :raises OSError: the file cannot be read or written.
    """
    path = Path(path)
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        token = ""
    if token:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return token
    return write_new_token(path)


def write_new_token(path: str | Path) -> str:
    """Replace the token in ``path`` with a new one (atomically: readers see the old token or
    the new, never half of one). :raises OSError: the folder cannot be written."""
    path = Path(path)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(token + "\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(fresh, path)
    except BaseException:
        fresh.unlink(missing_ok=True)
        raise
    return token


class TokenFile:
    """The control token as the running table sees it: read again when the file changes."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None
        self._token = load_or_create_token(self.path)

    def current(self) -> str:
        """The token now (the one read last if the file went missing or unreadable)."""
        try:
            stat = self.path.stat()
        except OSError:
            return self._token
        seen = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if seen != self._seen:
                try:
                    token = self.path.read_text(encoding="utf-8").strip()
                except OSError:
                    return self._token
                if token:
                    self._token, self._seen = token, seen
            return self._token
