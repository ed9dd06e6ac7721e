"""Other games through the pipeline: writes results/games_study.json (and results/growth.png).

    python scripts/study_games.py [--timeout 300] [--games "3x3;mnk:3,4,3;..."] [--out results]

Takes minutes (the 4x4 boards); ``minttt reproduce`` only reads the file this writes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from minttt.fileio import write_json_atomic
from minttt.formula.variants import STUDY_GAMES
from minttt.report.other_games import growth_plot, study_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per solve")
    parser.add_argument("--games", default=";".join(STUDY_GAMES), help="games, ';'-separated")
    parser.add_argument("--out", type=Path, default=Path("results"))
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(";") if g]
    path = args.out / "games_study.json"
    study = {"timeout": args.timeout, "games": []}
    start = time.perf_counter()
    try:
        for game in games:
            record = study_game(
                game, timeout=args.timeout, progress=lambda m: print(m, file=sys.stderr, flush=True)
            )
            study["games"].append(record)
            write_json_atomic(path, study)  # keep what is done if a later game is interrupted
    except KeyboardInterrupt:
        print("interrupted; kept the games already done", file=sys.stderr)
    study["total_seconds"] = round(time.perf_counter() - start, 1)
    write_json_atomic(path, study)
    growth_plot(study, args.out / "growth.png")
    print(json.dumps({"games": [g["game"] for g in study["games"]], "file": str(path)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
