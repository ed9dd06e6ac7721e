"""Benchmark: 000's recipe (hochmuth) to a perfect strategy over 5 seeds, beside 000's figures.

Each seed runs as ``minttt evolve --seed S`` does by default: 000's protocol (population 500, at
most 500 generations), and a run that stagnates is restarted from a fresh random population
(seed + 1000 k), as 000 ran "a series of additional runs", until a perfect strategy appears
(``runner.evolve_until_perfect``); generations and seconds are summed over the attempts.
000: generation 373 after 1688 s (population 500), generation 457 after 65 minutes
(population 1000).

    python scripts/bench_evolve.py
"""

from __future__ import annotations

import json
import time
from statistics import median
from typing import Any

from minttt.evolve import runner
from minttt.evolve.runner import SOURCE_000, evolved_table
from minttt.evolve.situations import HochmuthConfig

SEEDS = (0, 1, 2, 3, 4)


def run_bench() -> dict[str, Any]:
    """``minttt evolve --seed S`` with the default restarts and budget, for each seed."""
    started = time.perf_counter()
    per_seed = []
    for seed in SEEDS:
        campaign = runner.evolve_until_perfect(HochmuthConfig(population=500, seed=seed))
        attempts = campaign.attempts
        per_seed.append(
            {
                "seed": seed,
                "first_run": attempts[0],
                "attempts": len(attempts),
                "perfect": campaign.perfect,
                "generations_total": sum(a["generations"] + 1 for a in attempts),
                "seconds_total": round(campaign.seconds, 2),
                "table_size": evolved_table(campaign.state).size if campaign.perfect else None,
            }
        )
    firsts = [p["first_run"] for p in per_seed]
    wins = [f for f in firsts if f["perfect"]]
    reached = [p for p in per_seed if p["perfect"]]
    med_seconds = (
        median(p["seconds_total"] for p in reached) if len(reached) == len(SEEDS) else None
    )
    gen_per_second = [
        f["generations"] / f["seconds"] for f in firsts if f["seconds"] > 0 and f["generations"]
    ]
    return {
        "recipe": "hochmuth (000): population 500, p_replicate 0.10, p_mutate 0.001, "
        "p_crossover 0.15, 627 genes, fitness = fraction of games not lost",
        "per_seed": per_seed,
        "first_run_success_rate": len(wins) / len(firsts),
        "first_run_median_generation_to_success": median(f["generations"] for f in wins)
        if wins
        else None,
        "median_seconds_to_perfect_with_restarts": med_seconds,
        "generations_per_second_median": round(median(gen_per_second), 1)
        if gen_per_second
        else None,
        "source_000": SOURCE_000,
        "speedup_vs_000_seconds": round(SOURCE_000["population_500"]["seconds"] / med_seconds, 1)
        if med_seconds
        else None,
        "seconds_per_generation_000": round(1688 / 373, 2),
        "all_seeds_perfect": all(p["perfect"] for p in per_seed),
        "bench_seconds": round(time.perf_counter() - started, 1),
    }


def run() -> dict[str, Any]:
    """The figures for ``results/bench.json`` under ``evolve``."""
    return run_bench()


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
