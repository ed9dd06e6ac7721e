"""How long the test commands the docs name take: the README's ``python -m pytest`` (every test
but those marked slow, one process), the quick loop (the same tests on every CPU, ``-n auto``)
and, with ``MINTTT_BENCH_FULL=1``, CI's full run (``-m "slow or not slow" -n auto``).

Whole processes from the checkout, one after the other, with the machine's 1-minute load average
before and after each (the docs' figures are for 2 idle cores: load below 0.5). Takes about
5 minutes on 2 idle cores (25 more with the full run).
On a shared machine, ``nice -n -15 python scripts/bench.py AREA`` (root) comes close to idle
cores: the niceness is recorded beside the load.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "readme": [],  # python -m pytest: the slow tests left out by pyproject's addopts
    "quick_loop": ["-m", "not slow", "-n", "auto"],
}
FULL = ["-m", "slow or not slow", "-n", "auto"]


def _time(args: list[str]) -> dict[str, Any]:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", *args]
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    passed = re.search(r"(\d+) passed", summary)
    return {
        "command": "python -m pytest " + " ".join(f'"{a}"' if " " in a else a for a in args),
        "wall_seconds": round(wall, 1),
        "passed": int(passed[1]) if passed else 0,
        "exit": done.returncode,
        "failed": re.findall(r"^FAILED (\S+)", done.stdout, flags=re.M),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def run() -> dict[str, Any]:
    commands = dict(COMMANDS)
    if os.environ.get("MINTTT_BENCH_FULL") == "1":
        commands["ci_full"] = FULL
    out: dict[str, Any] = {name: _time(args) for name, args in commands.items()}
    out["cpus"] = os.cpu_count()
    out["niceness"] = os.nice(0)  # below 0: the machine's other work yielded to it
    out["note"] = "wall seconds of whole pytest runs; the docs quote them for 2 idle cores"
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
