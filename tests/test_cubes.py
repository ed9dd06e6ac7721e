"""Cube and conquer: the cubes cover every assignment, the cubes' proofs join into one DRAT proof
that minttt.drat (and drat-trim, where it is installed) accepts, whether each cube has a solver of
its own or one solver refutes them all in turn; a Dask cluster of 2 local workers (one loaded
solver each) refutes the cubes of known minima, and a stopped run resumes with the cubes still
open."""

from __future__ import annotations

import itertools
import json
import lzma
import os
import shutil
import time
from collections import Counter
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
from minttt.proof.cubes import (
    FIRST_SLICE_CONFLICTS,
    MIN_SLICE_CONFLICTS,
    SOLVER_NAMES,
    CubeSolver,
    Segment,
    SlicePace,
    decision_cubes,
    join,
    load_clauses,
    refute_cube,
)

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
    with CubeSolver(PHP_CLAUSES) as solver:  # one solver, loaded once, every cube in turn
        results = [solver.refute(cube) for cube in decision_cubes(splits)]
    assert [r.sequence for r in results] == list(range(len(results)))
    assert len({r.session for r in results}) == 1
    assert results[0].load_seconds > 0 and all(r.load_seconds == 0 for r in results[1:])
    assert all(r.proof[-1] == " ".join(str(-x) for x in r.cube) + " 0" for r in results)
    result = drat.check(PHP32, join(splits, [r.proof for r in results]), lrat=True)
    assert result.valid, result.message


def test_a_cube_refuted_through_its_sub_cubes_joins_the_same_way() -> None:
    """``refute(cube, below)``: the sub-cubes one after another, then their clauses resolved to
    ``-cube``; the segment ends with ``-cube`` and the joined proof checks."""
    splits, below = [[1, 2]], [[3, 4], [5, 6]]
    with CubeSolver(PHP_CLAUSES) as solver:
        results = [solver.refute(cube, below) for cube in decision_cubes(splits)]
    for r in results:
        assert r.proof[-1] == " ".join(str(-x) for x in r.cube) + " 0"
        assert sum(line.endswith(" 0") and not line.startswith("d") for line in r.proof) >= 9
    result = drat.check(PHP32, join(splits, [r.proof for r in results]))
    assert result.valid, result.message


def test_a_cube_solved_in_many_slices_gives_the_same_checked_proof(monkeypatch) -> None:
    """A slice of one conflict: the solver is called again and again where it stopped (between
    calls a Dask worker's event loop gets its turn), and the joined proof still checks."""
    calls = []
    clauses = _pigeonholes(6, 5)
    cnf = (
        f"p cnf 30 {len(clauses)}\n" + "".join(f"{' '.join(map(str, c))} 0\n" for c in clauses)
    ).encode()
    splits = [[1, 2]]
    with CubeSolver(clauses, slice_conflicts=1) as solver:
        solve = solver._solver.solve_limited
        monkeypatch.setattr(
            solver._solver, "solve_limited", lambda **kw: calls.append(1) or solve(**kw)
        )
        proofs = [solver.refute(cube).proof for cube in decision_cubes(splits)]
    assert len(calls) > 10 * len(proofs)  # many slices per cube
    result = drat.check(cnf, join(splits, proofs))
    assert result.valid, result.message


def test_a_slice_near_the_deadline_is_cut_to_what_fits(monkeypatch) -> None:
    """Under a deadline the first slice measures the pace (FIRST_SLICE_CONFLICTS at most: a whole
    slice of 50,000 took 240 s of a 20 s refutation on 2x7 k=3); then slices ask CaDiCaL for
    whole slices of conflicts, except where a whole one would not fit in half the time left at
    the pace so far (seconds a conflict): then for what fits, never fewer than the least slice.
    A call past its deadline is no answer."""
    budgets: list[int] = []
    with CubeSolver(_pigeonholes(10, 9), slice_conflicts=2_000) as solver:
        budget = solver._solver.conf_budget
        monkeypatch.setattr(solver._solver, "conf_budget", lambda n: budgets.append(n) or budget(n))
        with pytest.raises(TimeoutError):
            solver.refute_core([], time.perf_counter() + 0.3)
        assert budgets[0] == FIRST_SLICE_CONFLICTS  # no pace yet
        budgets.clear()
        solver._pace = SlicePace()
        solver._pace.measure(10.0, 1_000)  # a slow pace: 2,000 conflicts would take 20 s
        with pytest.raises(TimeoutError):
            solver.refute_core([], time.perf_counter() + 2.0)
    assert MIN_SLICE_CONFLICTS <= budgets[0] <= 100  # what fits in half of 2 s at 10 ms a conflict
    with CubeSolver(_pigeonholes(6, 5), slice_conflicts=50) as solver:
        budgets.clear()
        budget = solver._solver.conf_budget
        monkeypatch.setattr(solver._solver, "conf_budget", lambda n: budgets.append(n) or budget(n))
        assert solver.refute_core([]) is not None  # no deadline: whole slices only
    assert len(budgets) > 1 and set(budgets) == {50}


def test_a_pace_read_from_short_calls_never_promises_a_long_slice() -> None:
    """4x4 k=4's core searches: most calls end after a conflict or two, in 0.2 to 0.8 s spent
    propagating 100,000+ assumptions again, and then a slice of 263 conflicts takes 9.4 s (O's
    5:6+0:6). A short call counts as the calls' overhead, not a pace; the pace is the slowest
    of the last slices that measured one, and no slice begins where the overhead and the least
    slice do not fit."""
    pace = SlicePace()
    pace.measure(0.1, 1)  # a call of one conflict: overhead, not 0.1 s a conflict
    assert (pace.pace, pace.overhead) == (None, 0.1)
    assert pace.budget(5_000, time.perf_counter() + 100) == FIRST_SLICE_CONFLICTS
    pace.measure(1.0, 1_000)  # 1 ms a conflict
    pace.measure(5.0, 1_000)  # then 5 ms: the slowest of the last slices counts
    pace.measure(1.0, 1_000)
    assert pace.pace == 0.005
    assert pace.budget(5_000, time.perf_counter() + 10.1) <= 1_000  # 5 s after the overhead
    with pytest.raises(TimeoutError):  # 0.1 s of overhead and 100 conflicts at 5 ms: 0.6 s
        pace.budget(5_000, time.perf_counter() + 0.5)
    for _ in range(8):  # the window moves on: the old slow slice no longer counts
        pace.measure(1.0, 1_000)
    assert pace.pace == 0.001
    assert pace.budget(5_000, None) == 5_000  # no deadline: whole slices


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
    so a cube whose segment is missing leaves the joined proof invalid."""
    clauses = _pigeonholes(4, 3)
    cnf = (
        f"p cnf 12 {len(clauses)}\n" + "".join(f"{' '.join(map(str, c))} 0\n" for c in clauses)
    ).encode()
    splits = [[1, 2, 3]]
    proofs = [refute_cube(clauses, cube).proof for cube in decision_cubes(splits)]
    assert drat.check(cnf, join(splits, proofs)).valid
    for lost in range(3):  # the cubes pigeon 1 in hole 1, 2, 3
        claimed = [[] if i == lost else p for i, p in enumerate(proofs)]
        assert not drat.check(cnf, join(splits, claimed)).valid


@pytest.mark.slow  # about 6 s: the 3x4 proof checked by minttt.drat
def test_one_solver_refutes_the_cubes_of_a_3x4_minimum_in_turn() -> None:
    """3x4 X at 45 (its minimum is 46), split on X's first move: one CaDiCaL, loaded once,
    refutes the 12 cubes one after another under assumptions, and the joined segments check."""
    variant = Variant.parse("first-any-lookup-entries@mnk:3,4,3")
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    cnf, clauses = array_cnf(graph, formula, 46)
    splits = lookup_splits(formula, 1)
    with CubeSolver(clauses) as solver:
        results = [solver.refute(cube) for cube in decision_cubes(splits)]
    assert drat.check(cnf, join(splits, [r.proof for r in results])).valid
    assert sum(r.load_seconds > 0 for r in results) == 1  # loaded once


def _misere_below_its_minimum() -> tuple[bytes, list[list[int]], list[list[int]]]:
    """Misère 3x3 O with fewer than 36 entries (its minimum is 53): CNF, clauses, one split."""
    variant = Variant.parse("second-lookup-entries@3x3-misere")
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    cnf, clauses = array_cnf(graph, formula, 36)
    return cnf, clauses, lookup_splits(formula, 1)


@pytest.mark.parametrize("name", list(SOLVER_NAMES))
def test_segments_hold_where_cadical_brings_back_clauses_it_set_aside(name: str) -> None:
    """CaDiCaL's variable elimination moves clauses to its extension stack (its trace writes
    their deletion); a later cube assuming an eliminated variable brings them back, with no line
    in the trace. Elimination on and forced often, five cubes: the raw trace joined (its
    deletions kept) is rejected; the segments, which then carry no deletions, check."""
    cnf, clauses, splits = _misere_below_its_minimum()
    cubes = decision_cubes(splits)
    options = {"elim": 1, "elimint": 1}
    with CubeSolver(clauses, slice_conflicts=200, options=options, solver=name) as solver:
        assert not solver.deletions
        proofs = [solver.refute(cube).proof for cube in cubes]
        from pysat.solvers import Solver, pysolvers

        inner = solver._solver.solver
        pysolvers.flushpr(inner.prfp)
        inner.prfile.seek(0)
        trace = Solver._proof_bin2text(bytearray(inner.prfile.read()))
    assert not any(line.startswith("d") for proof in proofs for line in proof)
    result = drat.check(cnf, join(splits, proofs))
    assert result.valid, result.message
    assert any(line.startswith("d") for line in trace)
    raw = [[*trace, proofs[0][-1]], *([proof[-1]] for proof in proofs[1:])]  # each ends in -cube
    assert not drat.check(cnf, join(splits, raw)).valid  # the trace's own deletions break it


@pytest.mark.parametrize("name", list(SOLVER_NAMES))
def test_with_nothing_set_aside_segments_keep_their_own_deletions(name: str) -> None:
    """The cube solver's own options (nothing set aside): the same five cubes, two solvers
    interleaved (each one's segments in its order), and every deletion is of a lemma its own
    solver wrote before (never a clause of the formula); the joined proof checks."""
    cnf, clauses, splits = _misere_below_its_minimum()
    cubes = decision_cubes(splits)
    original = Counter(frozenset(map(str, [*c, 0])) for c in clauses)
    with (
        CubeSolver(clauses, slice_conflicts=200, solver=name) as a,
        CubeSolver(clauses, solver=name) as b,
    ):
        assert a.deletions and b.deletions
        proofs = [(a if i % 2 == 0 else b).refute(cube).proof for i, cube in enumerate(cubes)]
    for chain in (proofs[0::2], proofs[1::2]):
        added: Counter[frozenset[str]] = Counter()
        for line in (line for proof in chain for line in proof):
            if line.startswith("d "):
                key = frozenset(line[2:].split())
                assert added[key] > 0, f"{line!r} deletes no lemma of its own solver"
                added[key] -= 1
            else:
                added[frozenset(line.split())] += 1
    deletions = [line for proof in proofs for line in proof if line.startswith("d ")]
    assert deletions and not all(frozenset(d[2:].split()) in original for d in deletions)
    ordered = [*proofs[0::2], *proofs[1::2]]  # session by session, as a checkpoint orders them
    result = drat.check(cnf, join(splits, ordered))  # join takes them in the order given
    assert result.valid, result.message


@pytest.mark.parametrize("name", list(SOLVER_NAMES))
def test_a_segment_read_as_the_solver_goes_is_its_trace_read_at_once(name: str) -> None:
    """The trace is read after every slice of conflicts (a hard cube's never in memory at
    once): what the segments hold is what reading the whole trace at the end gives."""
    from minttt.proof.cubes import own_deletions
    from minttt.proof.trace import drat_text, read_trace

    _, clauses, splits = _misere_below_its_minimum()
    with CubeSolver(clauses, slice_conflicts=100, solver=name) as solver:
        proofs = [solver.refute(cube).proof for cube in decision_cubes(splits)]
        whole = drat_text(read_trace(solver._solver)).decode("ascii").splitlines()
    lemmas = [line for proof in proofs for line in proof[:-1]]  # each ends with its -cube
    assert lemmas == own_deletions(whole, {})
    assert sum(line.startswith("d ") for line in lemmas) > 100


def test_a_solver_keeps_deletions_only_with_nothing_set_aside() -> None:
    from minttt.proof.cubes import SET_ASIDE, SOLVER_OPTIONS, keeps_deletions, own_deletions

    assert keeps_deletions(SOLVER_OPTIONS) and set(SOLVER_OPTIONS) == set(SET_ASIDE)
    assert not keeps_deletions({})  # CaDiCaL's defaults eliminate variables
    for name in SET_ASIDE:
        assert not keeps_deletions({**SOLVER_OPTIONS, name: 1})
    live: dict[str, int] = {}
    lines = ["1 -2 0", "3 0", "1 -2 0", "d -2 1 0", "d 4 5 0", "d 1 -2 0", "d 1 -2 0"]
    assert own_deletions(lines, live) == lines[:4] + ["d 1 -2 0"]  # added twice: 2 of 3 kept
    assert live == {"0 3": 1}  # only what is live is counted


def test_a_solver_loads_clauses_as_pysat_would_and_names_only_known_solvers() -> None:
    """:func:`load_clauses` (one C call a clause) gives the solver the formula PySAT's
    ``append_formula`` gives: the same answers, an empty clause included; a name with no
    certificate wording is refused."""
    from pysat.solvers import Solver

    cnf, clauses, splits = _misere_below_its_minimum()
    for name in SOLVER_NAMES:
        with Solver(name=name) as ours, Solver(name=name) as theirs:
            load_clauses(ours, (tuple(c) for c in clauses))
            theirs.append_formula(clauses)
            for cube in decision_cubes(splits)[:3]:
                assert ours.solve(assumptions=list(cube)) == theirs.solve(assumptions=list(cube))
        with Solver(name=name) as broken:
            load_clauses(broken, [[1], [-1], [2, 3]])
            assert broken.solve() is False
    with pytest.raises(ValueError, match="no cube solver"):
        CubeSolver(clauses, solver="minisat22")


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
    deeper, _ = conquer(clauses, splits[:2], tmp_path / "deep", workers=2, below=splits[2:])
    assert drat.check(cnf, join(splits[:2], deeper)).valid  # 5 cubes, each through 5 sub-cubes
    proof = join(splits, proofs)
    assert drat.check(cnf, proof).valid
    # resumed: nothing left to solve, the same proof
    again, figures = conquer(clauses, splits, tmp_path / "ck", workers=2)
    assert figures["solved_this_run"] == 0 and join(splits, again) == proof
    assert 1 <= figures["sessions"] <= 2  # a solver per worker, each loaded once
    # a stopped run: three cubes lost; they and their sessions' later cubes are solved again
    state = json.loads((tmp_path / "ck" / "cubes.json").read_text())["cubes"]
    lost = {"3", "17", "42"}
    for i in lost:
        (tmp_path / "ck" / f"cube-{i}.drat.xz").unlink()
    first_lost = {}
    for i in lost:
        s = state[i]["session"]
        first_lost[s] = min(first_lost.get(s, 10**9), state[i]["sequence"])
    reopened = sum(r["sequence"] >= first_lost.get(r["session"], 10**9) for r in state.values())
    again, figures = conquer(clauses, splits, tmp_path / "ck", workers=2)
    assert figures["solved_this_run"] == reopened >= 3
    assert drat.check(cnf, join(splits, again)).valid
    if REAL_DRAT_TRIM:
        from minttt.proof.drat_trim import drat_trim_check

        assert drat_trim_check(Path(REAL_DRAT_TRIM), cnf, proof, 600, lrat=True)["verified"]


def test_a_checkpoint_of_another_formula_is_refused(second_3x3, tmp_path: Path) -> None:
    _, clauses, splits = second_3x3
    folder = tmp_path / "ck"
    folder.mkdir()
    (folder / "cubes.json").write_text(
        json.dumps(
            {"format": "minttt-cubes/3", "cnf_sha256": "0" * 64, "splits": splits, "cubes": {}}
        )
    )
    with pytest.raises(InputError, match="another formula"):
        conquer(clauses, splits, folder, workers=1)
    # the format of one solver per cube (its segments were conditioned on the cube): refused
    (folder / "cubes.json").write_text(json.dumps({"format": "minttt-cubes/1"}))
    with pytest.raises(InputError, match="not a valid cube checkpoint"):
        conquer(clauses, splits, folder, workers=1)


def test_a_session_with_a_cube_missing_keeps_only_the_cubes_before_it(
    second_3x3, tmp_path: Path
) -> None:
    """A segment may use what its solver learnt on its earlier cubes: when one is missing, the
    session's later cubes are open again, and the order is session by session."""
    from minttt.proof.conquer import Checkpoint, _digest

    _, clauses, splits = second_3x3
    folder = tmp_path / "ck"
    folder.mkdir()
    cubes = {  # session a: cubes 0, 5, 7, 9 in that order; session b: 1, 2; 3 holds no proof
        "0": ("a", 0), "5": ("a", 1), "7": ("a", 3), "9": ("a", 2), "1": ("b", 0), "2": ("b", 1),
        "3": ("c", 0),
    }  # fmt: skip
    state = {"format": "minttt-cubes/2", "cnf_sha256": _digest(clauses), "splits": splits}
    state["cubes"] = {
        i: {"lemmas": 1, "seconds": 1.0, "load_seconds": 0.0, "session": s, "sequence": n}
        for i, (s, n) in cubes.items()
    }
    (folder / "cubes.json").write_text(json.dumps(state))
    for i in cubes:
        if i != "3":
            (folder / f"cube-{i}.drat.xz").write_bytes(lzma.compress(b"0\n"))
    (folder / "cube-9.drat.xz").unlink()  # a's place 2: 7 (place 3) goes with it
    said: list[str] = []
    with Checkpoint(folder, _digest(clauses), splits, said.append) as ckpt:
        assert ckpt.done() == {0, 5, 1, 2}
        assert ckpt.order() == [0, 5, 1, 2]
    assert sorted(line.split(":")[0] for line in said) == ["cube 3", "cube 9"]  # no file there
    assert all("is solved again (" in line for line in said)


def test_a_checkpoint_made_under_another_rule_is_joined_but_not_continued(
    second_3x3, tmp_path: Path
) -> None:
    """A checkpoint from before /4 was refuted with CaDiCaL's defaults (segments without
    deletions): finished, it is read and its options named; with cubes left, it is refused in
    one line (a run's segments hold under one rule), before any cluster starts."""
    from minttt.proof.conquer import _digest

    _, clauses, splits = second_3x3
    folder = tmp_path / "ck"
    folder.mkdir()
    state = {"format": "minttt-cubes/2", "cnf_sha256": _digest(clauses), "splits": splits[:1]}
    state["cubes"] = {
        str(i): {"lemmas": 1, "seconds": 1.0, "load_seconds": 0.0, "session": "a", "sequence": i}
        for i in range(2)
    }
    (folder / "cubes.json").write_text(json.dumps(state))
    for i in range(2):
        (folder / f"cube-{i}.drat.xz").write_bytes(lzma.compress(b"0\n"))
    proofs, figures = conquer(clauses, splits[:1], folder, workers=1)
    assert figures["solver_options"] == {} and figures["solved_this_run"] == 0
    (folder / "cube-1.drat.xz").unlink()
    with pytest.raises(InputError, match=r"refuted with CaDiCaL options \{\}, this minttt"):
        conquer(clauses, splits[:1], folder, workers=1)


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
        app,
        ["certify", "second-lookup-entries", "--out", str(out), "--json"]
        + ["--cubes", "2", "--sub-cubes", "1"],
    )
    assert done.exit_code == 0, done.output
    (record,) = json.loads(done.stdout)
    assert record["cubes"]["count"] == 10 and record["minimum"] == 72
    assert record["cubes"]["sub_depth"] == 1 and record["cubes"]["through_sub_cubes"] == 10
    assert 1 <= record["cubes"]["solvers"] <= 2
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


def test_sub_cubes_without_cubes_is_a_usage_error(tmp_path: Path):
    done = CliRunner().invoke(
        app, ["certify", "second-lookup-entries", "--out", str(tmp_path), "--sub-cubes", "1"]
    )
    assert done.exit_code == 2 and "--sub-cubes" in done.output


def test_a_bad_worker_count_is_a_usage_error():
    from minttt.cluster import DaskCluster

    with pytest.raises(InputError, match=r"--workers must be 1-\d+ \(this machine's cores\)"):
        DaskCluster(0)
    with pytest.raises(InputError, match="--workers must be"):
        DaskCluster(10_000)


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_is_a_usage_error():
    """Dask retries for the connect timeout (30 s) before giving up."""
    from minttt.cluster import DaskCluster

    with pytest.raises(InputError, match="cannot connect"), DaskCluster(1, "tcp://127.0.0.1:9"):
        pass


def _cube_record_script():
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "scripts" / "cube_record.py"
    spec = importlib.util.spec_from_file_location("cube_record", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cube_record_names_each_refuted_cube_and_the_open_ones(tmp_path: Path, capsys) -> None:
    """scripts/cube_record.py: a checkpoint of 2 x 2 cubes with three refuted by two solvers
    gives their figures, solvers numbered in order of appearance, and the open cube."""
    import lzma

    from minttt.proof.conquer import Checkpoint, RefutedCube

    script = _cube_record_script()
    folder = tmp_path / "ck"
    folder.mkdir()
    with Checkpoint(folder, "ab" * 32, [[1], [2]], lambda _m: None) as ckpt:
        for index, (session, sequence, seconds) in {
            0: ("a", 0, 2.0),
            3: ("b", 0, 9.0),
            1: ("a", 1, 1.0),
        }.items():
            proof = lzma.compress(b"0\n")
            cube = RefutedCube(proof, 2, 5, seconds, 0.5, session, sequence)
            ckpt.record(index, cube, sub_depth=index % 2)
    out = tmp_path / "rec.json"
    assert script.main([str(folder), "second-lookup-entries", "a claim", str(out)]) == 0
    data = json.loads(out.read_text("utf-8"))
    assert data["cubes"] == 4 and data["open"] == [2] and data["solvers"] == 2
    assert list(data["refuted"]) == ["0", "1", "3"]
    assert data["refuted"]["3"] == {
        "lemmas": 5,
        "seconds": 9.0,
        "load_seconds": 0.5,
        "sequence": 0,
        "solver": 2,
        "sub_depth": 1,
    }
    assert data["refuted_seconds"] == {"total": 12.0, "median": 2.0, "max": 9.0}
    assert data["refuted_lemmas"] == 15 and "before" not in data
    (folder / "cube-3.drat.xz").unlink()  # read as a resumed run reads it: no proof, not refuted
    assert script.main([str(folder), "second-lookup-entries", "a claim", str(out)]) == 0
    assert json.loads(out.read_text("utf-8"))["open"] == [2, 3]
    assert script.main([str(tmp_path), "v", "c", str(tmp_path / "x.json")]) == 2
    assert "error:" in capsys.readouterr().err and not (tmp_path / "x.json").exists()


def test_a_segment_is_compressed_as_the_solver_goes() -> None:
    """A cube's segment is xz-compressed slice by slice (a hard cube's text, GB, is never held
    whole by its worker): several compressed pieces for a cube of many slices; its SHA-256, size
    and lemma count are those of its text; the checkpoint's file is that compressed text."""
    import hashlib
    import lzma

    from minttt.proof.conquer import PackedClauses, refute_packed

    _, clauses, splits = _misere_below_its_minimum()
    cube = decision_cubes(splits)[0]
    with CubeSolver(clauses, slice_conflicts=100) as solver:
        result = solver.refute(cube)
        assert not solver._pending and solver._segment is None
    segment = result.segment
    assert len(segment._parts) > 3  # one piece per slice read, at least
    text = ("\n".join(result.proof) + "\n").encode("ascii")
    assert segment.sha256 == hashlib.sha256(text).hexdigest() and segment.bytes == len(text)
    assert segment.lemmas == sum(1 for line in result.proof if not line.startswith("d "))
    refuted = refute_packed(PackedClauses.pack(clauses), cube)  # what a worker sends back
    sent = lzma.decompress(refuted.proof_xz)
    lemmas = sum(1 for line in sent.splitlines() if not line.startswith(b"d "))
    assert (refuted.proof_bytes, refuted.lemmas) == (len(sent), lemmas)
    assert sent.endswith((" ".join(str(-x) for x in cube) + " 0\n").encode())  # -cube last
    with pytest.raises(ValueError, match="finished"):
        segment.add(["1 0"])
    unfinished = Segment()
    with pytest.raises(ValueError, match="not finished"):
        _ = unfinished.xz


def test_a_checkpoints_proof_is_read_up_to_the_cube_proof_bound(
    tmp_path: Path, monkeypatch
) -> None:
    """A hard cube's proof file may pass the 256 MiB every other read stops at (3x4 O's cube 75:
    482 MB of xz, 2.3 GB of text): a checkpoint reads its files up to MAX_CUBE_PROOF, as text
    whose lines end in newlines, one line naming the file for anything else."""
    import lzma

    import minttt.proof.conquer as conquer_module
    from minttt.errors import InputError
    from minttt.proof.conquer import Checkpoint, CubeRecord, RefutedCube

    text = b"1 2 0\nd 1 2 0\n-1 0\n"
    folder = tmp_path / "ck"
    folder.mkdir()
    with Checkpoint(folder, "ab" * 32, [[1]], lambda _m: None) as ckpt:
        ckpt.record(0, RefutedCube(lzma.compress(text), len(text), 2, 1.0, 0.0, "a", 0))
        assert ckpt.proof(0) == text
        size = ckpt.proof_path(0).stat().st_size
        monkeypatch.setattr(conquer_module, "MAX_CUBE_PROOF", size - 1)
        with pytest.raises(InputError, match="larger than"):
            ckpt.proof(0)  # the bound that governs a cube's file is MAX_CUBE_PROOF
        monkeypatch.undo()
        old = CubeRecord(2, 1.0, 0.0, "a", 0)  # a /2 record: no SHA-256, no size
        ckpt.proof_path(0).write_bytes(lzma.compress(text[:-1]))
        with pytest.raises(InputError, match="no newline"):
            ckpt.proof_text(0, old)
        ckpt.proof_path(0).write_bytes(lzma.compress("1 ² 0\n".encode()))
        with pytest.raises(InputError, match="not a DRAT text proof"):
            ckpt.proof_text(0, old)


def test_a_joined_proofs_lines_are_counted_in_place() -> None:
    """The certificate record's lemma and deletion counts, taken without splitting a GB proof
    into lines, are those of its lines; join takes a segment as lines or as text alike."""
    from minttt.proof.certify import line_counts

    _, clauses, splits = _misere_below_its_minimum()
    with CubeSolver(clauses) as solver:
        results = [solver.refute(cube) for cube in decision_cubes(splits)]
    as_lines = join(splits, [r.proof for r in results])
    assert join(splits, [_segment_text(r) for r in results]) == as_lines
    lines = as_lines.splitlines()
    assert line_counts(as_lines) == {
        "lemmas": sum(1 for line in lines if line and not line.startswith(b"d ")),
        "deletions": sum(1 for line in lines if line.startswith(b"d ")),
    }
    assert line_counts(b"") == {"lemmas": 0, "deletions": 0}
    assert line_counts(b"d 1 0\n\n\n1 0") == {"lemmas": 1, "deletions": 1}


def _segment_text(result) -> bytes:
    import lzma

    return lzma.decompress(result.segment.xz)
