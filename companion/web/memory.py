"""Keeping the serving process's memory flat while event streams run (glibc's malloc only).

What grew with 20 live streams was not Python objects (tracemalloc saw about 1.4 MB, bounded:
waitress's per-stream output buffers, each under its 128 KiB cap) but freed memory glibc kept:
every state is written to every stream through buffers of tens of KiB (waitress copies each
message into a ``BytesIO`` that grows by ``realloc`` up to the cap, then a new one), made and
freed in 20 threads. glibc raises its mmap threshold after such blocks are freed, so later ones
come from the heap, whose freed gaps it does not hand back. So, where glibc is the C library:

* :func:`bound_malloc` fixes the mmap threshold at :data:`MMAP_THRESHOLD`: blocks that large
  are mapped on their own and returned to the system when freed;
* :class:`Trimmer` asks glibc every :data:`TRIM_SECONDS` to return the free pages of its heaps
  (``malloc_trim``), from the server's main loop.

Elsewhere (musl, macOS) both do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

#: mallopt's parameter number for the mmap threshold (glibc's malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 16 * 1024
TRIM_SECONDS = 10.0


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    if libc is None or not hasattr(libc, "mallopt") or not hasattr(libc, "malloc_trim"):
        return None
    return libc


_LIBC = _libc()


def bound_malloc() -> bool:
    """Fix glibc's mmap threshold; whether this C library took it."""
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


class Trimmer:
    """Returns glibc's free heap pages to the system at most every :data:`TRIM_SECONDS`."""

    def __init__(self, clock: Callable[[], float], every: float = TRIM_SECONDS) -> None:
        self.clock = clock
        self.every = every
        self._next = clock() + every

    def maybe(self) -> None:
        now = self.clock()
        if _LIBC is None or now < self._next:
            return
        self._next = now + self.every
        _LIBC.malloc_trim(0)
