"""The per-level lower bound: never above a certified minimum, never above what a verified table
has at any level, equal to the minimum where the levels do not trade against each other (3x3 O,
3x4 X), sound when RC2 is stopped early."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from minttt.bounds.greedy import greedy_table, tree_cost
from minttt.bounds.levels import level_bounds
from minttt.formula.arrays import encode_arrays, table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.solvers.arrays import moves_from_table
from minttt.table.model import load_table

ROOT = Path(__file__).resolve().parent.parent
MINIMA = {
    c["variant"]: c["minimum"]
    for c in json.loads((ROOT / "results/proofs/index.json").read_text("utf-8"))["certificates"]
    if "lookup-entries" in c["variant"] and not c["variant"].startswith("both")
}


def _per_depth(graph, table: dict[int, int]) -> Counter[int]:
    return Counter(int(graph.depth[h]) for h in table)


@pytest.mark.parametrize("name", sorted(MINIMA))
def test_never_above_a_certified_minimum(name):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    result = level_bounds(graph, encode_arrays(graph, variant), seconds_per_level=30)
    assert result.complete
    assert result.lower <= MINIMA[name]


@pytest.mark.parametrize(
    ("name", "minimum"),
    [("second-lookup-entries", 72), ("first-any-lookup-entries@mnk:3,4,3", 46)],
)
def test_meets_the_minimum_where_levels_do_not_trade(name, minimum):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    assert level_bounds(graph, encode_arrays(graph, variant)).lower == minimum


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["second-lookup-entries@mnk:3,4,3", "first-any-lookup-entries@mnk:4,4,3"]
)
def test_each_level_at_most_what_a_verified_table_has_there(name):
    """The shipped (verified, minimum) table and the greedy table, level by level."""
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    result = level_bounds(graph, formula, seconds_per_level=20)
    stem = name.replace("@", "_").replace(":", "").replace(",", "")
    shipped = moves_from_table(graph, load_table(ROOT / f"results/games/{stem}.table.json"))
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    greedy = greedy_table(graph, allowed, side, tree_cost(graph, allowed, side))
    for table in (shipped, greedy):
        counts = _per_depth(graph, table)
        assert all(level.lower <= counts[level.depth] for level in result.levels)


def test_a_stopped_level_is_still_a_bound():
    variant = Variant.parse("second-lookup-entries@mnk:3,4,3")
    graph = build_array_graph(variant.rules)
    result = level_bounds(graph, encode_arrays(graph, variant), seconds_per_level=0.5)
    assert not result.complete and 0 < result.lower <= 189


def test_the_cut_keeps_exactly_the_clauses_above_the_level():
    variant = Variant.parse("second-lookup-entries")
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    whole = formula.cut(graph, 99)
    assert np.array_equal(whole.long_lits, formula.long_lits)
    assert np.array_equal(whole.binary, formula.binary)
    top = formula.cut(graph, 1)
    assert len(top.long_ptr) == 1 and len(top.binary) == 0  # only the start units are left
    assert np.array_equal(top.units, formula.units)


def test_only_entries_variants():
    variant = Variant.parse("second-lookup-positions")
    graph = build_array_graph(variant.rules)
    with pytest.raises(ValueError, match="entries"):
        level_bounds(graph, encode_arrays(graph, variant))


def _scale(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "minttt", "scale", "--game", "mnk:3,4,3", "--role", "first"]
    return subprocess.run(
        [*cmd, "--checkpoint", str(tmp_path / "x.json"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_scale_levels_raises_the_checkpoints_lower_bound(tmp_path: Path):
    out = _scale(tmp_path, "--levels", "20")
    assert out.returncode == 0, out.stderr
    state = json.loads((tmp_path / "x.json").read_text("utf-8"))
    assert state["lower"] == 46 and state["levels"]["complete"]
    assert state["history"][-1][3] == "per-level minima"
    assert "at least 46 entries" in out.stdout


@pytest.mark.parametrize(
    "args", [["--levels", "-1"], ["--levels", "nan"], ["--levels", "5", "--search", "5"]]
)
def test_scale_levels_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str]):
    out = _scale(tmp_path, *args)
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert not (tmp_path / "x.json").exists()
