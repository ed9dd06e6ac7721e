"""Benchmark of the 9-board engines: match score and search speed beside 001's figures.

``run()`` plays the 10-game match at 0.2 s per move against the baseline (001's engine rebuilt)
and searches 001's transcript position (X took board 5 space 4; the computer answered after
16,418,831 states, 12 plies, 3,588 ms in C) for the same 3.588 s with both engines. Wall-clock
figures: they vary with the machine and its load. Takes about 1.5 minutes.
"""

from __future__ import annotations

import json
import platform
import time
from typing import Any

from minttt.nine.baseline import BaselineEngine
from minttt.nine.engine import NineEngine
from minttt.nine.engine_match import run_match
from minttt.nine.limits import Limits
from minttt.nine.rules import Position

C_STATES = 16_418_831
C_SECONDS = 3.588
C_PLIES = 12
MATCH_GAMES = 10
MATCH_MOVETIME = 0.2
MATCH_SEED = 0


def _first_move() -> dict[str, Any]:
    """Both engines on 001's transcript position, for 001's search time."""
    pos = Position.initial().play(4, 3)  # "5 4": board 5, space 4
    c_nps = C_STATES / C_SECONDS
    out: dict[str, Any] = {
        "position": "X on board 5 space 4 (001's transcript), O to move on board 4",
        "c_001": {
            "states": C_STATES,
            "seconds": C_SECONDS,
            "plies": C_PLIES,
            "nodes_per_second": round(c_nps),
        },
    }
    for engine in (BaselineEngine(), NineEngine()):
        result = engine.search(pos, Limits(movetime=C_SECONDS))
        nps = result.nodes / result.seconds
        out[engine.name] = {
            "states": result.nodes,
            "seconds": round(result.seconds, 3),
            "plies": result.depth,
            "move": f"board {result.move[0] + 1} space {result.move[1] + 1}",
            "nodes_per_second": round(nps),
            "nodes_per_second_vs_c_001": round(nps / c_nps, 4),
        }
    return out


def run() -> dict[str, Any]:
    """The figures for ``results/bench.json`` under ``nine``."""
    started = time.perf_counter()
    match = run_match(
        opponent="baseline",
        games=MATCH_GAMES,
        limits=Limits(movetime=MATCH_MOVETIME),
        seed=MATCH_SEED,
    )
    data = match.as_dict()
    match_summary = {
        key: data[key]
        for key in ("opponent", "movetime", "seed", "games", "wins", "draws", "losses", "score")
    }
    match_summary["target_score"] = 0.6
    match_summary["reached"] = match.score >= 0.6
    match_summary["nodes_per_second"] = data["nodes_per_second"]
    ours, theirs = match.ours.nodes_per_second, match.theirs.nodes_per_second
    match_summary["nodes_per_second_ours_vs_baseline"] = round(ours / theirs, 4) if theirs else None
    match_summary["results"] = [r.outcome for r in match.records]
    first = _first_move()
    return {
        "match": match_summary,
        "first_move_001": first,
        "note": "wall-clock figures (pure Python, one core); results vary with machine load",
        "python": platform.python_version(),
        "seconds": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
