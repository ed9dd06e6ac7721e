"""The 9-board engines search exactly as they did before the redesign split their hot path.

With a node budget a search is deterministic, so a search is pinned by its (move, score, nodes,
depth, wins, proven). ``tests/data/nine_fingerprints.json`` holds those fingerprints, recorded
with the engine as it was before the split (commit 0e6bb22, whose ``minttt/nine/engine.py`` is tag
``pre-redesign``'s but for one import line). To record them again, from a tree whose engine is the
reference::

    PYTHONPATH=$PWD python tests/test_nine_fingerprints.py tests/data/nine_fingerprints.json

Never regenerate them to make a failing test pass: a difference is a behaviour change.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from minttt.nine.baseline import BaselineEngine
from minttt.nine.engine import NineEngine, Weights
from minttt.nine.engine_match import random_opening, run_match
from minttt.nine.limits import Engine, Limits
from minttt.nine.rules import Position

FIXTURE = Path(__file__).parent / "data" / "nine_fingerprints.json"

#: (seed, opening plies, node budget) of the single searches; quick ones, then slow ones
#: openings of 16-30 plies whose search proves a win or loss beyond depth 1 (mate scores in the
#: table), found by scanning seeds 0-299 with a 20,000 node budget
PROVEN = [(11, 27), (26, 27), (39, 25), (40, 26), (55, 26), (58, 29), (73, 29), (87, 28), (115, 26)]
PROVEN += [(116, 27), (117, 28), (118, 29), (119, 30), (133, 29), (134, 30), (164, 30), (193, 29)]
PROVEN += [(204, 25), (207, 28), (208, 29), (209, 30), (221, 27), (222, 28), (224, 30), (228, 19)]
PROVEN += [(235, 26), (236, 27), (238, 29), (251, 27), (266, 27), (269, 30), (284, 30), (296, 27)]
QUICK_CASES = [(seed, 1 + seed % 30, 1500 + 100 * (seed % 5)) for seed in range(40)]
QUICK_CASES += [(seed, plies, 20_000) for seed, plies in PROVEN[::3]]
SLOW_CASES = [(100 + seed, 2 + 2 * (seed % 8), 40_000) for seed in range(8)]
SLOW_CASES += [(seed, plies, 20_000) for i, (seed, plies) in enumerate(PROVEN) if i % 3]
#: a weight set that moves every term of the evaluation (tempo included)
ODD_WEIGHTS = Weights(threat_boards=31, safe_cells=7, twos=3, tempo=5)
MATCH = {"games": 4, "limits_nodes": 400, "seed": 11, "opening_plies": 3}


def _fingerprint(engine: Engine, pos: Position, nodes: int) -> list[Any]:
    r = engine.search(pos, Limits(nodes=nodes))
    return [list(r.move), r.score, r.nodes, r.depth, r.wins, r.proven]


def _searches(cases: list[tuple[int, int, int]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for seed, plies, nodes in cases:
        opening = random_opening(random.Random(seed), plies)
        pos = Position.from_moves(opening)
        out.append(
            {
                "seed": seed,
                "plies": plies,
                "nodes": nodes,
                "ours": _fingerprint(NineEngine(), pos, nodes),
                "weights": _fingerprint(NineEngine(ODD_WEIGHTS), pos, nodes),
                "baseline": _fingerprint(BaselineEngine(), pos, nodes),
            }
        )
    return out


def _kept_table() -> list[list[Any]]:
    """One engine searching a game's positions in turn: its table carries over."""
    engine = NineEngine()
    pos = Position.from_moves(random_opening(random.Random(5), 4))
    out: list[list[Any]] = []
    while not pos.is_terminal and len(out) < 12:
        fp = _fingerprint(engine, pos, 2500)
        out.append(fp)
        pos = pos.play(*fp[0])
    return out


def _match() -> dict[str, Any]:
    m = MATCH
    result = run_match(
        opponent="baseline",
        games=m["games"],
        limits=Limits(nodes=m["limits_nodes"]),
        seed=m["seed"],
        opening_plies=m["opening_plies"],
    )
    return {
        "records": [[r.ours_as, [list(mv) for mv in r.moves], r.winner] for r in result.records],
        "nodes": [result.ours.nodes, result.theirs.nodes],
    }


def record() -> dict[str, Any]:
    """Every fingerprint, as the fixture holds them."""
    return {
        "quick": _searches(QUICK_CASES),
        "slow": _searches(SLOW_CASES),
        "kept_table": _kept_table(),
        "match": _match(),
    }


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_quick_searches_unchanged(expected: dict[str, Any]) -> None:
    assert len(expected["quick"]) == len(QUICK_CASES)
    assert _searches(QUICK_CASES) == expected["quick"]


def test_kept_table_searches_unchanged(expected: dict[str, Any]) -> None:
    assert _kept_table() == expected["kept_table"]


def test_match_unchanged(expected: dict[str, Any]) -> None:
    assert _match() == expected["match"]


@pytest.mark.slow
def test_deep_searches_unchanged(expected: dict[str, Any]) -> None:
    assert len(expected["slow"]) == len(SLOW_CASES)
    assert _searches(SLOW_CASES) == expected["slow"]


def _dump(data: dict[str, Any]) -> str:
    """JSON with one search (or one game) a line."""
    parts = [
        f"{json.dumps(k)}: [\n  " + ",\n  ".join(json.dumps(x) for x in v) + "\n ]"
        if isinstance(v, list)
        else f"{json.dumps(k)}: {json.dumps(v)}"
        for k, v in data.items()
    ]
    return "{\n " + ",\n ".join(parts) + "\n}\n"


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(_dump(record()))
