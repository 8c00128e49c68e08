"""Memory with live streams (issue 22): each state goes to every stream without a copy of its
own, and glibc is asked to hand freed memory back. The figure itself is a benchmark
(bench/stream_memory_bench.py: stream_rss_growth_mb_240s), never a timed test."""

from __future__ import annotations

import platform

import pytest

from companion.web import memory
from companion.web.memory import Trimmer, bound_malloc
from companion.web.stream import message
from companion.web.table import View


def test_a_state_message_shares_the_payload_instead_of_copying_it() -> None:
    head = b'{"version":7,"state":{' + b'"x":1,' * 1000 + b'"y":1}'
    view = View(None, 7, head, b',"health":{},"pairing":null}', b"{}")
    parts = list(message(view))
    assert any(part is head for part in parts)  # 20 streams, one payload in memory
    assert b"".join(parts) == b"id: 7\nevent: state\ndata: " + view.data + b"\n\n"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeLibc:
    def __init__(self) -> None:
        self.trims = 0

    def malloc_trim(self, pad: int) -> int:
        assert pad == 0
        self.trims += 1
        return 1


def test_the_trimmer_trims_at_most_every_ten_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    libc = FakeLibc()
    monkeypatch.setattr(memory, "_LIBC", libc)
    clock = Clock()
    trimmer = Trimmer(clock)
    for _ in range(50):  # the main loop turns often: one trim per period, not per turn
        trimmer.maybe()
        clock.now += 0.5
    assert libc.trims == 2  # at 110 and 120 (the clock stopped at 125)


def test_without_glibc_nothing_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "_LIBC", None)
    clock = Clock()
    trimmer = Trimmer(clock)
    clock.now += 60
    trimmer.maybe()
    assert bound_malloc() is False


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_glibc_takes_the_mmap_threshold() -> None:
    assert bound_malloc() is True
