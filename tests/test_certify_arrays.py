"""Certificates of array formulas (minttt.proof.cnf.array_cnf): the bound on table positions with a
lookup clause refutes the entries bound, the proof checks, and the 4x4 record is what `minttt
certify` rebuilds."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest
from pysat.solvers import Solver
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import DefectError
from minttt.formula.arrays import encode_arrays
from minttt.formula.variants import Variant, certificate_variants, uses_arrays
from minttt.game.arrays import build_array_graph
from minttt.game.rules import Rules
from minttt.proof import drat
from minttt.proof.certify import build_certificate, prove_unsat
from minttt.proof.cnf import array_cnf
from minttt.proof.drat_trim import drat_trim_check

ARRAY_VARIANT = "first-any-lookup-entries@mnk:4,4,3"  # the one certificate of an array formula
ROOT = Path(__file__).resolve().parent.parent
PROOFS = ROOT / "results" / "proofs"


def _records(path: Path) -> dict[str, dict]:
    return {r["variant"]: r for r in json.loads(path.read_text("utf-8"))["certificates"]}


STANDARD = _records(PROOFS / "index.json")
MNK = _records(PROOFS / "mnk" / "index.json")
runner = CliRunner()


@pytest.mark.parametrize("name", ["first-any-lookup-entries", "second-lookup-entries"])
def test_position_bound_refutes_below_the_entries_minimum(name: str):
    """On 3x3 the array certificate is UNSAT at k-1 (a proof minttt.drat accepts) and SAT at k,
    where k is the entries minimum the object pipeline certified."""
    k = STANDARD[name]["minimum"]
    graph = build_array_graph(Rules())
    formula = encode_arrays(graph, Variant.parse(name))
    cnf, clauses = array_cnf(graph, formula, k)
    proof = prove_unsat(max(abs(x) for c in clauses for x in c), clauses)
    result = drat.check(cnf, proof)
    assert result.valid, result.message
    assert b"c reduction:" in cnf and f"at most {k - 1} of".encode() in cnf
    _, at_k = array_cnf(graph, formula, k + 1)
    with Solver(name="cadical195", bootstrap_with=at_k) as solver:
        assert solver.solve()


def test_one_builder_picks_the_form_by_the_board(tmp_path: Path):
    """The dispatcher: the m,n,k lookup variants take the array form, the tree ones the object form;
    a 3x3 lookup certificate built through the one builder is the object form's (no pipeline
    field) and byte for byte the shipped one."""
    forms = {v.name: uses_arrays(v) for v in certificate_variants(mnk=True)}
    lookup = [n for n in forms if "-lookup-" in n]
    assert ARRAY_VARIANT in lookup and [n for n, arrays in forms.items() if arrays] == lookup
    cert = build_certificate(Variant.parse("first-center-lookup-entries"), tmp_path)
    assert "pipeline" not in cert.record and cert.check is not None and cert.check.valid
    for path, data in cert.files.items():
        assert (PROOFS / path.name).read_bytes() == data


def _fake_checker(tmp_path: Path, verdict: str) -> Path:
    script = tmp_path / "drat-trim"
    script.write_text(f'#!/bin/sh\ntest -s "$1" && test -s "$2" && echo \'s {verdict}\'\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def test_drat_trim_wrapper_reads_the_verdict(tmp_path: Path):
    ok = drat_trim_check(_fake_checker(tmp_path, "VERIFIED"), b"p cnf 1 2\n1 0\n-1 0\n", b"0\n", 60)
    assert ok["verified"] and ok["checker"].startswith("drat-trim")
    with pytest.raises(DefectError, match="did not verify"):
        drat_trim_check(_fake_checker(tmp_path, "NOT VERIFIED"), b"p cnf 1 0\n", b"0\n", 60)


def test_certify_cli_rejects_a_missing_drat_trim(tmp_path: Path):
    r = runner.invoke(
        app, ["certify", ARRAY_VARIANT, "--out", str(tmp_path), "--drat-trim", "/nope/x"]
    )
    assert r.exit_code == 2 and "no such file" in r.output


FOUR_BY_FOUR = {ARRAY_VARIANT: 55, "second-lookup-entries@mnk:4,4,3": 175}  # the array certificates


@pytest.mark.parametrize(("name", "minimum"), FOUR_BY_FOUR.items())
def test_4x4_record_states_its_check_and_sizes(name: str, minimum: int):
    r = MNK[name]
    assert r["minimum"] == minimum and r["bound"] == minimum - 1 and r["table_verified"]
    assert r["checked_by"] and r["check_seconds"] > 0
    assert len(r["cnf_sha256"]) == len(r["proof_sha256"]) == 64
    assert r["proof_bytes_uncompressed"] > 0 and r["lemmas"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", FOUR_BY_FOUR)
def test_4x4_formula_rebuilds_to_the_recorded_hash(name: str):
    r = MNK[name]
    variant = Variant.parse(r["variant"])
    graph = build_array_graph(variant.rules)
    cnf, clauses = array_cnf(graph, encode_arrays(graph, variant), r["minimum"])
    assert len(cnf) == r["cnf_bytes_uncompressed"] and len(clauses) == r["clauses"]
    assert hashlib.sha256(cnf).hexdigest() == r["cnf_sha256"]
