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


def bindings(db: str) -> list[object]:
    """The bindings stored so far (another connection: the command's store is its own)."""
    with EventStore.open(db) as store:
        return list(store.bindings.all())


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
    EventStore.open(db).close()  # created before two connections race to create it
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

    command = threading.Thread(target=run)
    command.start()
    tags = [NtagCard.for_card(f"04D1{n:010X}") for n in range(20)]
    try:
        for n, tag in enumerate(tags):
            antenna.place(tag)
            eventually(
                lambda n=n: len(bindings(db)) > n,  # type: ignore[misc]
                timeout=10,
                what=f"card {n} enrolled by the command's reader",
                every=0.02,  # each look opens the store: leave the reader thread its time
            )
            empty = antenna.empty_polls
            antenna.lift()
            if n == len(tags) - 1:
                break  # all enrolled: the command has stopped its reader
            eventually(  # it has missed the card enough times to report it gone, and polls on
                lambda empty=empty: antenna.empty_polls > empty + MISSES_TO_LEAVE,  # type: ignore[misc]
                timeout=5,
                what="the command's reader noticing the card lifted",
            )
        command.join(timeout=10)
    finally:
        simulator.close()
    result = outcome["result"]
    assert result.exit_code == 0, result.output
    assert "All 20 cards are enrolled." in result.output
    with EventStore.open(db) as store:
        assert store.bindings.get(tags[0].uid_hex).card == "core/king-rex"
        assert store.bindings.get(tags[0].uid_hex).owner == "Ann"
    # each tag now carries the NDEF record naming its card, so any table knows it
    ndef_area = bytes(tags[0].memory[18 : 18 + tags[0].memory[17]])
    assert decode_card_id(ndef_area) == "core/king-rex"
