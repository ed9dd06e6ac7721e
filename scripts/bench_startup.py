"""Benchmark of start-up: ``minttt solve --all --json`` against a bare RC2 process, side by side.

The baseline is the least any tool can do for the same answers: one Python process that imports
PySAT and runs RC2 over the 18 standard formulas already written as WCNF (``encodings/*.wcnf``).
minttt also builds the game graph, encodes, extracts and checks the tables, and starts its CLI.
Both commands run alternately (so a load spike hits both), 9 times each; the ratio is of medians.
Target: at most 2x. Also lists which heavy libraries the command imports (none should be).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE_RC2 = """
import glob, sys
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
for path in sorted(glob.glob(sys.argv[1] + "/*.wcnf")):
    with RC2(WCNF(from_file=path)) as rc2:
        rc2.compute()
"""
PROBE = """
import sys
sys.argv = ["minttt", "solve", "--all", "--json"]
from minttt.cli import main
try:
    main()
except SystemExit:
    pass
heavy = [m for m in ("numpy", "matplotlib", "z3", "networkx", "pydantic") if m in sys.modules]
print(",".join(heavy), file=sys.stderr)
"""


def _wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def run(repeat: int = 9) -> dict:
    ours_cmd = [sys.executable, "-m", "minttt", "solve", "--all", "--json"]
    bare_cmd = [sys.executable, "-c", BARE_RC2, str(ROOT / "encodings")]
    ours, bare = [], []
    for _ in range(repeat):
        ours.append(_wall(ours_cmd))
        bare.append(_wall(bare_cmd))
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, cwd=ROOT
    )
    ours_median, bare_median = statistics.median(ours), statistics.median(bare)
    return {
        "command": "python -m minttt solve --all --json",
        "baseline": "one python process running PySAT RC2 over encodings/*.wcnf (18 files)",
        "wall_seconds_median": round(ours_median, 3),
        "baseline_wall_seconds_median": round(bare_median, 3),
        "ratio": round(ours_median / bare_median, 2),
        "target_ratio": 2.0,
        "runs_each": repeat,
        "heavy_modules_imported": [m for m in probe.stderr.strip().split(",") if m],
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
