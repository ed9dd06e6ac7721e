"""Beyond the source: proofs in two families, the joint tree table, never-lose minima."""

from __future__ import annotations

import pytest

from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.game.graph import build_graph
from minttt.report.enumeration import solve_and_enumerate
from minttt.report.minima import beyond_report_markdown
from minttt.solvers import solve
from minttt.solvers.two_families import prove_minimum, pysat_bounds


@pytest.fixture(scope="module")
def graph():
    return build_graph()


@pytest.mark.slow
def test_joint_tree_table_is_158_proven(graph):
    f = encode(graph, Variant("both", "center", "tree", "positions"))
    solution = solve(f)
    assert solution.size == 158
    proof = prove_minimum(f, solution)
    assert proof.proven and proof.z3.size == 158
    too_small = solution.replace(size=157, optimal=False)
    assert not prove_minimum(f, too_small).proven  # 157 has no model


def test_prove_minimum_in_two_families(graph):
    f = encode(graph, Variant("first", "edge", "lookup", "positions", "never-lose"))
    solution = solve(f)
    proof = prove_minimum(f, solution)
    assert proof.proven and proof.size == solution.size == 41
    assert proof.to_dict()["z3"] == {
        "solver": "z3-opt (Optimize)",
        "size": 41,
        "lower_bound": 41,
        "sat_at_k": True,
        "unsat_at_k_minus_1": True,
    }
    below = pysat_bounds(f, 40)
    assert below.sat_at_k is False and below.unsat_at_k_minus_1 is True


def test_never_lose_minima_and_odds(graph):
    cache: dict = {}
    rec = solve_and_enumerate(
        graph,
        Variant("first", "edge", "lookup", "positions", "never-lose"),
        class_limit=50,
        cache=cache,
    )
    assert rec["size"] == 41 and rec["optimal"]
    assert rec["enumeration"]["count"] == 2
    assert rec["best_odds"]["X"]["loss"] == "0/1"


@pytest.mark.slow
def test_both_lookup_is_product_of_parts(graph):
    cache: dict = {}
    rec = solve_and_enumerate(
        graph, Variant("both", "center", "lookup", "entries"), class_limit=1000, cache=cache
    )
    assert rec["size"] == 94 == 22 + 72
    assert rec["enumeration"]["count"] == 208 * 917504


def test_report_renders():
    fig = {
        "joint_tree": {
            "optimal": True,
            "size": 158,
            "x_part_alone": 41,
            "o_part_alone": 127,
            "source_merged": 168,
            "source_direct": 212,
            "never_lose_size": 149,
            "table": "t.json",
            "lookups": 94,
        },
        "comparison": [],
        "optimal": [],
        "never_lose": [],
        "games": {"available": False, "file": "games_study.json"},
    }
    text = beyond_report_markdown(fig)
    assert "158 positions" in text and "games_study.json" in text
