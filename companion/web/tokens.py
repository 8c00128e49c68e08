"""The table's control token: made once, kept in a file only its owner can read."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def load_or_create_token(path: str | Path) -> str:
    """The token in ``path``; a new one (``secrets.token_urlsafe``) written there with mode
    0600 if the file is missing or empty. A readable-by-others file is narrowed to 0600."""
    path = Path(path)
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        token = ""
    if token:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return token
    token = secrets.token_urlsafe(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    path.chmod(0o600)
    return token
