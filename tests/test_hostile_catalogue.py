"""Hostile tests of the catalogue (issue 71): a faked certificate record, bounds out of order, a
never-lose minimum above the optimal cell's table, a tampered run state resumed. Each works on a
copy of one game of ``results/catalogue`` (its state, tables and certificate records), never on
the shipped folder."""

from __future__ import annotations

import copy
import hashlib
import json
import lzma
import shutil
from pathlib import Path
from typing import Any

import pytest

from minttt.catalogue.run import RESULTS, STATE, catalogue_document
from minttt.cli import run as cli_run
from minttt.errors import InputError
from minttt.proof.index import INDEX
from minttt.proof.lower import LOWER_INDEX
from minttt.report.catalogue import check_state

SHIPPED = Path(__file__).resolve().parent.parent / "results" / "catalogue"
FILES = ("cnf", "proof", "table", "cores", "sessions")


def _small_copy(folder: Path, game: str) -> dict[str, Any]:
    """``folder``: the shipped catalogue cut down to ``game``: its state, its cells' tables, the
    records of its variants in ``index.json`` and ``lower-bounds.json`` and their files."""
    folder.mkdir()
    state = json.loads((SHIPPED / STATE).read_text())
    state["games"] = {game: state["games"][game]}
    cells = state["games"][game]["cells"].values()
    variants = {c["variant"] for c in cells if "variant" in c}
    names = {c["table"] for c in cells if "table" in c}
    for index in (INDEX, LOWER_INDEX):
        doc = json.loads((SHIPPED / index).read_text())
        doc["certificates"] = [r for r in doc["certificates"] if r["variant"] in variants]
        names |= {str(r[f]) for r in doc["certificates"] for f in FILES if r.get(f)}
        (folder / index).write_text(json.dumps(doc, indent=2) + "\n")
    for name in names:
        shutil.copyfile(SHIPPED / name, folder / name)
    _save(folder, state)
    return state


def _save(folder: Path, state: dict[str, Any]) -> None:
    (folder / STATE).write_text(json.dumps(state, indent=2) + "\n")


def _fake_record(folder: Path, variant: str, minimum: int, table: str, *, files: bool) -> None:
    """An ``index.json`` record of ``variant``'s minimum, checked by drat-trim, so it says, with
    a proof and a CNF that exist (``files``: the bytes the record names) or do not."""
    doc = json.loads((folder / INDEX).read_text())
    record = copy.deepcopy(doc["certificates"][0])
    text = b"p cnf 1 2\n1 0\n-1 0\n"
    record.update(
        variant=variant,
        minimum=minimum,
        bound=minimum - 1,
        cnf="fake.cnf.xz",
        proof="fake.drat.xz",
        table=table,
        cnf_sha256=hashlib.sha256(text).hexdigest(),
        proof_sha256=hashlib.sha256(b"0\n").hexdigest(),
        shipped=True,
        checked_by="drat-trim (backward); its LRAT by minttt check-proof --lrat (minttt.lrat)",
    )
    doc["certificates"].append(record)
    (folder / INDEX).write_text(json.dumps(doc, indent=2) + "\n")
    if files:
        (folder / "fake.cnf.xz").write_bytes(lzma.compress(text, format=lzma.FORMAT_XZ))
        (folder / "fake.drat.xz").write_bytes(lzma.compress(b"0\n", format=lzma.FORMAT_XZ))


def _proven_by_fake(folder: Path, state: dict[str, Any], *, files: bool) -> None:
    """mnk:2,5,3's O never-lose cell made proven at its table's 179 entries by a faked record
    (the optimal cell beside it holds a verified table of 161)."""
    cells = state["games"]["mnk:2,5,3"]["cells"]
    cell = cells["O never-lose"]
    assert cell["upper"] == 179 and cells["O optimal"]["upper"] == 161
    for key in ("lower_certified", "certified_lower"):
        cell.pop(key, None)
    cell.update(status="proven", lower=179, lower_by="certificate", certificate="fake.drat.xz")
    _fake_record(folder, cell["variant"], 179, cell["table"], files=files)
    _save(folder, state)


def test_a_faked_record_whose_files_do_not_exist_proves_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "catalogue"
    state = _small_copy(folder, "mnk:2,5,3")
    check_state(folder)  # the copy itself holds
    _proven_by_fake(folder, state, files=False)
    with pytest.raises(InputError, match=r"fake\.(cnf|drat)\.xz is not there"):
        check_state(folder)


def test_a_never_lose_minimum_above_the_optimal_table_is_refused(tmp_path: Path) -> None:
    # the faked record's files exist and match: the 161-entry optimal table, which never loses,
    # still rules a never-lose minimum of 179 out
    folder = tmp_path / "catalogue"
    state = _small_copy(folder, "mnk:2,5,3")
    _proven_by_fake(folder, state, files=True)
    with pytest.raises(InputError, match=r"mnk:2,5,3 O never-lose: lower bound 179 above the"):
        check_state(folder)
    # and in the results document made from such a state
    with pytest.raises(InputError, match=r"mnk:2,5,3 O never-lose: lower bound 179"):
        catalogue_document(state, games=["mnk:2,5,3"])


def test_a_never_lose_lower_bound_above_the_optimal_table_is_refused() -> None:
    # a bounded never-lose cell of 170 .. 179 beside a proven optimal 161: never 170..161
    state = json.loads((SHIPPED / STATE).read_text())
    cells = state["games"]["mnk:2,5,3"]["cells"]
    cells["O never-lose"].update(lower=170, lower_certified=False, lower_by="rc2")
    with pytest.raises(InputError, match=r"mnk:2,5,3 O never-lose: lower bound 170 above"):
        catalogue_document(state, games=["mnk:2,5,3"])


def test_a_lower_bound_above_its_table_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "catalogue"
    state = _small_copy(folder, "mnk:2,5,3")
    cell = state["games"]["mnk:2,5,3"]["cells"]["O never-lose"]
    cell.pop("certified_lower", None)
    cell.update(lower=185, lower_certified=False, lower_by="rc2")
    _save(folder, state)
    with pytest.raises(InputError, match=r"O never-lose: lower bound 185 above its table of 179"):
        check_state(folder)
    with pytest.raises(InputError, match=r"mnk:2,5,3 O never-lose: lower bound 185 above"):
        catalogue_document(state, games=["mnk:2,5,3"])


def test_a_tampered_run_state_is_refused_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a 3-entry table said to be 2 entries, proven: the command refuses the state before it
    # works or writes anything
    folder = tmp_path / "catalogue"
    state = _small_copy(folder, "mnk:2,2,2")
    cell = state["games"]["mnk:2,2,2"]["cells"]["X optimal"]
    assert cell["status"] == "proven" and cell["upper"] == 3
    cell.update(lower=2, upper=2)
    _save(folder, state)
    results = folder / RESULTS
    results.write_text('{"before": true}\n')
    capsys.readouterr()
    code = cli_run(["catalogue", "--out", str(folder), "--games", "mnk:2,2,2", "--time-limit", "5"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "mnk:2,2,2 X optimal" in err and "Traceback" not in err
    assert results.read_text() == '{"before": true}\n'
