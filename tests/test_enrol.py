"""Enrolling tags: one at a time, a faction in printed order, export and import."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue, load_catalogue
from companion.cli.main import main
from companion.hardware.readers.ndef_card import decode_card_id
from companion.hardware.readers.ntag_sim import NtagCard, Simulator
from companion.hardware.readers.presence import MISSES_TO_LEAVE
from companion.storage.store import EventStore
from companion.table.enrol import (
    RETRY_WRITE,
    BulkEnrolment,
    EnrolError,
    deck_order,
    import_bindings,
)
from tests.waiting import eventually


def test_deck_order_expands_copies_in_printed_order(catalogue: Catalogue) -> None:
    deck = deck_order(catalogue, "core/dinosaurs")
    assert len(deck) == 20
    assert [c.id for c in deck[:2]] == ["core/king-rex", "core/laseratops"]
    assert sum(c.id == "core/war-raptor" for c in deck) == 4
    with pytest.raises(EnrolError, match="unknown faction"):
        deck_order(catalogue, "core/pixies")


def test_bulk_enrolment_binds_in_turn_and_never_rebinds_silently(catalogue: Catalogue) -> None:
    store = EventStore.memory()
    enrolment = BulkEnrolment(deck_order(catalogue, "core/dinosaurs"), owner="Ann")
    assert enrolment.prompt().startswith("Tap King Rex")
    assert "now King Rex" in enrolment.read("04aa01", store, catalogue)
    again = enrolment.read("04AA01", store, catalogue)
    assert "already King Rex" in again and "not rebound" in again and "Tap Laseratops" in again
    for n in range(2, 21):
        enrolment.read(f"04AA{n:02d}", store, catalogue)
    assert enrolment.done and len(store.bindings.all()) == 20
    assert store.bindings.get("04AA01").owner == "Ann"
    assert store.bindings.get("04AA20").card == deck_order(catalogue, "core/dinosaurs")[-1].id


def test_a_failed_record_write_is_said_and_tapping_the_tag_again_writes_it(
    catalogue: Catalogue,
) -> None:
    store = EventStore.memory()
    enrolment = BulkEnrolment(deck_order(catalogue, "core/dinosaurs"), owner="Ann", records=True)
    assert enrolment.card_to_write("04aa01", None) == "core/king-rex"  # the next card's
    failed = enrolment.read("04AA01", store, catalogue, record=None)  # the write did not take
    assert "now King Rex" in failed and RETRY_WRITE in failed and "Tap Laseratops" in failed
    assert store.bindings.get("04AA01").card == "core/king-rex"  # bound all the same
    # tapped again: its own record is written again, and the deck does not move on
    assert enrolment.card_to_write("04AA01", "core/king-rex") == "core/king-rex"
    again = enrolment.read("04AA01", store, catalogue, record=None)
    assert "failed again" in again and RETRY_WRITE in again and "Tap Laseratops" in again
    written = enrolment.read("04AA01", store, catalogue, record="core/king-rex")
    assert "now holds its NDEF record" in written and "Tap Laseratops" in written
    assert enrolment.unwritten == {} and enrolment.position == 1
    # once written it is an ordinary bound tag: never written again, never rebound
    assert enrolment.card_to_write("04AA01", "core/king-rex") is None
    assert "not rebound" in enrolment.read("04AA01", store, catalogue, record="core/king-rex")
    # a tag bound before (to whatever card) is not written either
    store.bindings.bind("04BB01", "core/laseratops")
    assert enrolment.card_to_write("04BB01", "core/laseratops") is None
    for n in range(2, 21):
        last = enrolment.read(f"04AA{n:02d}", store, catalogue, record=None if n == 20 else "x")
    deck = deck_order(catalogue, "core/dinosaurs")
    # every card is bound, yet 19 tags lack their record (read back as another card or none)
    assert enrolment.done and not enrolment.finished and len(enrolment.unwritten) == 19
    assert "All 20 cards are enrolled, but 19 tags lack their NDEF record" in last
    assert enrolment.summary().startswith("20 cards enrolled; 19 tags lack their NDEF record: ")
    for n in range(2, 21):
        enrolment.read(f"04AA{n:02d}", store, catalogue, record=deck[n - 1].id)
    assert enrolment.finished and enrolment.prompt() == "All 20 cards are enrolled."
    assert enrolment.summary() == "20 cards enrolled"
    assert enrolment.card_to_write("04CC01", None) is None  # nothing left to bind


def test_cli_bind_show_export_import(tmp_path: Path) -> None:
    runner = CliRunner()
    db, other = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    bound = runner.invoke(main, ["enrol", "bind", "04ab", "munchkin/sword-lord", "--db", db])
    assert bound.exit_code == 0 and "Sword Lord" in bound.output
    clash = runner.invoke(main, ["enrol", "bind", "04AB", "munchkin/dumbbells", "--db", db])
    assert clash.exit_code != 0 and "--rebind" in clash.stderr
    unknown = runner.invoke(main, ["enrol", "bind", "04AC", "munchkin/nope", "--db", db])
    assert unknown.exit_code != 0 and "unknown card id" in unknown.stderr
    shown = runner.invoke(main, ["enrol", "show", "04AB", "--db", db])
    assert "munchkin/sword-lord" in shown.output
    assert "not enrolled" in runner.invoke(main, ["enrol", "show", "04FF", "--db", db]).output
    exported = tmp_path / "deck.json"
    assert runner.invoke(main, ["enrol", "export", str(exported), "--db", db]).exit_code == 0
    imported = runner.invoke(main, ["enrol", "import", str(exported), "--db", other])
    assert imported.exit_code == 0 and "1 bindings added" in imported.output
    with EventStore.open(other) as store:
        assert store.bindings.get("04AB").card == "munchkin/sword-lord"


def test_import_checks_everything_first_and_reports_conflicts(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    store = EventStore.memory()
    store.bindings.bind("04AB", "munchkin/dumbbells")
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            {
                "bindings": 1,
                "tags": [
                    {"uid": "04ab", "card": "munchkin/sword-lord", "owner": None},
                    {"uid": "04AC", "card": "munchkin/fence", "owner": "Ben"},
                ],
            }
        )
    )
    added, notes = import_bindings(good, store, catalogue)
    assert added == 1 and "kept munchkin/dumbbells" in notes[0]
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "bindings": 1,
                "tags": [
                    {"uid": "04AD", "card": "munchkin/fence"},
                    {"uid": "04AE", "card": "nope/nope"},
                ],
            }
        )
    )
    with pytest.raises(EnrolError, match=r"tags\[1\]: unknown card id"):
        import_bindings(bad, store, catalogue)
    assert store.bindings.get("04AD") is None  # nothing written when any entry is bad
    (tmp_path / "junk.json").write_text("{")
    with pytest.raises(EnrolError, match="cannot read it"):
        import_bindings(tmp_path / "junk.json", store, catalogue)


#: taps of one card at most: a write that fails under load is said, and tapped again
TRIES = 5


class Enrolling:
    """``companion enrol faction core/dinosaurs`` in a thread on a real nfcpy reader on the
    simulated table, and what it tells the person, line by line as they read it."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.simulator = Simulator()
        self.antenna = self.simulator.add_zone("enrol")
        self.db = str(tmp_path / "tags.db")
        # Created before two connections race to create it, and kept open to look at the
        # bindings (another connection: the command's store is its own). A look is one SELECT:
        # opening the store for each look cost a file check and a write lock every time.
        self.looking = EventStore.open(self.db)
        self.said: list[str] = []
        echo = click.echo

        def heard(message: object = None, *args: Any, **kwargs: Any) -> None:
            if message is not None:
                self.said.append(str(message))
            echo(message, *args, **kwargs)

        monkeypatch.setattr(click, "echo", heard)
        self.outcome: dict[str, Any] = {}
        self.command = threading.Thread(target=self._run)

    def _run(self) -> None:
        args = ["enrol", "faction", "core/dinosaurs", "--reader", f"nfc:{self.antenna.path}"]
        self.outcome["result"] = CliRunner().invoke(
            main, [*args, "--owner", "Ann", "--db", self.db]
        )

    def __enter__(self) -> Enrolling:
        self.command.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.command.join(timeout=10)
        self.simulator.close()
        self.looking.close()

    def tap(self, tag: NtagCard) -> str:
        """Lay ``tag`` on the reader until the command answers, lift it until the reader has
        seen it go (its MISSES_TO_LEAVE empty polls: the visit is over, whatever lies here
        next), and return the answer."""
        since = len(self.said)
        self.antenna.place(tag)
        eventually(
            lambda: self._answer(tag.uid_hex, since) is not None,
            timeout=10,
            what=f"the command's answer to tag {tag.uid_hex}",
        )
        answer = self._answer(tag.uid_hex, since)
        assert answer is not None
        empty = self.antenna.empty_polls
        self.antenna.lift()
        eventually(  # a command that has ended has stopped its reader
            lambda: (
                self.antenna.empty_polls >= empty + MISSES_TO_LEAVE or not self.command.is_alive()
            ),
            timeout=5,
            what="the command's reader noticing the card lifted",
        )
        return answer

    def enrol(self, tag: NtagCard) -> list[str]:
        """Tap ``tag`` as the person is told: again while its record's write is said to have
        failed (a late answer under load), up to :data:`TRIES` taps; every answer."""
        answers = [self.tap(tag)]
        while "failed" in answers[-1]:
            assert RETRY_WRITE in answers[-1]
            if len(answers) == TRIES:
                raise AssertionError(f"tag {tag.uid_hex}'s record was not written in {TRIES} taps")
            answers.append(self.tap(tag))
        return answers

    def _answer(self, uid: str, since: int) -> str | None:
        """The command's line about ``uid`` since line ``since``; a command that ended first
        fails the test at once, saying why (else its error waited out the timeout)."""
        alive = self.command.is_alive()  # asked first: a command that ended has said all
        found = next((line for line in self.said[since:] if uid in line), None)
        if found is None and not alive:
            result = self.outcome["result"]
            raise AssertionError(
                f"the command ended before tag {uid} was answered: {result.exception!r}\n"
                + result.output
            )
        return found


@pytest.mark.parametrize("refusing", [None, 0, 19], ids=["writes", "first-refuses", "last-refuses"])
def test_enrol_a_faction_by_tapping_on_a_real_nfcpy_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refusing: int | None
) -> None:
    """Every card bound at its first tap; a tag whose record write fails (``refusing``: the
    tag refuses its first WRITE; or a late answer under load) is said to have failed and is
    tapped again, as the person is told, until it holds its record."""
    tags = [NtagCard.for_card(f"04D1{n:010X}") for n in range(20)]
    if refusing is not None:
        tags[refusing].refuse_writes = 1
    deck = deck_order(load_catalogue(), "core/dinosaurs")
    retried: list[int] = []
    with Enrolling(tmp_path, monkeypatch) as enrolling:
        for n, tag in enumerate(tags):
            answers = enrolling.enrol(tag)
            assert f"is now {deck[n].name}" in answers[0]  # bound at its first tap
            assert len(enrolling.looking.bindings.all()) == n + 1  # and by no tap again
            if len(answers) > 1:
                retried.append(n)
    result = enrolling.outcome["result"]
    assert result.exit_code == 0, result.output
    assert "All 20 cards are enrolled." in result.output
    if refusing is not None:
        assert refusing in retried and f"{RETRY_WRITE}." in result.output
    with EventStore.open(enrolling.db) as store:
        assert store.bindings.get(tags[0].uid_hex).card == "core/king-rex"
        assert store.bindings.get(tags[0].uid_hex).owner == "Ann"
        assert [store.bindings.get(tag.uid_hex).card for tag in tags] == [c.id for c in deck]
    # each tag now carries the NDEF record naming its card, so any table knows it
    ndef_area = bytes(tags[0].memory[18 : 18 + tags[0].memory[17]])
    assert decode_card_id(ndef_area) == "core/king-rex"
    for tag, card in zip(tags, deck, strict=True):
        assert decode_card_id(bytes(tag.memory[18 : 18 + tag.memory[17]])) == card.id


def test_a_tap_while_another_program_holds_the_store_is_refused_and_tapped_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program holding the store's write lock past the busy wait: the tap is said
    not to be enrolled, nothing is bound, the command keeps reading, and the same card tapped
    again once the lock is let go is enrolled. (The wait is shortened from SQLite's 5 s: what
    is tested is what happens after it, not its length.)"""
    monkeypatch.setattr("companion.cli.enrol.BUSY_WAIT", 0.05)
    tags = [NtagCard.for_card(f"04D2{n:010X}") for n in range(20)]
    with Enrolling(tmp_path, monkeypatch) as enrolling:
        assert "is now King Rex" in enrolling.enrol(tags[0])[0]
        other = sqlite3.connect(enrolling.db)
        try:
            other.execute("BEGIN IMMEDIATE")  # another program's write lock, held
            refused = enrolling.tap(tags[1])
            assert "was not enrolled" in refused and "busy" in refused
            assert "tap the card again. Tap Laseratops (copy 1 of 2): card 2" in refused
            assert enrolling.looking.bindings.get(tags[1].uid_hex) is None
        finally:
            other.rollback()
            other.close()
        assert "is now Laseratops" in enrolling.enrol(tags[1])[0]
        for tag in tags[2:]:
            enrolling.enrol(tag)
    result = enrolling.outcome["result"]
    assert result.exit_code == 0 and result.exception is None, result.output
    assert "Traceback" not in result.output and "All 20 cards are enrolled." in result.output
    with EventStore.open(enrolling.db) as store:
        assert len(store.bindings.all()) == 20
        assert store.bindings.get(tags[1].uid_hex).card == "core/laseratops"
    assert decode_card_id(bytes(tags[1].memory[18 : 18 + tags[1].memory[17]])) == (
        "core/laseratops"
    )
