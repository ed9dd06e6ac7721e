"""Lower bounds that ship a certificate (issue 43): the CNF "fewer than L entries at these depths"
refuted by CaDiCaL and checked, its index, blocks of levels, and the bounds report's check of a
bound by level certificates."""

from __future__ import annotations

import json
import lzma
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pysat.examples.genhard import PHP

from minttt.bounds.levels import block_bound, blocks_of, level_bounds
from minttt.errors import DefectError, InputError
from minttt.formula.arrays import encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.proof import drat
from minttt.proof.certify import OutOfTime, prove_unsat
from minttt.proof.cnf import MAX_COMMENT, lower_cnf
from minttt.proof.lower import (
    LOWER_INDEX,
    build_lower_certificate,
    checked_lower,
    load_lower,
    write_lower_records,
)
from minttt.report.bounds import check_level_certificates

O33 = Variant.parse("second-lookup-entries")


@pytest.fixture(scope="module")
def o33():
    graph = build_array_graph(O33.rules)
    return graph, encode_arrays(graph, O33)


def test_each_level_minimum_is_certified_and_one_more_is_not(o33, tmp_path: Path) -> None:
    graph, formula = o33
    levels = level_bounds(graph, formula, seconds_per_level=30).levels
    assert [(lv.depth, lv.lower) for lv in levels] == [(1, 3), (3, 10), (5, 34), (7, 25)]
    certs = []
    for lv in levels:
        cert = build_lower_certificate(
            O33, lv.lower, tmp_path, depths=[lv.depth], graph=graph, formula=formula
        )
        assert cert.record["checked_by"] == "minttt check-proof (minttt.drat)"
        cnf, proof = (lzma.decompress(d) for d in cert.files.values())
        assert drat.check(cnf, proof).valid  # the shipped files check on their own
        certs.append(cert)
    with pytest.raises(DefectError, match="satisfiable"):  # a table has only 34 there
        build_lower_certificate(O33, 35, tmp_path, depths=[5], graph=graph, formula=formula)
    for cert in certs:
        write_lower_records(
            tmp_path, [cert.record], {p.name: data for p, data in cert.files.items()}
        )
    proven = checked_lower(tmp_path / LOWER_INDEX)
    assert sum(proven.values()) == 72  # the certified minimum of 3x3 O, level by level


def test_the_whole_formula_bound_is_the_minimum(o33, tmp_path: Path) -> None:
    graph, formula = o33
    cert = build_lower_certificate(O33, 72, tmp_path, graph=graph, formula=formula)
    assert cert.record["depths"] is None and cert.record["bound"] == 71
    cnf, _nvars, _clauses = lower_cnf(graph, formula, 72)
    comments = [line for line in cnf.splitlines() if line.startswith(b"c ")]
    assert max(map(len, comments)) <= MAX_COMMENT
    assert b"at least 72 entries (lookups) in all" in cnf


def test_a_block_bounds_at_least_the_sum_of_its_levels(o33) -> None:
    graph, _formula = o33
    assert blocks_of([1, 3, 5, 7], 2) == [[1, 3], [5, 7]]
    block = block_bound(O33.name, [5, 7], graph, 60.0, 60.0)
    assert block.optimal and block.lower >= 34 + 25 and block.certified == block.lower
    assert block.certificate is not None and block.certificate["depths"] == [5, 7]


def test_the_index_refuses_a_damaged_file(o33, tmp_path: Path) -> None:
    graph, formula = o33
    cert = build_lower_certificate(O33, 10, tmp_path, depths=[3], graph=graph, formula=formula)
    files = {p.name: data for p, data in cert.files.items()}
    write_lower_records(tmp_path, [cert.record], files)
    weaker = dict(cert.record, lower=9, bound=8)
    write_lower_records(tmp_path, [weaker], {})  # a weaker record does not replace it
    (record,) = load_lower(tmp_path / LOWER_INDEX)
    assert record["lower"] == 10
    proof = tmp_path / record["proof"]
    proof.write_bytes(lzma.compress(b"0\n"))
    with pytest.raises(InputError, match="not the file"):
        load_lower(tmp_path / LOWER_INDEX)


def test_a_file_is_checked_as_shipped_and_its_text_when_asked(o33, tmp_path: Path) -> None:
    """A record names each file's SHA-256 as shipped (xz) beside its text's: loading checks the
    file by the first without decompressing it, ``full`` decompresses and checks the text too,
    and a record from before names none: its text is checked and the index, written again,
    keeps the SHA-256 of the very bytes checked."""
    import hashlib

    graph, formula = o33
    cert = build_lower_certificate(O33, 10, tmp_path, depths=[3], graph=graph, formula=formula)
    write_lower_records(tmp_path, [cert.record], {p.name: d for p, d in cert.files.items()})
    index = tmp_path / LOWER_INDEX
    (record,) = load_lower(index)
    for field in ("cnf", "proof"):
        shipped = (tmp_path / record[field]).read_bytes()
        assert record[f"{field}_file_sha256"] == hashlib.sha256(shipped).hexdigest()
    # the same text, compressed otherwise: not the file shipped, though its text is the same
    proof = tmp_path / record["proof"]
    text = lzma.decompress(proof.read_bytes())
    proof.write_bytes(lzma.compress(text, preset=0))
    with pytest.raises(InputError, match="not the file the record names"):
        load_lower(index)
    # a record from before file hashes: its text is checked, and the index keeps the new hash
    doc = json.loads(index.read_text())
    for field in ("cnf", "proof"):
        del doc["certificates"][0][f"{field}_file_sha256"]
    index.write_text(json.dumps(doc))
    (again,) = load_lower(index)
    assert again["proof_file_sha256"] == hashlib.sha256(proof.read_bytes()).hexdigest()
    write_lower_records(tmp_path, [], {})
    assert (
        json.loads(index.read_text())["certificates"][0]["proof_file_sha256"]
        == (again["proof_file_sha256"])
    )
    # a file hash made to match a file of another text: only the full check sees the text
    other = lzma.compress(text + b"0\n")
    proof.write_bytes(other)
    doc = json.loads(index.read_text())
    doc["certificates"][0]["proof_file_sha256"] = hashlib.sha256(other).hexdigest()
    index.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=f"is {len(other)} bytes, not"):  # its size not redone
        load_lower(index)
    doc["certificates"][0]["proof_bytes"] = len(other)
    index.write_text(json.dumps(doc))
    assert load_lower(index)[0]["lower"] == 10
    with pytest.raises(InputError, match="not the file the record names"):
        load_lower(index, full=True)


def test_a_named_file_that_is_no_regular_file_is_refused_in_one_line(o33, tmp_path: Path) -> None:
    import os

    graph, formula = o33
    cert = build_lower_certificate(O33, 10, tmp_path, depths=[3], graph=graph, formula=formula)
    write_lower_records(tmp_path, [cert.record], {p.name: d for p, d in cert.files.items()})
    proof = tmp_path / cert.record["proof"]
    proof.unlink()
    os.mkfifo(proof)  # never opened: a FIFO would wait for a writer for ever
    with pytest.raises(InputError, match="not a regular file"):
        load_lower(tmp_path / LOWER_INDEX)
    proof.unlink()
    with pytest.raises(InputError, match="cannot read"):
        load_lower(tmp_path / LOWER_INDEX)


def test_a_replaced_bound_leaves_no_files(o33, tmp_path: Path) -> None:
    graph, formula = o33
    low, high = (
        build_lower_certificate(O33, k, tmp_path, depths=[3], graph=graph, formula=formula)
        for k in (9, 10)
    )

    def files(cert) -> dict[str, bytes]:
        return {p.name: data for p, data in cert.files.items()}

    def on_disk() -> set[str]:
        return {p.name for p in tmp_path.iterdir() if p.name.endswith(".xz")}

    write_lower_records(tmp_path, [low.record], files(low))
    assert on_disk() == set(files(low))
    write_lower_records(tmp_path, [high.record], files(high))  # 10 replaces 9: 9's files go
    assert on_disk() == set(files(high))
    write_lower_records(tmp_path, [low.record], files(low))  # 9 below the 10 kept: not written
    assert on_disk() == set(files(high))
    (record,) = load_lower(tmp_path / LOWER_INDEX)
    assert record["lower"] == 10


def test_a_refutation_out_of_time_claims_nothing() -> None:
    hard = PHP(11)
    with pytest.raises(OutOfTime):
        prove_unsat(hard.nv, hard.clauses, 0.5, slice_conflicts=1000)


def test_a_refutation_measures_its_pace_before_a_whole_slice(monkeypatch) -> None:
    """Under a deadline CaDiCaL's first slice is short (it measures the pace), never a whole
    one: a whole slice of 50,000 conflicts took 240 s of a 20 s refutation on 2x7 k=3 X."""
    from pysat.solvers import Solver

    from minttt.proof.cubes import FIRST_SLICE_CONFLICTS, SLICE_CONFLICTS

    asked: list[int] = []
    real = Solver.conf_budget
    monkeypatch.setattr(Solver, "conf_budget", lambda self, n: asked.append(n) or real(self, n))
    hard = PHP(11)
    with pytest.raises(OutOfTime):
        prove_unsat(hard.nv, hard.clauses, 0.5)
    assert asked[0] == FIRST_SLICE_CONFLICTS < SLICE_CONFLICTS


def test_the_report_checks_a_bound_by_level_certificates(tmp_path: Path) -> None:
    name = O33.name
    blocks = [{"depths": [1], "lower": 3}, {"depths": [3], "lower": 10}]
    record = {
        "lower": 13,
        "lower_by": {"method": "level certificates", "evidence": "proofs"},
        "certified": {"lower": 13, "blocks": blocks},
    }
    proven = {(name, (1,)): 3, (name, (3,)): 10}
    check_level_certificates(tmp_path, name, record, proven)
    with pytest.raises(InputError, match="no checked record"):
        check_level_certificates(tmp_path, name, record, {(name, (1,)): 3, (name, (3,)): 9})
    with pytest.raises(InputError, match="not the certified"):
        check_level_certificates(tmp_path, name, {**record, "lower": 14}, proven)
    twice = json.loads(json.dumps(record))
    twice["certified"]["blocks"][1]["depths"] = [1]
    with pytest.raises(InputError, match="twice"):
        check_level_certificates(tmp_path, name, twice, {(name, (1,)): 10})


def test_x_is_certified_opening_by_opening(tmp_path: Path) -> None:
    name = "first-any-lookup-entries"
    per = {
        "4": {"lower": 5, "blocks": [{"depths": [0], "lower": 1}, {"depths": [2], "lower": 4}]},
        "0": {"lower": 3, "blocks": [{"depths": [0], "lower": 1}, {"depths": [2], "lower": 2}]},
    }
    record = {
        "lower": 3,
        "lower_by": {"method": "level certificates", "evidence": "proofs"},
        "certified": {"lower": 3, "openings": per},
    }
    proven = {
        ("first-4-lookup-entries", (0,)): 1,
        ("first-4-lookup-entries", (2,)): 4,
        ("first-0-lookup-entries", (0,)): 1,
        ("first-0-lookup-entries", (2,)): 2,
    }
    check_level_certificates(tmp_path, name, record, proven, ["0", "4"])
    with pytest.raises(InputError, match="openings"):  # every canonical opening, or no bound
        check_level_certificates(tmp_path, name, record, proven, ["0", "1", "4"])


def test_scale_refuses_a_bad_certify_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from minttt.cli import run as cli_run

    ckpt = str(tmp_path / "c.json")
    base = ["scale", "--game", "mnk:3,4,3", "--checkpoint", ckpt]
    assert cli_run([*base, "--certify"]) == 2  # needs --levels
    assert cli_run([*base, "--role", "second", "--opening", "1", "--levels", "5"]) == 2
    assert cli_run([*base, "--opening", "12", "--levels", "5"]) == 2  # cells 0-11
    assert cli_run([*base, "--levels", "5", "--certify", "--block", "0"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.startswith("error: ") for line in err)


ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = {"index.json", "lower-bounds.json", "catalogue.json", "catalogue.run.json"}


def _strings(doc: Any) -> Iterator[str]:
    if isinstance(doc, dict):
        doc = list(doc.values())
    if isinstance(doc, list):
        for item in doc:
            yield from _strings(item)
    elif isinstance(doc, str):
        yield doc


@pytest.mark.parametrize("folder", ["results/proofs/mnk", "results/catalogue"])
def test_a_committed_certificate_folder_holds_only_named_files(folder: str) -> None:
    """Every file shipped beside the certificate indexes is named by one of them (or by the
    catalogue's documents): a replaced bound's files do not linger."""
    where = ROOT / folder
    named = set(DOCUMENTS | {"catalogue.png"})
    for doc in DOCUMENTS:
        if (where / doc).is_file():
            named.update(_strings(json.loads((where / doc).read_text())))
    files = {p.name for p in where.iterdir() if p.is_file() and p.suffix != ".lock"}
    assert files - named == set()


@pytest.mark.parametrize("folder", ["results/proofs/mnk", "results/catalogue"])
def test_every_committed_record_names_its_files_as_shipped(folder: str) -> None:
    """The committed indexes name every shipped file's SHA-256 as shipped: loading them reads
    no proof decompressed (:func:`test_every_committed_file_holds_the_text_its_record_names`
    does, slow)."""
    doc = json.loads((ROOT / folder / LOWER_INDEX).read_text())
    for record in doc["certificates"]:
        for field in ("cnf", "proof", "cores"):
            assert record.get(field) is None or f"{field}_file_sha256" in record, record["variant"]


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["results/proofs/mnk", "results/catalogue"])
def test_every_committed_file_holds_the_text_its_record_names(folder: str) -> None:
    assert load_lower(ROOT / folder / LOWER_INDEX, full=True)
