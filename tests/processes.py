"""A command run as people run it, for the tests of long-running commands (``companion demo``,
``companion league demo``)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


@contextmanager
def piped(argv: Sequence[str], **popen: Any) -> Iterator[subprocess.Popen[str]]:
    """``argv`` running with its output (stdout and stderr together) piped as text; killed if
    still running when the test is done with it, pass or fail, and its pipe closed."""
    process = subprocess.Popen(
        list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stdout is not None
        process.stdout.close()
