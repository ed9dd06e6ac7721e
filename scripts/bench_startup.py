"""Benchmark of start-up: ``minttt solve --all --json`` against a bare RC2 process, side by side.

The baseline is the least any tool can do for the same answers: one Python process that imports
PySAT and runs RC2 over the 18 standard formulas already written as WCNF (``encodings/*.wcnf``).
minttt also builds the game graph, encodes, reads the tables off the models and starts its CLI.
Both commands run as whole processes, alternately (so a load spike hits both), 15 times each; the
ratio is of the medians of wall time (the CPU-time medians beside it). The package's bytecode is
compiled first, as an installed package has it. Target: at most 1.3x. Also: what each process
spends importing (``-X importtime``, the median of 5 alternating runs each: one run is as noisy as
the machine) and which modules of the deny-list the command imports (none should:
``tests/test_startup.py``).
"""

from __future__ import annotations

import compileall
import os
import resource
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
TARGET = 1.3


def _timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _import_seconds(cmd: list[str]) -> float:
    """Seconds the process spends importing (top-level imports of ``-X importtime``)."""
    done = subprocess.run(
        [cmd[0], "-X", "importtime", *cmd[1:]], capture_output=True, text=True, cwd=ROOT
    )
    total = 0
    for line in done.stderr.splitlines():
        parts = line.split("|")
        top = len(parts) == 3 and parts[2].startswith(" ") and not parts[2].startswith("  ")
        if top and parts[1].strip().isdigit():
            total += int(parts[1])
    return total / 1e6


def _denied() -> list[str]:
    """The modules of the start-up test's deny-list that ``minttt solve --all`` imports."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_startup import SOLVE_JSON_DENIED, imported_denied  # the one deny-list

    return imported_denied(["solve", "--all", "--json"], SOLVE_JSON_DENIED)


def _import_medians(ours: list[str], bare: list[str], repeat: int = 5) -> tuple[float, float]:
    """The median import seconds of each command, measured alternately."""
    runs = [(_import_seconds(ours), _import_seconds(bare)) for _ in range(repeat)]
    return statistics.median(o for o, _ in runs), statistics.median(b for _, b in runs)


def run(repeat: int = 15) -> dict:
    compileall.compile_dir(str(ROOT / "minttt"), quiet=1)
    ours_cmd = [sys.executable, "-m", "minttt", "solve", "--all", "--json"]
    bare_cmd = [sys.executable, "-c", BARE_RC2, str(ROOT / "encodings")]
    load_before = os.getloadavg()[0]
    ours, bare = [], []
    for _ in range(repeat):
        ours.append(_timed(ours_cmd))
        bare.append(_timed(bare_cmd))
    load_after = os.getloadavg()[0]
    wall = statistics.median(w for w, _ in ours), statistics.median(w for w, _ in bare)
    cpu = statistics.median(c for _, c in ours), statistics.median(c for _, c in bare)
    imports = _import_medians(ours_cmd, bare_cmd)
    return {
        "command": "python -m minttt solve --all --json",
        "baseline": "one python process running PySAT RC2 over encodings/*.wcnf (18 files)",
        "wall_seconds_median": round(wall[0], 3),
        "baseline_wall_seconds_median": round(wall[1], 3),
        "ratio": round(wall[0] / wall[1], 2),
        "cpu_seconds_median": round(cpu[0], 3),
        "baseline_cpu_seconds_median": round(cpu[1], 3),
        "cpu_ratio": round(cpu[0] / cpu[1], 2),
        "target_ratio": TARGET,
        "runs_each": repeat,
        "order": "alternating whole processes, bytecode compiled",
        "import_seconds": round(imports[0], 3),
        "baseline_import_seconds": round(imports[1], 3),
        "denied_modules_imported": _denied(),
        "load_average_1min": [round(load_before, 2), round(load_after, 2)],
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
