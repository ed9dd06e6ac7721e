"""Benchmark of the foundation: ``minttt count`` wall time, process start included.

Baseline: the plain walk of 003's first recursion (549,946 nodes one by one) against counting the
full tree with multiplicities over the 5,478-position graph.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time


def _wall(cmd: list[str], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run() -> dict:
    from minttt.game.counts import full_tree_counts, walk_full_tree
    from minttt.game.graph import build_graph

    count_cli = _wall([sys.executable, "-m", "minttt", "count", "--json"])
    start = time.perf_counter()
    walked = walk_full_tree()
    walk_s = time.perf_counter() - start
    start = time.perf_counter()
    counted = full_tree_counts(build_graph(symmetric=False))
    mult_s = time.perf_counter() - start
    assert walked == counted
    return {
        "count_cli_seconds_median_of_5": round(count_cli, 3),
        "count_cli_target_seconds": 1.0,
        "full_tree_plain_walk_seconds": round(walk_s, 3),
        "full_tree_multiplicities_seconds": round(mult_s, 3),
        "speedup_multiplicities_vs_walk": round(walk_s / mult_s, 1),
    }
