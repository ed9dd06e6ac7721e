"""Run every benchmark and write ``results/bench.json``.

Each ``scripts/bench_<area>.py`` exposes ``run() -> dict``; this script merges them under their area
names. Speed figures are measured side by side with the baseline each issue names, as ratios in one
run. Usage: ``python scripts/bench.py [AREA ...]`` (default: every area).
"""

from __future__ import annotations

import importlib.util
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.fileio import write_json_atomic  # noqa: E402


def areas() -> dict[str, Path]:
    return {
        p.stem.removeprefix("bench_"): p for p in sorted(Path(__file__).parent.glob("bench_*.py"))
    }


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    available = areas()
    chosen = argv or list(available)
    unknown = [a for a in chosen if a not in available]
    if unknown:
        print(
            f"error: unknown benchmark area(s) {unknown}; have {sorted(available)}", file=sys.stderr
        )
        return 2
    out_path = ROOT / "results" / "bench.json"
    results = json.loads(out_path.read_text()) if out_path.exists() else {}
    results["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "cpus": __import__("os").cpu_count(),
    }
    for area in chosen:
        print(f"== {area}", flush=True)
        start = time.perf_counter()
        results[area] = load(available[area]).run()
        print(f"   done in {time.perf_counter() - start:.1f} s", flush=True)
        write_json_atomic(out_path, results)
    print(f"wrote {out_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
