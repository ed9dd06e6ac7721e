"""The forced-alternative local search and the Dask portfolio (both methods): incremental
rebuilds equal full ones, every table it returns verifies and never beats a proven minimum, a
saved table is the start, and the CLI's --search refuses bad input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from minttt.bounds.greedy import LevelBuild, forced_search, greedy_table, tree_cost
from minttt.bounds.runs import searched_upper
from minttt.bounds.search import search_portfolio
from minttt.errors import DefectError
from minttt.formula.arrays import encode_arrays, table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.solvers.arrays import array_table
from minttt.table.verify import verify_table

#: the certified minima (lookup entries) of results/proofs/index.json
MINIMA = {
    c["variant"]: c["minimum"]
    for c in json.loads(
        (Path(__file__).parent.parent / "results/proofs/index.json").read_text("utf-8")
    )["certificates"]
    if c["variant"] in ("second-lookup-entries", "first-any-lookup-entries")
}


def _setup(name: str):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    return variant, graph, side, allowed, tree_cost(graph, allowed, side)


@pytest.mark.parametrize("name", ["second-lookup-entries", "first-any-lookup-entries"])
def test_unforced_build_is_the_greedy_table(name):
    _, graph, side, allowed, cost = _setup(name)
    build = LevelBuild(graph, allowed, side, cost)
    build.rebuild({})
    assert build.table() == greedy_table(graph, allowed, side, cost)


@pytest.mark.parametrize("seed", range(6))
def test_rebuilding_from_a_level_equals_rebuilding_everything(seed):
    """The incremental step is exact: levels above the change are what a full rebuild gives."""
    _, graph, side, allowed, cost = _setup("second-lookup-entries")
    rng = random.Random(seed)
    build = LevelBuild(graph, allowed, side, cost)
    forced: dict[int, int] = {}
    build.rebuild(forced)
    for _ in range(15):
        table = build.table()
        h = rng.choice([h for h in table if len(build.moves(h)) > 1])
        forced[h] = rng.choice(build.moves(h))
        build.rebuild(forced, next(d for d, c in enumerate(build.chosen) if h in c))
        full = LevelBuild(graph, allowed, side, cost)
        full.rebuild(forced)
        assert build.table() == full.table() and build.levels == full.levels


@pytest.mark.parametrize("slack", [0, 5])
@pytest.mark.parametrize("name", sorted(MINIMA))
def test_forced_search_tables_verify_and_respect_the_minimum(name, slack):
    """Plain and with slack: the best table is returned (never a later, larger one)."""
    variant, graph, side, allowed, cost = _setup(name)
    table, history = forced_search(graph, allowed, side, cost, seed=3, steps=400, slack=slack)
    sizes = [s for _, s in history]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == len(table)
    assert len(table) >= MINIMA[name]
    formula = encode_arrays(graph, variant)
    report = verify_table(array_table(graph, formula, table, {"variant": variant.name}))
    assert report.ok


def test_forced_search_from_a_table_starts_there():
    _, graph, side, allowed, cost = _setup("second-lookup-entries")
    start, _ = forced_search(graph, allowed, side, cost, seed=1, steps=200)
    again, history = forced_search(graph, allowed, side, cost, start, seed=2, steps=50)
    assert history[0][1] == len(start) and len(again) <= len(start)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["lns", "forced"])
def test_portfolio_on_a_local_cluster_of_two_workers(method):
    variant = Variant.parse("second-lookup-entries")
    graph = build_array_graph(variant.rules)
    results = search_portfolio(
        variant, None, graph=graph, seconds=40, seeds=(0, 1), rounds=2, workers=2, method=method
    )
    assert sorted((r.round, r.seed) for r in results) == [(0, 0), (0, 1), (1, 1000), (1, 1001)]
    best_first = min(len(r.table) for r in results if r.round == 0)
    assert all(len(r.table) <= best_first for r in results if r.round == 1)  # restarts from best
    formula = encode_arrays(graph, variant)
    for r in results:
        assert len(r.table) >= MINIMA[variant.name]
        assert verify_table(array_table(graph, formula, r.table, {"variant": variant.name})).ok


@pytest.mark.slow
def test_searched_upper_keeps_a_verified_table_and_resumes(tmp_path: Path):
    variant = Variant.parse("second-lookup-entries")
    ckpt = tmp_path / "o.json"
    say: list[str] = []
    # the budget holds the local cluster's start too: 4 s left a loaded CI machine no search
    state = searched_upper(variant, ckpt, seconds=12, seeds=1, rounds=1, workers=1, say=say.append)
    first = state.upper
    assert first >= MINIMA[variant.name] and (tmp_path / "o.table.json").is_file()
    state = searched_upper(variant, ckpt, seconds=12, seeds=1, rounds=1, workers=1, say=say.append)
    assert state.upper <= first and state.search["start"] == first
    saved = json.loads(ckpt.read_text())
    assert saved["search"]["found"][0]["entries"] >= state.upper
    counts = saved["search"]["found"][0]["counts"]  # what the search did, in the checkpoint
    assert counts["steps"] >= 1 and counts["unsolved"] <= counts["steps"]


def test_an_interrupted_search_keeps_the_rounds_that_arrived(tmp_path: Path, monkeypatch):
    """Each task's table is verified and saved as it arrives: an interrupt in a later round
    leaves the checkpoint with the smaller table of an earlier one (and never an unverified
    one: a table a worker got wrong is refused)."""
    import minttt.bounds.search as portfolio
    from minttt.bounds.greedy import improve

    variant = Variant.parse("second-lookup-entries@mnk:3,4,3")
    graph = build_array_graph(variant.rules)
    allowed = table_edge_mask(graph, variant)
    cost = tree_cost(graph, allowed, 2)
    greedy = greedy_table(graph, allowed, 2, cost)
    better = improve(graph, allowed, 2, cost, greedy, seed=0, rounds=6)
    assert len(better) < len(greedy)
    broken = dict(better)
    broken.pop(max(broken))  # a table missing an entry: smaller, and wrong

    def interrupted(variant, start, *, on_result, **_kw):
        on_result(portfolio.FoundTable(0, 0, greedy if start is None else start, []))
        on_result(portfolio.FoundTable(1, 0, better, [(1.0, len(better))]))
        raise KeyboardInterrupt

    monkeypatch.setattr(portfolio, "search_portfolio", interrupted)
    ckpt = tmp_path / "o.json"
    with pytest.raises(KeyboardInterrupt):
        searched_upper(variant, ckpt, seconds=60, seeds=2, workers=1, say=lambda _m: None)
    saved = json.loads(ckpt.read_text())
    assert saved["upper"] == len(better) and saved["history"][-1][2] == len(better)
    assert (tmp_path / "o.table.json").is_file()

    def wrong(variant, start, *, on_result, **_kw):
        on_result(portfolio.FoundTable(0, 0, broken, []))
        return []

    seen: dict = {}

    def records_its_seeds(variant, start, *, seeds, **_kw):
        seen["seeds"] = list(seeds)
        return []

    monkeypatch.setattr(portfolio, "search_portfolio", records_its_seeds)
    searched_upper(variant, ckpt, seconds=60, seeds=3, first_seed=5, workers=1, say=lambda _m: None)
    assert seen["seeds"] == [5, 6, 7]  # --seed N: the searches take N, N+1, ...
    search = json.loads(ckpt.read_text())["search"]
    assert (search["seeds"], search["first_seed"]) == (3, 5)

    monkeypatch.setattr(portfolio, "search_portfolio", wrong)
    with pytest.raises(DefectError, match="failed verification"):
        searched_upper(variant, ckpt, seconds=60, seeds=1, workers=1, say=lambda _m: None)
    assert json.loads(ckpt.read_text())["upper"] == len(better)


@pytest.mark.parametrize(
    "args",
    [
        ["--search", "-1"],
        ["--search", "nan"],
        ["--search", "5", "--hint", "5"],
        ["--search", "5", "--workers", "0"],
        ["--search", "5", "--seeds", "0"],
        ["--search", "5", "--rounds", "0"],
        ["--search", "5", "--slack", "-1"],
        ["--search", "5", "--method", "tabu"],
        ["--search", "5", "--seed", "-1"],
        ["--search", "5", "--seed", "x"],
    ],
)
def test_scale_search_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str]):
    cmd = [sys.executable, "-m", "minttt", "scale", "--game", "mnk:3,4,3", "--role", "second"]
    out = subprocess.run(
        [*cmd, "--checkpoint", str(tmp_path / "c.json"), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert not (tmp_path / "c.json").exists()
