"""Lower bounds by relaxed cores (issue 43): the bound a core-guided MaxSAT search (OLL, as RC2)
finds, certified. Each core is relaxed by a totalizer, not set aside; the certificate is the
formula, the totalizers and "one of the bounded literals is false", refuted by the search's own
proof segments. Run to its end, the search's bound is the minimum: proven minima come out of
it, and no claim above a minimum may pass."""

from __future__ import annotations

import itertools
import json
import lzma
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from minttt.errors import InputError
from minttt.formula.arrays import encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.proof.cnf import level_literals, relaxation_clauses, relaxed_cnf
from minttt.proof.lower import (
    LOWER_INDEX,
    build_cores_certificate,
    load_lower,
    lower_cnf_of,
    relaxed_cores,
    write_lower_records,
)
from minttt.proof.totalizer import Totalizers, replay

ROOT = Path(__file__).resolve().parent.parent


def _instance(name: str):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    return variant, graph, encode_arrays(graph, variant)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 7), bound=st.integers(1, 7), grow=st.integers(0, 7))
def test_a_totalizer_means_what_its_outputs_say(n: int, bound: int, grow: int) -> None:
    """Every input assignment extends, outputs set to their meaning, to a model of the clauses
    (soundness); and with at least j inputs true, output j is forced (what the search needs)."""
    tot = Totalizers(top=n)
    index, clauses = tot.new(range(1, n + 1), bound)
    if grow:
        clauses += tot.grow(index, grow)
    assert replay(tot.log, top=n)[1] == clauses
    outputs = tot.outputs(index)
    assert len(outputs) == min(n, max(bound, grow))
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for bits in itertools.product([False, True], repeat=n):
            count = sum(bits)
            inputs = [v if b else -v for v, b in zip(range(1, n + 1), bits, strict=True)]
            meant = [o if j <= count else -o for j, o in enumerate(outputs, start=1)]
            # every node's outputs given their meaning too: the root's are enough to assume,
            # the solver finds the inner ones (they exist: the meaning of each satisfies all)
            assert solver.solve(assumptions=inputs + meant)
            for j, o in enumerate(outputs, start=1):
                assert solver.solve(assumptions=[*inputs, -o]) == (count < j)


@pytest.mark.parametrize(
    ("name", "minimum"), [("first-any-lookup-entries", 22), ("second-lookup-entries", 72)]
)
def test_relaxed_cores_run_to_their_end_reach_the_proven_minimum(
    name: str, minimum: int, tmp_path: Path
) -> None:
    """3x3: disjoint cores certify 18 of X's 22 and 71 of O's 72; relaxed, the search ends at
    the minimum itself, and its certificate is checked (minttt's checker here)."""
    variant, graph, formula = _instance(name)
    cert = build_cores_certificate(variant, tmp_path, graph=graph, formula=formula, relax=True)
    record = cert.record
    assert record["method"] == "relaxed cores" and record["complete"] is True
    assert record["lower"] == minimum == len(record["core_sizes"])
    assert record["checked_by"] == "minttt check-proof (minttt.drat)"
    cnf = lzma.decompress(cert.files[tmp_path / str(record["cnf"])])
    claim = f"claim: a table makes at most {minimum - 1} of {minimum} bounded literals"
    assert claim.encode() in cnf
    # the record stands read back, and its CNF is made again from the cores file alone
    write_lower_records(tmp_path, [record], {str(p): d for p, d in cert.files.items()})
    (back,) = load_lower(tmp_path / LOWER_INDEX)
    assert lower_cnf_of(back, tmp_path) == cnf


def test_a_bounded_literal_more_than_the_search_found_is_not_refuted() -> None:
    """3x3 O: the 72 bounded literals and one more, a position the shipped 72-entry table
    avoids. That table satisfies the claim (it makes at most 72 of the 73 true), so CaDiCaL
    must find it satisfiable: the certificate says no more than the truth."""
    from minttt.solvers.arrays import moves_from_table
    from minttt.table.model import load_table

    _, graph, formula = _instance("second-lookup-entries")
    table = load_table(ROOT / "results/proofs/second-lookup-entries.table.json")
    true = formula.assignment(graph, moves_from_table(graph, table))
    cut, softs = level_literals(graph, formula, None)
    found = relaxed_cores([c for chunk in cut.chunks() for c in chunk], softs, cut.num_vars)
    assert found.complete and len(found.bounded) == 72
    inputs = {x for op in found.log if op[0] == "new" for x in op[2:]}
    extra = next(p for p in softs if p not in inputs and p not in found.bounded and not true[p])
    cnf, nvars, clauses = relaxed_cnf(graph, formula, found.log, [*found.bounded, extra])
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        assert solver.solve()
    # and every core holds a position of that table, or an output its totalizer makes true
    assert sum(bool(true[p]) for p in softs) >= len(found.bounded)


def test_an_unsound_relaxation_is_refused() -> None:
    _, graph, formula = _instance("second-lookup-entries@mnk:3,3,2")
    cut, softs = level_literals(graph, formula, None)
    allowed, top = set(softs), cut.num_vars
    a, b, c = softs[:3]
    ok = [["new", 2, a, b]]
    first = top + 3  # the root's first output: the leaves' tree has one inner node, the root
    assert relaxation_clauses(ok, [top + 1], allowed, top)[0] == top + 2
    bad = {
        "an input twice": ([["new", 2, a, b], ["new", 2, b, c]], [top + 1]),
        "a foreign input": ([["new", 2, a, 10**7]], [top + 1]),
        "an inner output as input": (
            [["new", 2, a, b, c], ["new", 2, top + 1, softs[3]]],
            [first],
        ),
        "a bounded literal that is an input": (ok, [a]),
        "a bounded literal twice": (ok, [top + 1, top + 1]),
        "no bounded literal": (ok, []),
        "not an operation": ([["new", 2, a, "b"]], [top + 1]),
        "a grow of no totalizer": ([*ok, ["grow", 5, 3]], [top + 1]),
    }
    for why, (log, bounded) in bad.items():
        with pytest.raises(InputError):
            relaxation_clauses(log, bounded, allowed, top)
            pytest.fail(why)


def test_a_tampered_relaxation_file_is_refused(tmp_path: Path) -> None:
    variant, graph, formula = _instance("second-lookup-entries@mnk:3,3,2")
    cert = build_cores_certificate(variant, tmp_path, graph=graph, formula=formula, relax=True)
    record = cert.record
    write_lower_records(tmp_path, [record], {str(p): d for p, d in cert.files.items()})
    listed = tmp_path / record["cores"]
    doc = json.loads(lzma.decompress(listed.read_bytes()))
    doc["bounded"].append(doc["bounded"][0])
    listed.write_bytes(lzma.compress((json.dumps(doc) + "\n").encode()))
    with pytest.raises(InputError, match="not the file the record names"):
        load_lower(tmp_path / LOWER_INDEX)
    with pytest.raises(InputError, match="not the cores"):
        lower_cnf_of(record, tmp_path)
    # a file of another shape whose SHA-256 the record was made to name: refused in one line
    other = (json.dumps({"log": [["new", "x"]]}) + "\n").encode()
    listed.write_bytes(lzma.compress(other))
    import hashlib

    forged = {**record, "cores_sha256": hashlib.sha256(other).hexdigest()}
    with pytest.raises(InputError, match="not a cores file|not a totalizer operation"):
        lower_cnf_of(forged, tmp_path)


def test_scale_relaxed_cores_certify_the_minimum(tmp_path: Path, capsys) -> None:
    from minttt.cli import run as cli_run

    ckpt, certs = tmp_path / "o.json", tmp_path / "certs"
    args = ["scale", "--game", "mnk:3,3,3", "--role", "second", "--checkpoint", str(ckpt)]
    assert (
        cli_run([*args, "--cores", "60", "--relax", "--exhaust", "--certificates", str(certs)]) == 0
    )
    (record,) = load_lower(certs / LOWER_INDEX)
    assert record["method"] == "relaxed cores" and record["lower"] == 72 and record["checked_by"]
    state = json.loads(ckpt.read_text("utf-8"))
    # run to its end: the bound is the minimum, and the search's last model a table of it
    assert record["exact"] and state["lower"] == state["upper"] == 72
    capsys.readouterr()
    assert cli_run([*args, "--relax"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["error: --relax needs --cores SECONDS"]
    assert cli_run([*args, "--cores", "60", "--exhaust"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["error: --exhaust needs --relax"]


@pytest.mark.skipif(not os.environ.get("MINTTT_DRAT_TRIM"), reason="needs MINTTT_DRAT_TRIM")
def test_drat_trim_verifies_a_relaxed_certificate(tmp_path: Path) -> None:
    variant, graph, formula = _instance("second-lookup-entries@3x3-misere")
    cert = build_cores_certificate(
        variant,
        tmp_path,
        graph=graph,
        formula=formula,
        relax=True,
        drat_trim=Path(os.environ["MINTTT_DRAT_TRIM"]),
    )
    assert cert.record["checked_by"].startswith("drat-trim")
    assert cert.record["lower"] == 53 and cert.record["complete"]


@pytest.mark.slow
def test_every_shipped_relaxed_certificate_is_checked_again_and_meets_its_minimum() -> None:
    """The relaxed-cores certificates in ``results/proofs/mnk`` (3x4 and 4x4 k=3 minima whose
    cube-and-conquer proofs are too large to ship, 4x4 k=4 bounds): each CNF made again from
    its record and cores file (SHA-256 compared), each shipped proof checked by minttt's own
    checker (one past the shipping limit was checked where it was made: its SHA-256 is
    recorded), and each exact bound equal to the minimum ``index.json`` certifies and to its
    table's size. Of the parts of the 4x4 k=4 splits (X's openings and its answers, O's
    replies: dozens of 10 M-clause CNFs, a minute or more each), the one whose bound is O's, the
    least; every part was checked where it was made (drat-trim, its LRAT by minttt.lrat)."""
    from minttt.proof import drat
    from minttt.report.bounds import certified

    folder = ROOT / "results/proofs/mnk"
    relaxed = [r for r in load_lower(folder / LOWER_INDEX) if r.get("method") == "relaxed cores"]
    assert relaxed, "no relaxed-cores certificate is shipped"
    assert sum(r["proof"] is not None for r in relaxed) >= 4  # 3x4 X, O, 4x4 k=3 X, k=4 X
    by = {r["variant"]: r["lower"] for r in relaxed}  # 4x4 k=4: X's least opening, and O
    assert by["first-5-lookup-entries@mnk:4,4,4"] >= 293
    assert by["second-lookup-entries@mnk:4,4,4"] >= 245
    parts = [
        r
        for r in relaxed
        if Variant.parse(r["variant"]).replies()
        or r["variant"].startswith("first-")
        and r["variant"].endswith("@mnk:4,4,4")
        and not r["variant"].startswith("first-any")
    ]
    assert all(r["checked_by"].startswith("drat-trim") for r in parts)
    bounds = json.loads((ROOT / "results/games/bounds.json").read_text())["variants"]
    o444 = Variant.parse("second-lookup-entries@mnk:4,4,4")
    split = bounds[o444.name]["certified"]["openings"]
    least = o444.replace(opening=min(split, key=lambda k: split[k]["lower"])).name
    assert by[least] == bounds[o444.name]["lower"] >= 370  # O's bound by reply, its least part
    relaxed = [r for r in relaxed if r not in parts or r["variant"] == least]
    minima = certified(folder / "index.json")
    for record in relaxed:
        assert record["checked_by"] and len(record["proof_sha256"]) == 64
        cnf = lower_cnf_of(record, folder)
        if record["proof"] is not None:
            assert drat.check(cnf, drat.read_proof(folder / record["proof"])).valid
        if record["exact"]:
            assert record["lower"] == minima[record["variant"]] == len(record["core_sizes"])


def test_a_proof_too_large_to_ship_ships_the_lemmas_drat_trim_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CaDiCaL's proof past the shipping limit: drat-trim's core lemmas (``-l``), a DRAT proof
    of the same CNF, are shipped instead where they fit, checked as any proof (drat-trim and
    its LRAT by minttt.lrat) and again here by minttt's own checker, marked ``trimmed``."""
    import shutil

    from minttt.proof import drat, lower

    binary = os.environ.get("MINTTT_DRAT_TRIM") or shutil.which("drat-trim")
    if not binary:
        pytest.skip("no drat-trim (set MINTTT_DRAT_TRIM or put it on PATH)")
    # 2x4 k=3 O: CaDiCaL's proof 162 kB of xz, drat-trim's core 94 kB
    variant, graph, formula = _instance("second-lookup-entries@mnk:2,4,3")
    whole = build_cores_certificate(
        variant, tmp_path / "whole", graph=graph, formula=formula, relax=True, check=False
    ).record
    monkeypatch.setattr(lower, "MAX_SHIPPED", whole["proof_bytes"] - 1)
    cert = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, relax=True, drat_trim=Path(binary)
    )
    record = cert.record
    assert record["trimmed"] is True and record["proof"] and record["checked_by"].startswith("drat")
    assert record["proof_bytes"] < whole["proof_bytes"]
    assert record["proof_sha256"] != whole["proof_sha256"]
    write_lower_records(tmp_path, [record], {str(p): d for p, d in cert.files.items()})
    (back,) = load_lower(tmp_path / LOWER_INDEX)
    proof = drat.read_proof(tmp_path / back["proof"])
    assert drat.check(lower_cnf_of(back, tmp_path), proof).valid


@pytest.mark.parametrize(
    ("name", "minimum"),
    [("first-any-lookup-entries@mnk:2,4,3", 33), ("second-lookup-entries", 72)],
)
def test_core_exhaustion_certifies_the_minimum_with_cores_of_one(
    name: str, minimum: int, tmp_path: Path
) -> None:
    """With core exhaustion, each new totalizer's outputs are refuted alone: cores of one, which
    the certificate counts and its proof refutes as any core. Run to its end the search still
    stops at the minimum, and the certificate is checked and made again from its cores file.
    2x4 k=3 X: 4 cores of one with it, 1 without."""
    variant, graph, formula = _instance(name)
    plain = build_cores_certificate(
        variant, tmp_path / "plain", graph=graph, formula=formula, relax=True, check=False
    ).record
    cert = build_cores_certificate(
        variant,
        tmp_path,
        graph=graph,
        formula=formula,
        relax=True,
        exhaust=True,
        exhaust_share=1.0,  # every core exhausted, whatever the clock says
    )
    record = cert.record
    assert record["complete"] is True and record["lower"] == minimum == plain["lower"]
    assert record["checked_by"] == "minttt check-proof (minttt.drat)"
    ones = record["core_sizes"].count(1)
    assert ones >= plain["core_sizes"].count(1)
    if name.endswith("2,4,3"):
        assert ones > plain["core_sizes"].count(1)  # exhaustion found what the plain loop did not
    write_lower_records(tmp_path, [record], {str(p): d for p, d in cert.files.items()})
    (back,) = load_lower(tmp_path / LOWER_INDEX)
    assert lower_cnf_of(back, tmp_path) == lzma.decompress(
        cert.files[tmp_path / str(record["cnf"])]
    )
