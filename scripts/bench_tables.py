"""Benchmark of tables as artifacts: verify, exact odds, a 100,000-game tournament.

Targets named by the issue (the baselines each figure stands beside, as a ratio measured/target):
verifying a table under 50 ms, exact odds under 100 ms, a 100,000-game tournament under 2 s.
The tournament also stands beside the plain one-game-at-a-time loop (``play_game``), timed on
2,000 games in the same run and scaled to 100,000.

The table: the minimal both-sides table in ``results/tables`` when there is one, else the
first-move table (147 entries, X opening in the centre), which is larger and so slower to verify.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path


def _best(func, repeat: int = 5) -> tuple[float, float]:
    """(first call, median of the following calls) in seconds."""
    start = time.perf_counter()
    func()
    first = time.perf_counter() - start
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return first, statistics.median(times)


def _table():
    from minttt.game.graph import build_graph
    from minttt.table.model import first_move_table, load_table

    folder = Path(__file__).resolve().parent.parent / "results" / "tables"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            table = load_table(path)
        except Exception:  # noqa: BLE001 - a broken results file is not this benchmark's business
            continue
        if table.role == "both":
            return path.name, table
    return "first-move (both, opening 4)", first_move_table(build_graph(), "both", opening=4)


def run() -> dict:
    from minttt.game.player import RandomPlayer
    from minttt.play.tournament import play_game, tournament
    from minttt.table.odds import exact_odds
    from minttt.table.verify import verify_table

    name, table = _table()
    verify_first, verify_s = _best(lambda: verify_table(table))
    odds_first, odds_s = _best(
        lambda: (exact_odds(table.player(), "X"), exact_odds(table.player(), "O"))
    )
    player = table.player()
    rnd = RandomPlayer()
    tour_first, tour_s = _best(lambda: tournament(player, rnd, 100_000, seed=1), repeat=3)
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(2000):
        play_game(player, rnd, rng)
    loop_s = (time.perf_counter() - start) * 50
    return {
        "table": name,
        "table_entries": table.size,
        "verify_seconds_first": round(verify_first, 4),
        "verify_seconds": round(verify_s, 4),
        "verify_target_seconds": 0.05,
        "verify_ratio_to_target": round(verify_s / 0.05, 3),
        "exact_odds_x_and_o_seconds_first": round(odds_first, 4),
        "exact_odds_x_and_o_seconds": round(odds_s, 4),
        "exact_odds_target_seconds": 0.1,
        "exact_odds_ratio_to_target": round(odds_s / 0.1, 3),
        "tournament_100k_seconds_first": round(tour_first, 3),
        "tournament_100k_seconds": round(tour_s, 3),
        "tournament_target_seconds": 2.0,
        "tournament_ratio_to_target": round(tour_s / 2.0, 3),
        "play_game_loop_100k_seconds_scaled_from_2000": round(loop_s, 2),
        "tournament_speedup_vs_play_game_loop": round(loop_s / tour_s, 1),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
