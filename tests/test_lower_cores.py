"""Lower bounds by disjoint cores (issue 43): sets of table positions every table holds one of,
pairwise disjoint, found by CaDiCaL under assumptions; their number bounds every table, and the
certificate ("a table hits fewer groups than there are cores") is refuted by their own proof
segments, checked like any other."""

from __future__ import annotations

import json
import lzma
import os
from pathlib import Path

import pytest

from minttt.errors import InputError
from minttt.formula.arrays import encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.proof import drat
from minttt.proof.cnf import cores_cnf, level_literals
from minttt.proof.cubes import SOLVER_NAMES, CubeSolver
from minttt.proof.lower import (
    LOWER_INDEX,
    build_cores_certificate,
    checked_lower,
    disjoint_cores,
    load_lower,
)

#: variants and their proven minima (results/proofs/index.json; 3x4 O: the m,n,k certificate)
MINIMA = {
    "first-any-lookup-entries": 22,
    "second-lookup-entries": 72,
    "second-lookup-entries@3x3-misere": 53,
    "second-lookup-entries@mnk:3,3,2": 6,
}


def _instance(name: str):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    return variant, graph, encode_arrays(graph, variant)


def test_refute_core_names_what_failed_and_a_segment_that_derives_it() -> None:
    clauses = [[1, 2], [-1, 3], [-2, 3]]  # 3 follows; 4 is free
    with CubeSolver(clauses) as solver:
        assert solver.refute_core([4]) is None  # satisfiable under the assumptions
        found = solver.refute_core([-3, -4])
        assert found is not None
        core, segment = found
        assert core == [-3]  # -4 was not needed
        assert segment.lines()[-1] == "3 0"
    cnf = b"p cnf 4 4\n1 2 0\n-1 3 0\n-2 3 0\n-3 0\n"
    assert drat.check(cnf, segment.text() + b"0\n").valid


@pytest.mark.parametrize("name", sorted(MINIMA))
def test_disjoint_cores_are_cores_and_bound_below_the_minimum(name: str) -> None:
    variant, graph, formula = _instance(name)
    cut, softs = level_literals(graph, formula, None)
    clauses = [c for chunk in cut.chunks() for c in chunk]
    cores, segments, complete = disjoint_cores(clauses, softs)
    assert complete and len(cores) == len(segments) >= 1
    flat = [p for core in cores for p in core]
    assert len(flat) == len(set(flat)) and set(flat) <= set(softs)  # disjoint table positions
    assert len(cores) <= MINIMA[name]
    with CubeSolver(clauses) as solver:  # each is a core: none of its positions is impossible
        for core in cores[:5]:
            assert solver.refute_core([-p for p in core]) is not None  # (not always minimal)


@pytest.mark.parametrize(("sat_solver", "found"), [("cadical195", 71), ("cadical153", 70)])
def test_the_certificate_is_checked_and_its_claim_is_exact(
    tmp_path: Path, sat_solver: str, found: int
) -> None:
    """3x3 O's disjoint cores (the minimum is 72): as many as the solver's cores leave room
    for, CaDiCaL 1.9.5's 71 and 1.5.3's (the core searches' since) 70, each certified."""
    variant, graph, formula = _instance("second-lookup-entries")
    cert = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, sat_solver=sat_solver
    )
    record = cert.record
    assert record["method"] == "disjoint cores" and record["complete"] is True
    assert record["checked_by"] == "minttt check-proof (minttt.drat)"
    assert record["sat_solver"] == SOLVER_NAMES[sat_solver]
    assert record["lower"] == len(record["core_sizes"]) == found
    cnf, proof = (lzma.decompress(cert.files[tmp_path / str(record[k])]) for k in ("cnf", "proof"))
    assert b"claim: a table hits at most %d of %d disjoint groups" % (found - 1, found) in cnf
    assert drat.check(cnf, proof).valid
    groups = b"".join(b"%d 0\n" % (formula.num_vars + i) for i in range(1, found + 1))
    assert proof.endswith(groups + b"0\n")
    # one group more than the cores, a position the shipped 72-entry table avoids: the claim
    # is then true of that table (it hits at most all the groups but one), and no proof may
    # refute it
    from minttt.solvers.arrays import moves_from_table
    from minttt.table.model import load_table

    root = Path(__file__).resolve().parent.parent
    table = load_table(root / "results/proofs/second-lookup-entries.table.json")
    true = formula.assignment(graph, moves_from_table(graph, table))
    cut, softs = level_literals(graph, formula, None)
    clauses = [c for chunk in cut.chunks() for c in chunk]
    cores, _, _ = disjoint_cores(clauses, softs, sat_solver=sat_solver)
    used = {p for core in cores for p in core}
    extra = next(p for p in softs if p not in used and not true[p])
    more, _, _ = cores_cnf(graph, formula, [*cores, [extra]])
    head, _, _ = proof.rpartition(groups)
    lie = head + groups + b"%d 0\n0\n" % (formula.num_vars + found + 1)
    assert not drat.check(more, lie).valid


def test_overlapping_or_foreign_groups_are_refused() -> None:
    _, graph, formula = _instance("second-lookup-entries@mnk:3,3,2")
    _, softs = level_literals(graph, formula, None)
    with pytest.raises(InputError, match="disjoint"):
        cores_cnf(graph, formula, [[softs[0], softs[1]], [softs[1]]])
    with pytest.raises(InputError, match="disjoint"):
        cores_cnf(graph, formula, [[10**7]])
    with pytest.raises(InputError, match="disjoint"):
        cores_cnf(graph, formula, [[]])


def test_every_core_holds_a_position_of_the_shipped_minimal_table() -> None:
    """Soundness against an independent witness: the 72-entry table of 3x3 O (made by RC2 on the
    object pipeline, verified exhaustively) holds a position of every core."""
    from minttt.solvers.arrays import moves_from_table
    from minttt.table.model import load_table

    _, graph, formula = _instance("second-lookup-entries")
    root = Path(__file__).resolve().parent.parent
    table = load_table(root / "results/proofs/second-lookup-entries.table.json")
    true = formula.assignment(graph, moves_from_table(graph, table))
    cut, softs = level_literals(graph, formula, None)
    cores, _, _ = disjoint_cores([c for chunk in cut.chunks() for c in chunk], softs)
    assert all(any(true[p] for p in core) for core in cores)
    assert sum(bool(true[p]) for p in softs) >= len(cores)


def test_scale_cores_writes_a_checked_record_and_the_certified_bound(tmp_path: Path) -> None:
    from minttt.cli import run as cli_run

    ckpt, certs = tmp_path / "o.json", tmp_path / "certs"
    args = ["scale", "--game", "mnk:3,3,2", "--role", "second", "--checkpoint", str(ckpt)]
    assert cli_run([*args, "--cores", "60", "--certificates", str(certs)]) == 0
    (record,) = load_lower(certs / LOWER_INDEX)
    assert record["method"] == "disjoint cores" and record["checked_by"]
    depths = tuple(record["depths"])
    assert checked_lower(certs / LOWER_INDEX) == {(record["variant"], depths): record["lower"]}
    state = json.loads(ckpt.read_text("utf-8"))
    assert state["levels"]["blocks"] == [{"depths": list(depths), "lower": record["lower"]}]
    assert state["lower"] >= record["lower"]


def test_scale_refuses_cores_with_another_mode(tmp_path: Path, capsys) -> None:
    from minttt.cli import run as cli_run

    base = ["scale", "--game", "mnk:3,3,2", "--checkpoint", str(tmp_path / "c.json")]
    assert cli_run([*base, "--cores", "5", "--levels", "5"]) == 2
    assert cli_run([*base, "--cores", "-1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("error: ") for line in err)


@pytest.mark.skipif(not os.environ.get("MINTTT_DRAT_TRIM"), reason="needs MINTTT_DRAT_TRIM")
def test_drat_trim_verifies_a_cores_certificate(tmp_path: Path) -> None:
    variant, graph, formula = _instance("second-lookup-entries@3x3-misere")
    cert = build_cores_certificate(
        variant,
        tmp_path,
        graph=graph,
        formula=formula,
        drat_trim=Path(os.environ["MINTTT_DRAT_TRIM"]),
    )
    assert cert.record["checked_by"].startswith("drat-trim")
    assert 1 <= cert.record["lower"] <= MINIMA["second-lookup-entries@3x3-misere"]


def test_a_cnf_too_large_to_ship_is_made_again_from_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minttt.proof import lower

    monkeypatch.setattr(lower, "MAX_SHIPPED", 1000)  # the CNF (1.4 kB xz) passes it, the proof not
    variant, graph, formula = _instance("second-lookup-entries@mnk:3,3,2")
    cert = build_cores_certificate(variant, tmp_path, graph=graph, formula=formula)
    record = cert.record
    assert record["cnf"] is None and record["proof"] and record["cores"]
    lower.write_lower_records(tmp_path, [record], {str(p): d for p, d in cert.files.items()})
    (back,) = load_lower(tmp_path / LOWER_INDEX)
    cnf = lower.lower_cnf_of(back, tmp_path)
    assert drat.check(cnf, drat.read_proof(tmp_path / record["proof"])).valid
    cores = tmp_path / record["cores"]
    text = json.loads(lzma.decompress(cores.read_bytes()))
    cores.write_bytes(lzma.compress((json.dumps(text[:-1]) + "\n").encode()))
    with pytest.raises(InputError, match="not the file the record names"):
        load_lower(tmp_path / LOWER_INDEX)
    with pytest.raises(InputError, match="not the cores"):
        lower.lower_cnf_of(back, tmp_path)


def test_a_core_search_stops_at_its_time_and_claims_nothing_unfinished() -> None:
    """A refutation that takes minutes (pigeonhole, 12 pigeons) is cut off at the deadline
    between two slices: no core, nothing complete; the certificate is then OutOfTime."""
    from pysat.examples.genhard import PHP

    from minttt.proof.certify import OutOfTime

    hard = PHP(11)
    soft = hard.nv + 1  # a position no clause needs: only refuting the formula itself fails it
    cores, segments, complete = disjoint_cores(hard.clauses, [soft], seconds=0.5)
    assert (cores, segments, complete) == ([], [], False)
    with CubeSolver(hard.clauses) as solver, pytest.raises(TimeoutError):
        solver.refute_core([-soft], deadline=0.0)

    from minttt.proof import lower

    real = lower.level_literals

    def pigeons(graph, formula, depths):  # the search on the hard formula, as a variant's
        _, softs = real(graph, formula, depths)
        return _Clauses(hard.clauses), [soft]

    class _Clauses:
        num_vars = hard.nv

        def __init__(self, clauses):
            self._clauses = clauses

        def chunks(self):
            return [self._clauses]

        def clauses(self):
            return self._clauses

    import unittest.mock

    variant, graph, formula = _instance("second-lookup-entries@mnk:3,3,2")
    with unittest.mock.patch.object(lower, "level_literals", pigeons), pytest.raises(OutOfTime):
        build_cores_certificate(variant, "", graph=graph, formula=formula, seconds=0.5)


@pytest.mark.parametrize("search", ["disjoint", "relaxed"])
def test_a_core_search_says_where_it_is_while_one_call_runs_on(
    search: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Near a stall one CaDiCaL call may take minutes (4x4 k=4 X, 5+0:6: 17 cores in 227 s, and
    no line): a progress line comes between the slices of a call too, once SAY_SECONDS have
    passed, not only when a core is found. Here no core is found at all (pigeonhole, cut at
    1.5 s) and the lines still come, each saying the cores so far and the seconds."""
    from pysat.examples.genhard import PHP

    from minttt.proof import lower

    monkeypatch.setattr(lower, "SAY_SECONDS", 0.2)
    monkeypatch.setattr(lower, "CORE_SLICE", 200)
    hard = PHP(11)
    soft = hard.nv + 1
    lines: list[str] = []
    if search == "disjoint":
        cores, _, complete = disjoint_cores(hard.clauses, [soft], seconds=1.5, say=lines.append)
    else:
        found = lower.relaxed_cores(hard.clauses, [soft], soft, seconds=1.5, say=lines.append)
        cores, complete = found.cores, found.complete
    assert (cores, complete) == ([], False)
    assert len(lines) >= 3, lines
    assert all(line.startswith("  0 ") and line.endswith(" s)") for line in lines), lines
