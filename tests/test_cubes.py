"""Cube and conquer: the cubes cover every assignment, the cubes' proofs join into one DRAT proof
that minttt.drat (and drat-trim, where it is installed) accepts, a Dask cluster of 2 local workers
refutes the cubes of known minima, and a stopped run resumes with the cubes still open."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from proof_helpers import PHP32
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import DefectError, InputError
from minttt.formula.arrays import encode_arrays
from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.game.graph import build_graph
from minttt.proof import drat
from minttt.proof.cnf import array_cnf, bound_clauses, cnf_text
from minttt.proof.conquer import conquer, lookup_splits
from minttt.proof.cubes import decision_cubes, join, refute_cube

PHP_CLAUSES = drat.parse_cnf(PHP32)[1]
REAL_DRAT_TRIM = os.environ.get("MINTTT_DRAT_TRIM") or shutil.which("drat-trim")


@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.permutations(range(1, 7)), st.lists(st.integers(1, 3), min_size=1, max_size=3))
def test_every_assignment_falls_in_exactly_one_cube(order: list[int], sizes: list[int]) -> None:
    """Splits over distinct variables (signs drawn too): the product of their decision lists
    covers every assignment, each exactly once."""
    splits, at = [], 0
    for size in sizes:
        if at + size <= len(order):
            splits.append([v if v % 2 else -v for v in order[at : at + size]])
            at += size
    cubes = decision_cubes(splits)
    for values in itertools.product((False, True), repeat=6):
        true = {v for v, on in zip(range(1, 7), values, strict=True) if on}
        hits = [c for c in cubes if all((x > 0) == (abs(x) in true) for x in c)]
        assert len(hits) == 1, (splits, sorted(true), hits)


@pytest.mark.parametrize("splits", [[[1, 2]], [[1, 2], [3, 4]], [[1, 2], [3, 4], [5, 6]]])
def test_the_joined_proof_of_the_pigeonholes_checks(splits: list[list[int]]) -> None:
    proofs = [refute_cube(PHP_CLAUSES, cube).proof for cube in decision_cubes(splits)]
    result = drat.check(PHP32, join(splits, proofs), lrat=True)
    assert result.valid, result.message
    assert result.lrat is not None


def _pigeonholes(pigeons: int, holes: int) -> list[list[int]]:
    """Pigeon ``i`` in hole ``j`` is variable ``i * holes + j + 1``: every pigeon in a hole, no
    hole with two."""
    var = lambda i, j: i * holes + j + 1  # noqa: E731
    clauses = [[var(i, j) for j in range(holes)] for i in range(pigeons)]
    for j in range(holes):
        for a, b in itertools.combinations(range(pigeons), 2):
            clauses.append([-var(a, j), -var(b, j)])
    return clauses


def test_a_joined_proof_with_a_cube_missing_fails() -> None:
    """Pigeonholes 4 -> 3, split on the first pigeon's hole: no cube falls to unit propagation,
    so a cube whose refutation is replaced by a bare claim leaves the joined proof invalid."""
    clauses = _pigeonholes(4, 3)
    cnf = (
        f"p cnf 12 {len(clauses)}\n" + "".join(f"{' '.join(map(str, c))} 0\n" for c in clauses)
    ).encode()
    splits = [[1, 2, 3]]
    proofs = [refute_cube(clauses, cube).proof for cube in decision_cubes(splits)]
    assert drat.check(cnf, join(splits, proofs)).valid
    for lost in range(3):  # the cubes pigeon 1 in hole 1, 2, 3
        claimed = [["0"] if i == lost else p for i, p in enumerate(proofs)]
        assert not drat.check(cnf, join(splits, claimed)).valid


def test_a_satisfiable_cube_is_a_defect() -> None:
    with pytest.raises(DefectError, match="satisfiable"):
        refute_cube([[1, 2], [-1, 2]], (2,))


def test_the_splits_of_a_lookup_formula_are_its_starts_edges() -> None:
    g = build_graph()
    o = encode(g, Variant.parse("second-lookup-entries"))
    assert [len(s) for s in lookup_splits(o, 3)] == [1, 4, 4]
    x = encode(g, Variant.parse("first-any-lookup-entries"))
    assert [len(s) for s in lookup_splits(x, 1)] == [9]
    with pytest.raises(InputError, match="splits on 1 to 1 starts"):
        lookup_splits(x, 2)


@pytest.fixture(scope="module")
def second_3x3() -> tuple[bytes, list[list[int]], list[list[int]]]:
    """The 3x3 second player's certificate formula at 71 (its minimum is 72) and its splits."""
    formula = encode(build_graph(), Variant.parse("second-lookup-entries"))
    _, clauses = bound_clauses(formula, 71)
    return cnf_text(formula, 72).encode(), clauses, lookup_splits(formula, 3)


@pytest.mark.slow  # a local Dask cluster of 2 workers, about 25 s
def test_a_local_cluster_refutes_the_cubes_of_a_known_minimum(second_3x3, tmp_path: Path) -> None:
    cnf, clauses, splits = second_3x3
    proofs, figures = conquer(clauses, splits, tmp_path / "ck", workers=2)
    assert figures["cubes"] == figures["solved_this_run"] == 50
    proof = join(splits, proofs)
    assert drat.check(cnf, proof).valid
    # resumed: nothing left to solve, the same proof
    again, figures = conquer(clauses, splits, tmp_path / "ck", workers=2)
    assert figures["solved_this_run"] == 0 and join(splits, again) == proof
    # a stopped run: three cubes lost, only they are solved again
    state = json.loads((tmp_path / "ck" / "cubes.json").read_text())
    for i in ("3", "17", "42"):
        (tmp_path / "ck" / f"cube-{i}.drat.xz").unlink()
    (tmp_path / "ck" / "cubes.json").write_text(json.dumps(state))
    _, figures = conquer(clauses, splits, tmp_path / "ck", workers=2)
    assert figures["solved_this_run"] == 3
    if REAL_DRAT_TRIM:
        from minttt.proof.drat_trim import drat_trim_check

        assert drat_trim_check(Path(REAL_DRAT_TRIM), cnf, proof, 600, lrat=True)["verified"]


def test_a_checkpoint_of_another_formula_is_refused(second_3x3, tmp_path: Path) -> None:
    _, clauses, splits = second_3x3
    folder = tmp_path / "ck"
    folder.mkdir()
    (folder / "cubes.json").write_text(
        json.dumps({"format": "minttt-cubes/1", "cnf_sha256": "0" * 64, "splits": splits})
    )
    with pytest.raises(InputError, match="another formula"):
        conquer(clauses, splits, folder, workers=1)


@pytest.mark.slow  # the 3x4 X minimum (46) refuted at 45 in cubes on 2 local workers
def test_the_3x4_first_player_minimum_by_cubes(tmp_path: Path) -> None:
    variant = Variant.parse("first-any-lookup-entries@mnk:3,4,3")
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    cnf, clauses = array_cnf(graph, formula, 46)
    splits = lookup_splits(formula, 1)
    proofs, figures = conquer(clauses, splits, tmp_path, workers=2)
    assert figures["cubes"] == len(splits[0]) + 1
    assert drat.check(cnf, join(splits, proofs)).valid


@pytest.mark.slow  # the CLI on a local cluster
def test_certify_by_cubes_writes_a_certificate_check_proof_accepts(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "proofs"
    done = runner.invoke(
        app, ["certify", "second-lookup-entries", "--out", str(out), "--cubes", "2", "--json"]
    )
    assert done.exit_code == 0, done.output
    (record,) = json.loads(done.stdout)
    assert record["cubes"]["count"] == 10 and record["minimum"] == 72
    cnf, proof = out / record["cnf"], out / record["proof"]
    assert runner.invoke(app, ["check-proof", str(cnf), str(proof)]).exit_code == 0


@pytest.mark.slow
def test_the_local_cluster_never_drops_a_busy_worker():
    """A SAT call holds the GIL, so a worker on a long cube sends no heartbeat: the local
    cluster's scheduler must not time it out (Dask's default drops it after 5 minutes and
    reruns its cube elsewhere, forever)."""
    from minttt.cluster import DaskCluster

    with DaskCluster(1) as client:
        assert client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.worker_ttl) is None


def test_a_bad_worker_count_is_a_usage_error():
    from minttt.cluster import DaskCluster

    with pytest.raises(InputError, match="workers must be 1-1024"):
        DaskCluster(0)


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_is_a_usage_error():
    """Dask retries for the connect timeout (30 s) before giving up."""
    from minttt.cluster import DaskCluster

    with pytest.raises(InputError, match="cannot connect"), DaskCluster(1, "tcp://127.0.0.1:9"):
        pass
