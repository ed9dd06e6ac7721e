"""The solver portfolio: 003's minima by two families, entries minima, honest bounds, tables."""

from __future__ import annotations

import pytest

from minttt.formula.encode import encode
from minttt.formula.variants import Variant, standard_variants
from minttt.game.graph import build_graph
from minttt.game.rules import Board, O, Rules, X, unmap_cell
from minttt.report.sources import SOURCE_003
from minttt.solvers import cross_check, solve, solve_variant
from minttt.solvers.analysis import entries_at_positions
from minttt.solvers.pysat_drivers import CARD_ENCODINGS


@pytest.fixture(scope="module")
def graph():
    return build_graph()


def walk(graph, moves, side, criterion="optimal", opening=None):
    """Play the table against every opponent line on real boards; return the outcomes seen and
    the canonical positions the table answered. Fails on a missing entry or a disallowed move."""
    used: set[int] = set()
    outcomes: set[int] = set()

    def go(board: Board) -> None:
        if board.is_terminal:
            outcomes.add(board.winner())
            return
        if board.to_move == side:
            c = board.canonical()
            assert c.hash in moves, f"no entry for {board}"
            used.add(c.hash)
            move = unmap_cell(moves[c.hash], c.transform, board.rules)
            if opening is not None and board.depth == 0:
                assert move == opening
            else:
                assert moves[c.hash] in graph.allowed(c.hash, criterion), f"bad move at {board}"
            go(board.play(move))
        else:
            for m in board.legal_moves():
                go(board.play(m))

    go(Board.empty(graph.rules))
    return outcomes, used


def check_table(graph, solution):
    v = solution.variant
    sides = v.role.sides
    used: set[int] = set()
    for side in sides:
        outcomes, u = walk(
            graph,
            solution.moves,
            side,
            v.criterion,
            v.opening_cell(graph.rules) if side == X else None,
        )
        sign = 1 if side == X else -1
        score = {0: 0, X: 1, O: -1}
        # never worse than the game's value for the table's side (never loses where it can't)
        assert min(sign * score[w] for w in outcomes) >= sign * graph.value(graph.root)
        used |= u
    assert used == set(solution.moves)  # only positions the table's own play reaches


@pytest.mark.parametrize(
    ("variant", "counts", "optimum"), SOURCE_003, ids=lambda x: getattr(x, "name", "")
)
def test_003_minima_two_families_agree(graph, variant, counts, optimum):
    f = encode(graph, variant)
    s = cross_check(f, solve(f, solver="rc2"))
    assert s.optimal and s.size == s.lower_bound == optimum
    assert s.cross_check["solver"] == "z3-opt" and s.cross_check["agree"]
    assert s.positions == optimum  # the extracted table reaches exactly that many positions
    check_table(graph, s)


ENTRIES = {
    "first-center": 22,
    "first-corner": 30,
    "first-edge": 51,
    "first-any": 22,
    "second": 72,
    "both-center": 94,
}


@pytest.mark.parametrize("key", ENTRIES)
def test_entries_minima(graph, key):
    role, _, opening = key.partition("-")
    v = Variant(role, opening or None, "lookup", "entries")
    f = encode(graph, v)
    s = solve(f, solver="rc2")
    assert s.optimal and s.size == ENTRIES[key] == s.lookups
    assert solve(f, solver="pysat-linear").size == s.size  # UNSAT at size - 1, another algorithm
    check_table(graph, s)


@pytest.mark.slow
def test_second_player_74_is_not_a_minimum(graph):
    """003: "75 verts (or 74 edges)". Every 75-position table has exactly 72 lookups."""
    f = encode(graph, Variant("second", None, "lookup", "positions"))
    r = entries_at_positions(f, 75)
    assert (r["min_entries"], r["max_entries"]) == (72, 72)
    s = cross_check(
        *(lambda e: (e, solve(e)))(encode(graph, Variant("second", None, "lookup", "entries")))
    )
    assert s.optimal and s.size == 72 and s.cross_check["agree"]


def test_both_is_the_sum_of_the_parts_in_lookup(graph):
    for obj, x, o in (("positions", 22, 75), ("entries", 22, 72)):
        s = solve(encode(graph, Variant("both", "center", "lookup", obj)))
        assert s.optimal and s.size == x + o
        check_table(graph, s)


def test_both_tree_shares_positions(graph):
    s = solve(encode(graph, Variant("both", "center", "tree", "positions")))
    assert s.optimal and s.size == 158 < 41 + 127
    check_table(graph, s)


@pytest.mark.parametrize("solver", ["rc2", "pysat-linear", "pysat-binary", "z3-opt", "z3-binary"])
def test_every_driver_proves_the_41(graph, solver):
    s = solve(encode(graph, Variant("first", "center", "tree", "positions")), solver=solver)
    assert (s.size, s.lower_bound, s.optimal, s.solver) == (41, 41, True, solver)
    assert s.calls >= 1 and s.seconds >= 0


@pytest.mark.slow
@pytest.mark.parametrize("card", CARD_ENCODINGS)
def test_every_cardinality_encoding(graph, card):
    f = encode(graph, Variant("first", "corner", "lookup", "entries"))
    for solver in ("pysat-linear", "pysat-binary"):
        s = solve(f, solver=solver, card=card)
        assert s.optimal and s.size == 30


def test_time_limit_reports_bounds_and_claims_nothing(graph):
    f = encode(graph, Variant("second", None, "lookup", "entries"))
    s = solve(f, solver="pysat-linear", timeout=0)
    assert s.timed_out and not s.optimal and s.lower_bound < s.size
    check_table(graph, s)  # the fallback (every variable true) still yields a valid table
    z = solve(
        encode(graph, Variant("both", "center", "lookup", "entries")),
        solver="z3-binary",
        timeout=0.5,
    )
    assert z.timed_out and not z.optimal and z.lower_bound <= 94 <= z.size


@pytest.mark.parametrize("solver", ["rc2", "pysat-linear", "pysat-binary"])
def test_cadical_keeps_a_time_limit_in_slices(graph, solver, monkeypatch):
    """PySAT cannot interrupt CaDiCaL: under a time limit its calls run in slices of conflicts
    (here one a slice, so the search cannot end in the time), the limit kept between them; the
    search stops with no claim, where it once ran to its end. Without a limit: the minimum."""
    from minttt.solvers import pysat_drivers

    f = encode(graph, Variant("both", "center", "tree", "positions", criterion="never-lose"))
    whole = solve(f, solver=solver, sat="cadical153")
    assert whole.optimal and whole.size == 149
    monkeypatch.setattr(pysat_drivers, "ORACLE_SLICE", 1)
    # RC2's calls here mostly end without a conflict: its deadline passes while it loads
    cut = solve(f, solver=solver, sat="cadical153", timeout=0.001 if solver == "rc2" else 0.05)
    assert cut.timed_out and not cut.optimal and cut.lower_bound < 149 <= cut.size
    if solver == "rc2":  # the watcher's interrupt, seen before the next slice: no more solving
        rc2 = pysat_drivers.StoppableRC2(pysat_drivers.maxsat_instance(f), solver="cadical153")
        rc2.interrupt()
        assert rc2.compute(expect_interrupt=True) is None and (rc2.calls, rc2.cost) == (1, 0)
        rc2.delete()


@pytest.mark.parametrize("limit", [0.1, 0.3])
def test_z3_opt_cut_short_keeps_its_objectives_lower_bound(limit):
    # z3-opt reads the formula as SMT-LIB text; cut short (the misère O minimum 53 takes Z3
    # seconds), it still reports the soft clauses' lower bound and claims no optimum. Z3's own
    # timeout alone once let a 0.1 s call run 8 s to the optimum: minttt interrupts it too
    from minttt.game.graph import graph_for

    variant = Variant.parse("second-lookup-entries@3x3-misere")
    graph = graph_for(variant.rules)
    z = solve(encode(graph, variant), solver="z3-opt", timeout=limit)
    assert z.timed_out and not z.optimal and z.lower_bound <= 53 <= z.size
    check_table(graph, z)


def test_z3_is_interrupted_again_until_its_call_returns():
    # a cancellation Z3 drops mid-phase must not let the call run on: the limit repeats it
    import threading

    from minttt.solvers.z3_drivers import _hard_limit

    class Context:
        def __init__(self):
            self.calls = 0
            self.thrice = threading.Event()

        def interrupt(self):
            self.calls += 1
            if self.calls >= 3:
                self.thrice.set()

    context = Context()
    with _hard_limit(context, 0.01):
        assert context.thrice.wait(60)  # a call that ignores the first two interrupts
    seen = context.calls
    threading.Event().wait(0.1)
    assert context.calls == seen  # and none after it returned
    quiet = Context()
    with _hard_limit(quiet, None):
        pass
    assert quiet.calls == 0


def test_z3_opt_reads_back_exactly_the_model_z3_found():
    from minttt.formula.encode import Formula
    from minttt.solvers.z3_drivers import z3_opt

    # v1 or v2, v2 -> v11 -> v12, v1 -> v3: the optimum is v1 and v3 (cost 2; the other way
    # costs 3), read back with v1 told apart from v11 and v12
    clauses = ((1, 2), (-2, 11), (-11, 12), (-1, 3))
    f = Formula(
        Variant("first", "center", "tree", "positions"), 12, clauses, (1, 2, 3, 11, 12), None, ()
    )
    r = z3_opt(f)
    assert r.model == frozenset({1, 3}) and r.lower == 2 and not r.timed_out


@pytest.mark.parametrize("variant", standard_variants(("never-lose",)), ids=lambda v: v.name)
def test_never_lose_minima_are_proven_and_valid(graph, variant):
    s = solve(encode(graph, variant))
    assert s.optimal
    check_table(graph, s)


def test_never_lose_is_never_larger_than_optimal(graph):
    for v in standard_variants():
        nl = Variant(v.role, v.opening, v.encoding, v.objective, "never-lose")
        assert solve(encode(graph, nl)).size <= solve(encode(graph, v)).size


def test_solve_variant_gives_a_table(graph):
    run = solve_variant(Variant("first", "center", "lookup", "entries"), graph=graph)
    s, table = run.solution, run.table()
    assert table is not None and table.size == 22 == s.size
    assert table.role == "X" and table.opening == 4 and table.provenance["optimal"]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["3x3-misere", "mnk:3,3,2"])
def test_other_games_solve(game):
    g = build_graph(Rules.from_name(game))
    for v in (
        Variant("first", "any", "lookup", "entries", game=game),
        Variant("second", None, "tree", "positions", game=game),
        Variant("both", "any", "tree", "positions", game=game),
    ):
        f = encode(g, v)
        s = solve(f)
        assert s.optimal and solve(f, solver="pysat-linear").size == s.size
        check_table(g, s)


def test_other_game_cross_checks_with_z3():
    g = build_graph(Rules.from_name("mnk:3,3,2"))
    for v in standard_variants(game="mnk:3,3,2"):
        f = encode(g, v)
        s = cross_check(f, solve(f))
        assert s.optimal and s.cross_check["agree"]


def test_bad_solver_and_timeout(graph):
    from minttt.errors import InputError

    f = encode(graph, Variant("first", "center", "tree", "positions"))
    with pytest.raises(InputError, match="solver"):
        solve(f, solver="minisat")
    with pytest.raises(InputError, match="timeout"):
        solve(f, timeout=-1)


def test_families_that_prove_different_optima_are_a_defect(graph):
    """A solution claiming an optimum the other family does not find (a bug in one of them) is a
    defect found (DefectError: commands exit 1), never a result."""
    from minttt.errors import DefectError

    f = encode(graph, Variant.parse("first-center-lookup-entries"))
    honest = solve(f, solver="rc2")
    lying = honest.replace(size=honest.size - 1)
    with pytest.raises(DefectError, match="solvers disagree"):
        cross_check(f, lying)
