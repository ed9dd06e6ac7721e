"""The array pipeline against the object pipeline, and resumable solves."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from minttt.bounds.greedy import greedy_for
from minttt.bounds.runs import long_solve
from minttt.bounds.state import read_state, scale_store
from minttt.errors import InputError
from minttt.formula.arrays import encode_arrays, hard_clauses
from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.game.graph import build_graph
from minttt.game.rules import Rules
from minttt.proof.audit import _cube_cnf
from minttt.proof.conquer import PackedClauses, _digest
from minttt.solvers import solve
from minttt.solvers.arrays import array_table, moves_from_model, rc2_arrays
from minttt.table.verify import verify_table


@pytest.mark.parametrize(
    "game", ["3x3", "3x3-misere", pytest.param("mnk:3,4,3", marks=pytest.mark.slow)]
)
def test_array_graph_equals_recursive_graph(game):
    rules = Rules.from_name(game)
    g, ref = build_array_graph(rules), build_graph(rules)
    assert g.size == len(ref) and g.edges == ref.examined - 1
    for i, h in enumerate(g.hash.tolist()):
        lo, hi = int(g.ptr[i]), int(g.ptr[i + 1])
        kids = tuple(zip(g.move[lo:hi].tolist(), g.hash[g.child[lo:hi]].tolist(), strict=True))
        assert kids == ref.children[h]
        assert int(g.value[i]) == ref.value(h)


VARIANTS = [
    ("first", "any", "entries", "optimal"),
    ("first", "any", "positions", "optimal"),
    ("second", None, "entries", "optimal"),
    ("second", None, "entries", "never-lose"),
    ("first", "corner", "entries", "optimal"),
]


@pytest.mark.parametrize("game", ["3x3", "3x3-misere"])
@pytest.mark.parametrize("role,opening,objective,criterion", VARIANTS)
def test_array_formula_matches_and_solves_like_encode(game, role, opening, objective, criterion):
    variant = Variant(role, opening, "lookup", objective, criterion, game)
    g = build_array_graph(variant.rules)
    try:
        ref = encode(build_graph(variant.rules), variant)
    except InputError:  # e.g. a corner opening that is not optimal: both pipelines refuse it
        with pytest.raises(InputError):
            encode_arrays(g, variant)
        return
    f = encode_arrays(g, variant)
    assert (f.positions, f.edges) == (ref.counts()["positions"], ref.counts()["edges"])
    assert f.num_clauses == len(ref.clauses)
    expected = solve(ref, solver="rc2")
    outcome = rc2_arrays(f)
    assert not outcome.timed_out and outcome.lower == expected.size
    if objective == "entries":
        table = array_table(g, f, moves_from_model(g, f, outcome.model), {})
        assert table.size == expected.size
        assert verify_table(table).ok


def test_hard_clauses_api_gives_the_same_optimum():
    variant = Variant("first", "any", "lookup", "entries", game="mnk:3,4,3")
    clauses, objective = hard_clauses(variant)
    assert all(isinstance(lit, int) for c in clauses[:50] for lit in c)
    w = WCNF()
    for c in clauses:
        w.append(c)
    for v in objective:
        w.append([-v], weight=1)
    rc2 = RC2(w)
    assert rc2.compute() is not None
    g = build_array_graph(variant.rules)
    f = encode_arrays(g, variant)
    assert rc2.cost == rc2_arrays(f).lower
    rc2.delete()


@pytest.mark.parametrize("game", ["3x3", "mnk:3,4,3"])
def test_greedy_tables_verify_and_bound_the_optimum(game):
    g = build_array_graph(Rules.from_name(game))
    for role, opening in (("first", "any"), ("second", None)):
        variant = Variant(role, opening, "lookup", "entries", game=game)
        chosen, info = greedy_for(g, variant, rounds=4)
        table = array_table(g, encode_arrays(g, variant), chosen, {})
        assert verify_table(table).ok
        assert table.size == info["improved"] <= info["greedy"]
        assert np.isfinite(info["tree_dp"]) and info["tree_dp"] >= info["greedy"]


def test_tree_variant_is_refused():
    g = build_array_graph(Rules())
    with pytest.raises(InputError):
        encode_arrays(g, Variant("first", "center", "tree", "positions"))


def test_long_solve_checkpoints_and_resumes(tmp_path):
    variant = Variant("second", None, "lookup", "entries", game="3x3")
    path = tmp_path / "ck.json"
    state = long_solve(variant, path, time_limit=30, say=lambda _m: None)
    assert state.optimal and state.lower == state.upper == 72
    saved = json.loads(path.read_text())
    assert saved["upper"] == 72 and saved["history"][-1][3] == "proven"
    table_file = tmp_path / saved["table"]
    assert table_file.exists()
    again = long_solve(variant, path, time_limit=30, say=lambda _m: None)
    assert again.runs == 2 and again.upper == 72
    with pytest.raises(InputError, match="checkpoint of 'second-lookup-entries'"):
        read_state(scale_store(path), Variant("first", "any", "lookup", "entries"))


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_a_copied_checkpoint_keeps_its_table_and_a_lost_one_is_said(tmp_path):
    """A checkpoint copied under another name resumes with the table it names (checked again);
    one whose table is gone drops the bound and says so."""
    variant = Variant("second", None, "lookup", "entries", game="mnk:3,4,3")
    first = tmp_path / "run1.json"
    state = long_solve(variant, first, time_limit=20, say=lambda _m: None)
    upper = state.upper
    copy = tmp_path / "copy.json"
    copy.write_text(first.read_text())
    said: list[str] = []
    again = long_solve(variant, copy, time_limit=1, say=said.append)
    assert again.upper == upper and again.table == state.table == "run1.table.json"
    assert not any("dropped" in line for line in said)
    (tmp_path / "run1.table.json").unlink()
    lost: list[str] = []
    long_solve(variant, copy, time_limit=20, say=lost.append)
    assert any("run1.table.json is not beside it" in line for line in lost)
    reloaded = json.loads(copy.read_text())
    assert reloaded["table"] == "copy.table.json" and (tmp_path / "copy.table.json").exists()


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_long_solve_bounds_under_a_short_limit(tmp_path):
    """With too little time for RC2 to prove the minimum (3x4 O takes it 13 s on an idle
    machine, with core exhaustion: 15 s here did prove it), the run still leaves a verified
    table as its upper bound."""
    variant = Variant("second", None, "lookup", "entries", game="mnk:3,4,3")
    state = long_solve(variant, tmp_path / "c.json", time_limit=3, say=lambda _m: None)
    assert state.upper is not None and state.lower <= state.upper
    assert not state.optimal


def test_solve_variant_on_an_array_graph_takes_the_array_driver():
    """Given an array graph, the one entry point solves through RC2 from arrays: the 3x4 X
    minimum, proven, its table verified, the same size as the object pipeline's."""
    from minttt.solvers.portfolio import solve_variant

    variant = Variant("first", "any", "lookup", "entries", game="mnk:3,4,3")
    run = solve_variant(variant, graph=build_array_graph(variant.rules))
    s = run.solution
    assert s.optimal and s.size == s.lower_bound == run.table().size and s.model is None
    assert s.variables == {"positions": run.formula.positions, "edges": run.formula.edges}
    assert verify_table(run.table()).ok
    assert s.size == solve_variant(variant).solution.size  # the object pipeline agrees


@pytest.mark.parametrize("sat", ["glucose4", "minisat22", "cadical195", "cadical153"])
def test_position_objective_proves_the_edge_optimum_with_each_backend(sat):
    """RC2 minimises table positions (one soft literal per lookup clause): same optimum as the
    edge objective of the formula, whichever SAT backend loads the clauses."""
    variant = Variant("second", None, "lookup", "entries", game="3x3")
    g = build_array_graph(variant.rules)
    f = encode_arrays(g, variant)
    soft, weights = f.soft()
    assert weights is None and len(soft) == len(f.heads()) < len(f.objective)
    w = WCNF()
    for chunk in f.chunks():
        for c in chunk:
            w.append(c)
    for v in f.objective.tolist():
        w.append([-v], weight=1)
    with RC2(w) as ref:
        assert ref.compute() is not None
        outcome = rc2_arrays(f, sat=sat)
        assert outcome.lower == ref.cost
    table = array_table(g, f, moves_from_model(g, f, outcome.model), {})
    assert table.size == ref.cost and verify_table(table).ok


def test_hinted_descent_reaches_and_proves_the_optimum():
    from minttt.bounds.hinted import hinted_descent

    variant = Variant("second", None, "lookup", "entries", game="3x3")
    g = build_array_graph(variant.rules)
    f = encode_arrays(g, variant)
    greedy, _ = greedy_for(g, variant)
    out = hinted_descent(g, f, greedy, time_limit=30, say=lambda _: None)
    optimum = rc2_arrays(f).lower
    assert out.proven
    size = out.best.size if out.best is not None else len(greedy)
    assert size == optimum
    if out.best is not None:
        assert verify_table(out.best).ok and out.sizes[-1][1] == size


def test_hinted_upper_keeps_a_verified_table(tmp_path):
    from minttt.bounds.runs import hinted_upper
    from minttt.table.model import load_table

    variant = Variant("second", None, "lookup", "entries", game="3x3")
    path = tmp_path / "o.json"
    state = hinted_upper(variant, path, hint_seconds=20, say=lambda _: None)
    table = load_table(tmp_path / state.table)
    assert table.size == state.upper and verify_table(table).ok
    assert (
        state.optimal
        and state.lower
        == state.upper
        == rc2_arrays(encode_arrays(build_array_graph(variant.rules), variant)).lower
    )
    again = hinted_upper(variant, path, hint_seconds=5, say=lambda _: None)  # resumes the table
    assert again.upper == state.upper and again.runs == 2


def _cli(*args, **kw):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run(
        [sys.executable, "-m", "minttt", "scale", *args],
        capture_output=True,
        text=True,
        env=env,
        **kw,
    )


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_scale_cli_solves_resumes_and_refuses_bad_input(tmp_path):
    ck = tmp_path / "o.json"
    done = _cli("--game", "3x3", "--role", "second", "--time-limit", "20", "--checkpoint", str(ck))
    assert done.returncode == 0 and "entries, proven" in done.stdout
    again = _cli("--game", "3x3", "--role", "second", "--checkpoint", str(ck), "--json")
    state = json.loads(again.stdout)
    assert again.returncode == 0 and state["runs"] == 2 and state["optimal"]
    for bad in (
        ("--game", "3x3", "--role", "both", "--checkpoint", str(ck)),
        ("--game", "3x3", "--checkpoint", str(tmp_path / "missing" / "c.json")),
        ("--game", "3x3", "--time-limit", "0", "--checkpoint", str(ck)),
        ("--game", "mnk:9,9,9", "--checkpoint", str(ck)),
    ):
        out = _cli(*bad)
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_scale_cli_sigterm_exits_143_with_a_consistent_checkpoint(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    ck = tmp_path / "o.json"
    env = {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    import os

    proc = subprocess.Popen(
        [sys.executable, "-m", "minttt", "scale", "--game", "mnk:3,4,3", "--role", "second"]
        + ["--time-limit", "120", "--checkpoint", str(ck)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **env},
    )
    deadline = time.monotonic() + 60
    while not ck.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 143
    state = json.loads(ck.read_text())  # the last atomic write: complete and readable
    assert state["upper"] is not None and state["lower"] <= state["upper"]


@pytest.mark.parametrize(
    ("name", "minimum"),
    [
        ("first-any-lookup-entries", 22),
        ("second-lookup-entries", 72),
        ("first-any-lookup-entries@mnk:2,4,3", 33),
    ],
)
@pytest.mark.parametrize("share", [1.0, 0.2, 0.0])
def test_core_exhaustion_reaches_the_same_minimum(name, minimum, share):
    """RC2 with core exhaustion (the catalogue's) ends at the proven minimum, its model a table
    of it that verifies, whatever share of the time its budget gives it (1.0: every core; 0.0:
    none after the first satisfiable call): exhaustion raises the bound only by refutations."""
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    raw = rc2_arrays(formula, exhaust=True, exhaust_share=share)
    assert not raw.timed_out and raw.lower == minimum
    table = array_table(graph, formula, moves_from_model(graph, formula, raw.model), {})
    assert table.size == minimum and verify_table(table).ok


def test_the_exhaustion_budget_stops_exhausting_once_spent():
    """With a share of 0, the first satisfiable exhaustion call spends the whole budget: every
    later core is left unexhausted (the bound stays 1, as without exhaustion), and the search
    still ends at the minimum. With a share of 1, every core is exhausted."""
    from minttt.solvers.arrays import ArrayRC2

    variant = Variant.parse("second-lookup-entries")
    formula = encode_arrays(build_array_graph(variant.rules), variant)
    budgets = {}
    for share in (0.0, 1.0):
        solver = ArrayRC2(formula, exhaust=True, exhaust_share=share)
        assert solver.compute() is not None and solver.cost == 72
        budgets[share] = solver.budget
        solver.delete()
    never, always = budgets[0.0], budgets[1.0]
    assert always.skipped == 0 and always.tried > 1 and always.wasted > 0
    assert never.wasted > 0 and never.skipped > 0


def test_an_interrupted_exhaustion_raises_nothing():
    """RC2's own exhaustion counts an interrupted call (no answer) as a refutation, a cost never
    proven; minttt's ends there, raising nothing. Every oracle call here answers "no answer"
    from the exhaustion on: the bound stays that of the refutations made before it."""
    from minttt.solvers.arrays import ArrayRC2

    variant = Variant.parse("second-lookup-entries")
    graph = build_array_graph(variant.rules)
    solver = ArrayRC2(encode_arrays(graph, variant), exhaust=True)
    answers: list[bool | None] = []

    def no_answer(assumptions=(), expect_interrupt=False):
        answers.append(None)
        return None

    real = solver.exhaust_core

    def exhaust_without_answers(tobj):
        before = solver.cost
        solver._call_oracle = no_answer
        try:
            bound = real(tobj)
        finally:
            del solver._call_oracle
        assert bound == 1 and solver.cost == before  # the new sum counts its core, no more
        return bound

    solver.exhaust_core = exhaust_without_answers
    model = solver.compute()
    assert answers, "no core was exhausted"
    assert model is not None and solver.cost == 72  # RC2 goes on and still ends at the minimum
    solver.delete()


@pytest.mark.parametrize("name", ["second-lookup-entries", "first-any-lookup-entries@mnk:3,4,3"])
def test_the_clause_view_is_the_formula_then_its_extra_clauses(name: str) -> None:
    """``ArrayFormula.clauses`` hands over what a list of every clause held (units, binary,
    lookup clauses of every length, then the extra ones), as often as asked, without that list;
    its DIMACS lines are the clause-by-clause join the certificates' SHA-256 were taken of."""
    variant = Variant.parse(name)
    f = encode_arrays(build_array_graph(variant.rules), variant)
    extra = [[-1, 2, -3], [4], [5, -6]]
    view = f.clauses(extra)
    listed = [c for chunk in f.chunks() for c in chunk] + extra
    assert len({len(c) for c in listed}) > 3  # long clauses of several lengths
    assert len(view) == len(listed) and list(view) == listed and list(view) == listed
    joined = "".join(" ".join(map(str, c)) + " 0\n" for c in listed).encode()
    assert b"".join(view.dimacs()) == joined
    assert b"".join(view.dimacs(size=7)) == joined  # chunk edges fall anywhere
    assert list(f.clauses()) == listed[: -len(extra)]


@pytest.mark.parametrize("name", ["second-lookup-entries", "first-any-lookup-entries@mnk:3,4,3"])
def test_what_a_proof_makes_of_the_view_is_what_it_made_of_the_list(name: str) -> None:
    """Cube and conquer's digest and packed clauses, and an audit's formula with a cube's units,
    come from the view's arrays without a list of every clause: each the same as from the list."""
    variant = Variant.parse(name)
    f = encode_arrays(build_array_graph(variant.rules), variant)
    view = f.clauses([[-1, 2, -3], [4]])
    listed = list(view)
    assert _digest(view) == _digest(listed)
    packed, from_list = PackedClauses.pack(view), PackedClauses.pack(listed)
    assert np.array_equal(packed.literals, from_list.literals)
    assert np.array_equal(packed.starts, from_list.starts)
    assert packed.clauses() == listed
    cube = (-5, 6)
    assert _cube_cnf(f.num_vars, view, cube) == _cube_cnf(f.num_vars, listed, cube)
    assert _cube_cnf(f.num_vars, view, cube).count(b"\n") == len(listed) + 3
    assert list(view.then([[7]])) == [*listed, [7]] and len(view) == len(listed)


def test_rc2_over_cadical_keeps_a_time_limit_in_slices_and_stops_when_told() -> None:
    """PySAT cannot interrupt CaDiCaL, so under a deadline ArrayRC2 runs each call in slices of
    conflicts: with time enough it proves the same minimum; out of time, or interrupted, it
    gives no model (never an interrupted answer) and a lower bound no higher than the minimum."""
    from minttt.solvers.arrays import ArrayRC2

    small = Variant.parse("second-lookup-entries")
    f = encode_arrays(build_array_graph(small.rules), small)
    sliced = rc2_arrays(f, sat="cadical153", timeout=600)
    assert not sliced.timed_out and sliced.lower == 72 and sliced.calls > 1
    big = Variant.parse("second-lookup-entries@mnk:3,4,3")  # RC2 takes seconds to its 189
    hard = encode_arrays(build_array_graph(big.rules), big)
    short = rc2_arrays(hard, timeout=0.5, sat="cadical153")
    assert short.model is None and short.timed_out and short.lower < 189
    solver = ArrayRC2(hard, solver="cadical153")
    solver.interrupt()  # the watcher's call: seen before the next slice
    assert solver.compute(expect_interrupt=True) is None and solver.cost == 0
    solver.delete()
