"""The emulated PN532's place on this host: its serving thread's priority, and the ``/dev``
links that emulators of processes that died left behind."""

from __future__ import annotations

import contextlib
import os
import re
import threading


def answer_promptly() -> None:
    """Put the calling (serving) thread ahead of ordinary work on this machine.

    nfcpy gives the chip 100 ms to ACK each command (``pn53x.Chipset.command``) and its HSU
    open 100 ms per read; a real PN532 is never late, but this thread is late whenever a loaded
    machine does not run it within that window, and nfcpy then fails the open or the command
    (EIO, ETIMEDOUT). A real-time round-robin thread runs as soon as the host's frame arrives;
    it answers in microseconds and sleeps in ``select`` otherwise. Where real-time scheduling is
    not allowed, a lower nice value; where neither is, the default (only slower to answer)."""
    thread = threading.get_native_id()
    try:
        os.sched_setscheduler(thread, os.SCHED_RR, os.sched_param(1))
    except OSError:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, thread, -10)


def remove_stale(device_dir: str, prefix: str) -> None:
    """Links left by emulators of processes that died without closing them."""
    for entry in os.listdir(device_dir):
        match = re.match(rf"{prefix}(\d+)x", entry)
        if match is None or _alive(int(match.group(1))):
            continue
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(device_dir, entry))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
