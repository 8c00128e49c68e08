"""Launching Debian's Chromium headless (the benchmarks and the browser tests share this)."""

from __future__ import annotations

#: the flags a root, offline sandbox needs (no first-run or network chatter)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
