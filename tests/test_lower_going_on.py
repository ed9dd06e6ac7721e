"""A relaxed-cores search stopped at its time limit goes on from its record (issue 43): its cores
are taken first, its proof's lemmas come first in the new proof, and the bound of run after run
is certified as one. A record's files are checked before a search goes on from them, and a
tampered one never turns into a bound."""

from __future__ import annotations

import hashlib
import json
import lzma
import os
from pathlib import Path

import pytest

from minttt.errors import DefectError, InputError
from minttt.formula.arrays import encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.proof import drat, lower
from minttt.proof.cnf import level_literals
from minttt.proof.cubes import CORE_SOLVER, SAT_SOLVER, SAT_SOLVER_NAME, SOLVER_NAMES
from minttt.proof.lower import (
    LOWER_INDEX,
    build_cores_certificate,
    carried_from,
    load_lower,
    lower_cnf_of,
    record_key,
    write_lower_records,
)


def _instance(name: str):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    return variant, graph, encode_arrays(graph, variant)


def _stop_after(monkeypatch: pytest.MonkeyPatch, calls: int) -> None:
    """The search's time runs out at its ``calls + 1``-th look for a core."""
    real, count = lower._next_core, [0]

    def next_core(solver, free, deadline):  # type: ignore[no-untyped-def]
        count[0] += 1
        return None if count[0] > calls else real(solver, free, deadline)

    monkeypatch.setattr(lower, "_next_core", next_core)


def _stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, calls: int, **kw):
    """A stopped search's certificate, written into ``tmp_path``, and its record read back."""
    variant, graph, formula = _instance(name)
    with monkeypatch.context() as m:
        _stop_after(m, calls)
        cert = build_cores_certificate(
            variant, tmp_path, graph=graph, formula=formula, relax=True, **kw
        )
    write_lower_records(tmp_path, [cert.record], {str(p): d for p, d in cert.files.items()})
    (record,) = load_lower(tmp_path / LOWER_INDEX, only=record_key(cert.record))
    return (variant, graph, formula), record


def _listed(folder: Path, record: dict) -> dict:
    return json.loads(lzma.decompress((folder / record["cores"]).read_bytes()))


@pytest.mark.parametrize(
    ("name", "minimum", "calls", "exhaust"),
    [
        ("second-lookup-entries", 72, 30, False),
        ("second-lookup-entries", 72, 12, True),
        ("first-any-lookup-entries", 22, 9, True),
    ],
)
def test_a_stopped_search_goes_on_to_the_minimum_certified_as_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    minimum: int,
    calls: int,
    exhaust: bool,
) -> None:
    (variant, graph, formula), first = _stopped(tmp_path, monkeypatch, name, calls, exhaust=exhaust)
    assert first["complete"] is False and calls <= first["lower"] < minimum
    assert "runs" not in first
    first_log, first_proof = (
        _listed(tmp_path, first)["log"],
        drat.read_bytes(tmp_path / first["proof"]),
    )
    cert = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, relax=True, exhaust=exhaust,
        going_on=first,
    )  # fmt: skip
    record = cert.record
    assert record["complete"] is True and record["exact"] is True
    assert record["lower"] == minimum == len(record["core_sizes"])
    assert record["core_sizes"][: first["lower"]] == first["core_sizes"]
    assert record["runs"] == 2 and record["cadical_seconds"] >= first["cadical_seconds"]
    assert record["checked_by"] == "minttt check-proof (minttt.drat)"
    # the new proof begins with the old one's lemmas: no deletion, no empty clause
    proof = lzma.decompress(cert.files[tmp_path / record["proof"]])
    kept = [x for x in first_proof.splitlines() if not x.startswith(b"d ") and x != b"0"]
    assert proof.splitlines()[: len(kept)] == kept
    assert proof.count(b"\n0\n") == 1 and proof.endswith(b"\n0\n")
    # the record replaces the stopped one, its CNF made again from its cores file alone
    write_lower_records(tmp_path, [record], {str(p): d for p, d in cert.files.items()})
    (back,) = load_lower(tmp_path / LOWER_INDEX)
    assert (
        back["lower"] == minimum and _listed(tmp_path, back)["log"][: len(first_log)] == first_log
    )
    assert lower_cnf_of(back, tmp_path) == lzma.decompress(cert.files[tmp_path / record["cnf"]])
    assert not (tmp_path / first["proof"]).exists()  # the stopped record's files are gone
    # a record run to its end is gone on from too (how its claim, the minimum, is checked)
    top = level_literals(graph, formula, back["depths"])[0].num_vars
    assert len(carried_from(back, tmp_path, top).cores) == minimum


def test_a_third_run_adds_up_the_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (variant, graph, formula), first = _stopped(tmp_path, monkeypatch, "second-lookup-entries", 20)
    with monkeypatch.context() as m:
        _stop_after(m, 15)
        cert = build_cores_certificate(
            variant, tmp_path, graph=graph, formula=formula, relax=True, going_on=first
        )
    write_lower_records(tmp_path, [cert.record], {str(p): d for p, d in cert.files.items()})
    (second,) = load_lower(tmp_path / LOWER_INDEX)
    assert not second["complete"] and first["lower"] < second["lower"] < 72
    assert second["runs"] == 2
    third = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, relax=True, going_on=second
    ).record
    assert third["runs"] == 3 and third["lower"] == 72 and third["complete"]


def test_tampered_files_are_refused_before_a_search_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (variant, graph, formula), record = _stopped(tmp_path, monkeypatch, "second-lookup-entries", 66)
    assert record["lower"] < 72 and max(record["core_sizes"]) > 1
    top = level_literals(graph, formula, record["depths"])[0].num_vars

    def going_on(**changed) -> None:
        build_cores_certificate(
            variant, tmp_path, graph=graph, formula=formula, relax=True,
            going_on={**record, **changed},
        )  # fmt: skip

    assert len(carried_from(record, tmp_path, top).cores) == record["lower"]
    with pytest.raises(InputError, match="not a relaxed-cores record"):
        carried_from({**record, "method": "disjoint cores"}, tmp_path, top)
    with pytest.raises(InputError, match="too large to ship"):
        carried_from({**record, "proof": None}, tmp_path, top)
    with pytest.raises(InputError, match="of another part"):
        going_on(variant="second-lookup-entries@3x3-misere")
    with pytest.raises(InputError, match="only a search by relaxed cores"):
        build_cores_certificate(variant, tmp_path, graph=graph, formula=formula, going_on=record)

    def forged(field: str, data: bytes, name: str) -> dict:
        """A file of ``data`` the record is made to name, SHA-256 and all."""
        (tmp_path / name).write_bytes(lzma.compress(data))
        return {field: name, f"{field}_sha256": hashlib.sha256(data).hexdigest()}

    doc = _listed(tmp_path, record)
    proof = drat.read_bytes(tmp_path / record["proof"])
    # a changed file the record does not name
    (tmp_path / "moved.json.xz").write_bytes(lzma.compress(b"{}\n"))
    with pytest.raises(InputError, match="not the file the record names"):
        going_on(cores="moved.json.xz")
    # a core counted twice: the second time, its literal is no soft any more
    twice = {**doc, "bounded": [*doc["bounded"], doc["bounded"][0]]}
    with pytest.raises(InputError, match="carried core"):
        going_on(**forged("cores", json.dumps(twice).encode(), "twice.json.xz"))
    # a relaxed core dropped (a core of one dropped is only found again): its totalizer is
    # not made, and the log the carried cores make is not the file's
    i = next(i for i, size in enumerate(record["core_sizes"]) if size > 1)
    short = {**doc, "bounded": doc["bounded"][:i] + doc["bounded"][i + 1 :]}
    with pytest.raises(InputError, match="carried core|do not make the totalizers"):
        going_on(**forged("cores", json.dumps(short).encode(), "short.json.xz"))
    # a grow the cores never asked for: the log the carried cores make is not the file's
    grown = {**doc, "log": [*doc["log"], ["grow", 0, 2]]}
    with pytest.raises(InputError, match="do not make the totalizers"):
        going_on(**forged("cores", json.dumps(grown).encode(), "grown.json.xz"))
    # not a cores file at all
    with pytest.raises(InputError, match="not a cores file"):
        going_on(**forged("cores", b'{"log": [["new", "x"]]}\n', "junk.json.xz"))
    # a lemma no clause implies (a position every table holds, said to be in none), in a proof
    # the record is made to name: the new certificate's check refuses it
    lie = f"-{doc['bounded'][0]} 0\n".encode() + proof
    with pytest.raises(DefectError):
        going_on(**forged("proof", lie, "lie.drat.xz"))


def test_scale_goes_on_run_after_run(tmp_path: Path, monkeypatch, capsys) -> None:
    from minttt.cli import run as cli_run

    ckpt, certs = tmp_path / "o.json", tmp_path / "certs"
    args = ["scale", "--game", "mnk:3,3,3", "--role", "second", "--checkpoint", str(ckpt)]
    cores = [*args, "--cores", "60", "--relax", "--certificates", str(certs)]
    with monkeypatch.context() as m:
        _stop_after(m, 30)
        assert cli_run(cores) == 0
    (first,) = load_lower(certs / LOWER_INDEX)
    assert not first["complete"] and json.loads(ckpt.read_text())["lower"] == first["lower"]
    capsys.readouterr()
    assert cli_run(cores) == 0
    assert f"going on from {first['lower']} relaxed cores" in capsys.readouterr().err
    (record,) = load_lower(certs / LOWER_INDEX)
    assert record["lower"] == 72 and record["runs"] == 2 and record["exact"]
    state = json.loads(ckpt.read_text())
    assert state["lower"] == state["upper"] == 72  # the last model: a table of the minimum
    # run to its end: a third run goes on from it, finds nothing more and keeps the record
    assert cli_run(cores) == 0
    said = capsys.readouterr().err
    assert "ran to their end before: going on from them" in said
    assert "72 relaxed cores, the minimum, as before: certified" in said
    assert load_lower(certs / LOWER_INDEX) == [record]
    assert cli_run([*cores, "--fresh"]) == 0
    assert "going on" not in capsys.readouterr().err
    (record,) = load_lower(certs / LOWER_INDEX)
    assert record["lower"] == 72 and "runs" not in record
    assert cli_run([*args, "--cores", "60", "--fresh"]) == 2
    assert capsys.readouterr().err.splitlines() == ["error: --fresh needs --relax"]


@pytest.mark.skipif(not os.environ.get("MINTTT_DRAT_TRIM"), reason="needs MINTTT_DRAT_TRIM")
def test_drat_trim_verifies_a_search_gone_on(tmp_path: Path, monkeypatch) -> None:
    (variant, graph, formula), first = _stopped(
        tmp_path, monkeypatch, "second-lookup-entries@3x3-misere", 20, exhaust=True
    )
    cert = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, relax=True, exhaust=True,
        going_on=first, drat_trim=Path(os.environ["MINTTT_DRAT_TRIM"]),
    )  # fmt: skip
    assert cert.record["checked_by"].startswith("drat-trim")
    assert cert.record["lower"] == 53 and cert.record["complete"] and cert.record["runs"] == 2


def test_a_search_goes_on_with_another_solver_and_names_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record made by CaDiCaL 1.9.5 (every record before the core searches moved to 1.5.3)
    goes on with 1.5.3: one proof, checked whole, and the record names both solvers."""
    (variant, graph, formula), first = _stopped(
        tmp_path, monkeypatch, "second-lookup-entries", 20, sat_solver=SAT_SOLVER
    )
    assert first["sat_solver"] == SAT_SOLVER_NAME and not first["complete"]
    record = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, relax=True, going_on=first
    ).record
    assert record["lower"] == 72 and record["complete"] and record["runs"] == 2
    assert record["checked_by"] == "minttt check-proof (minttt.drat)"
    assert record["sat_solver"] == f"{SAT_SOLVER_NAME}, then {SOLVER_NAMES[CORE_SOLVER]}"
    # a record that names no solver is the index's (1.9.5): the same
    del first["sat_solver"]
    again = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, relax=True, going_on=first
    ).record
    assert again["sat_solver"] == record["sat_solver"]


def test_a_part_reads_only_its_own_records_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parts share a folder, and a run replacing one part's record removes that record's old
    files: a run of another part that read the index just before must not trip over them (seen
    on 4x4 k=4: a part stopped with "cannot read ... No such file"). The part's own record is
    still checked against its files; the whole index, read, still refuses a missing file."""
    _, o_record = _stopped(tmp_path, monkeypatch, "second-lookup-entries", 20)
    _, x_record = _stopped(tmp_path, monkeypatch, "first-any-lookup-entries", 5)
    (tmp_path / x_record["proof"]).unlink()
    index = tmp_path / LOWER_INDEX
    with pytest.raises(InputError, match="cannot read"):
        load_lower(index)
    assert load_lower(index, only=record_key(o_record)) == [o_record]
    (tmp_path / o_record["cores"]).write_bytes(lzma.compress(b"[]\n"))
    with pytest.raises(InputError, match="not the file the record names"):
        load_lower(index, only=record_key(o_record))
