"""Enrolling tags: one at a time, a faction in printed order, export and import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.storage.store import EventStore
from companion.table.enrol import BulkEnrolment, EnrolError, deck_order, import_bindings
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


def test_enrol_a_faction_by_tapping_on_a_real_nfcpy_reader(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    import threading

    from companion.hardware.readers.ndef_card import decode_card_id
    from companion.hardware.readers.ntag_sim import NtagCard, Simulator
    from companion.hardware.readers.presence import MISSES_TO_LEAVE

    simulator = Simulator()
    antenna = simulator.add_zone("enrol")
    db = str(tmp_path / "tags.db")
    # Created before two connections race to create it, and kept open to look at the bindings
    # (another connection: the command's store is its own). A look is one SELECT: opening the
    # store for each look cost a file check and a write lock every time.
    looking = EventStore.open(db)
    outcome: dict[str, object] = {}

    def run() -> None:
        outcome["result"] = CliRunner().invoke(
            main,
            [
                "enrol",
                "faction",
                "core/dinosaurs",
                "--reader",
                f"nfc:{antenna.path}",
                "--owner",
                "Ann",
                "--db",
                db,
            ],
        )

    def enrolled(n: int) -> bool:
        """Whether card ``n`` is bound; a command that ended first fails the test at once,
        saying why (else its error waited out the timeout as a card never read)."""
        alive = command.is_alive()  # asked first: a command that ended has bound all it will
        if len(looking.bindings.all()) > n:
            return True
        if not alive:
            result = outcome["result"]
            raise AssertionError(
                f"the command ended before card {n} was enrolled: {result.exception!r}\n"
                + result.output
            )
        return False

    command = threading.Thread(target=run)
    command.start()
    tags = [NtagCard.for_card(f"04D1{n:010X}") for n in range(20)]
    try:
        for n, tag in enumerate(tags):
            antenna.place(tag)
            eventually(
                lambda n=n: enrolled(n),  # type: ignore[misc]
                timeout=10,
                what=f"card {n} enrolled by the command's reader",
            )
            empty = antenna.empty_polls
            antenna.lift()
            if n == len(tags) - 1:
                break  # all enrolled: the command has stopped its reader
            # The reader has had its MISSES_TO_LEAVE empty answers: the card's visit is over
            # (what it makes of the last one cannot depend on what lies here afterwards).
            eventually(
                lambda empty=empty: antenna.empty_polls >= empty + MISSES_TO_LEAVE,  # type: ignore[misc]
                timeout=5,
                what="the command's reader noticing the card lifted",
            )
        command.join(timeout=10)
    finally:
        simulator.close()
        looking.close()
    result = outcome["result"]
    assert result.exit_code == 0, result.output
    assert "All 20 cards are enrolled." in result.output
    with EventStore.open(db) as store:
        assert store.bindings.get(tags[0].uid_hex).card == "core/king-rex"
        assert store.bindings.get(tags[0].uid_hex).owner == "Ann"
    # each tag now carries the NDEF record naming its card, so any table knows it
    ndef_area = bytes(tags[0].memory[18 : 18 + tags[0].memory[17]])
    assert decode_card_id(ndef_area) == "core/king-rex"
