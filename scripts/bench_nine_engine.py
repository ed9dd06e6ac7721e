"""Benchmark of the 9-board engine's hot path before and after the redesign split it.

The engine as it was (``git show pre-redesign:minttt/nine/engine.py``, its one import of the old
``minttt.nine.search`` pointed at ``minttt.nine.limits``) is loaded into a temporary module beside
the current one. Both search the same positions (random openings) with the same node budget,
alternately, several repetitions each; a fresh engine per search. Every pair of searches must
agree on move, score, nodes and depth (the split changes no behaviour). The figures: each
engine's nodes per second from each position's best time, and the ratio after / before, from
those best times and per repetition (median, range). Wall-clock: they vary with the load.
Takes about half a minute.
"""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from minttt.nine import engine as new_engine
from minttt.nine.engine_match import random_opening
from minttt.nine.limits import EngineResult, Limits
from minttt.nine.rules import Position

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "pre-redesign"
OLD_IMPORT = "from minttt.nine.search import"
NEW_IMPORT = "from minttt.nine.limits import"
POSITIONS = [(seed, 2 + 3 * (seed % 8)) for seed in range(12)]  # (seed, opening plies)
NODES = 30_000
REPETITIONS = 7


def old_engine() -> ModuleType:
    """The engine module at tag ``pre-redesign``, importable under today's module names."""
    source = subprocess.run(
        ["git", "show", f"{BEFORE}:minttt/nine/engine.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if OLD_IMPORT not in source:
        raise RuntimeError(f"{BEFORE}'s engine no longer imports {OLD_IMPORT!r}")
    source = source.replace(OLD_IMPORT, NEW_IMPORT)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "nine_engine_before.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location("nine_engine_before", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
    return module


def _timed(engine: Any, pos: Position) -> tuple[float, tuple[Any, ...]]:
    """Seconds of one search with a fresh engine, and its fingerprint."""
    start = time.perf_counter()
    r: EngineResult = engine().search(pos, Limits(nodes=NODES))
    seconds = time.perf_counter() - start
    return seconds, (r.move, r.score, r.nodes, r.depth, r.wins)


def run() -> dict[str, Any]:
    """The figures for ``results/bench.json`` under ``nine_engine``."""
    started = time.perf_counter()
    engines = {"before": old_engine().NineEngine, "after": new_engine.NineEngine}
    positions = [Position.from_moves(random_opening(random.Random(s), p)) for s, p in POSITIONS]
    times: dict[str, list[list[float]]] = {k: [[] for _ in positions] for k in engines}
    nodes, same = 0, True
    for rep in range(REPETITIONS):
        order = ["before", "after"] if rep % 2 == 0 else ["after", "before"]
        for i, pos in enumerate(positions):
            prints = {}
            for name in order:  # the two searches of one position run back to back
                seconds, prints[name] = _timed(engines[name], pos)
                times[name][i].append(seconds)
            same = same and prints["before"] == prints["after"]
            if rep == 0:
                nodes += prints["after"][2]
    # per engine: nodes per second of each repetition, and from each position's best time
    per_rep = {
        k: [nodes / sum(t[r] for t in v) for r in range(REPETITIONS)] for k, v in times.items()
    }
    best = {k: nodes / sum(min(t) for t in v) for k, v in times.items()}
    ratios = [a / b for a, b in zip(per_rep["after"], per_rep["before"], strict=True)]
    return {
        "before": f"tag {BEFORE} (minttt/nine/engine.py)",
        "positions": len(positions),
        "node_budget": NODES,
        "repetitions": REPETITIONS,
        "same_searches": same,
        # from each position's best time: the figure least disturbed by other load
        "nodes_per_second_before": round(best["before"]),
        "nodes_per_second_after": round(best["after"]),
        "after_vs_before_best_of": round(best["after"] / best["before"], 4),
        # one ratio per repetition (both engines under the same load), their median and range
        "after_vs_before_median": round(statistics.median(ratios), 4),
        "after_vs_before_range": [round(min(ratios), 4), round(max(ratios), 4)],
        "note": "each position searched by both engines back to back, order alternating by "
        "repetition; wall-clock, pure Python, one core, on a machine shared with other work",
        "seconds": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
