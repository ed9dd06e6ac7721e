"""The package as a user downloads and installs it, beside the last release commit's.

For this checkout and for a baseline commit (``BASELINE``, default ``HEAD``: the work before an
uncommitted change; name another commit in ``MINTTT_BENCH_BASELINE``), in one run: build the
wheel (``python -m build --wheel``), install it into a new venv with the lock's versions, and
measure the wheel's size, its file count, the venv's size on disk and the package's own share of
it. Ratios are this checkout's over the baseline's. Network downloads come from pip's cache.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = os.environ.get("MINTTT_BENCH_BASELINE", "HEAD")


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def _measure(source: Path, work: Path, *, pure: bool = False) -> dict[str, object]:
    dist = work / "dist"
    env = {**os.environ, **({"MINTTT_PURE": "1"} if pure else {})}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(source)],
        check=True,
        capture_output=True,
        env=env,
    )
    build_seconds = time.perf_counter() - start
    wheel = next(dist.glob("*.whl"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    lock = ROOT / "requirements" / "lock.txt"
    subprocess.run([*pip, str(wheel), "-c", str(lock)], check=True, capture_output=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    import zipfile

    with zipfile.ZipFile(wheel) as z:
        files = len(z.namelist())
    return {
        "wheel": wheel.name,
        "wheel_mb": round(wheel.stat().st_size / 1e6, 1),
        "wheel_files": files,
        "venv_mb": round(_du(venv) / 1e6),
        "minttt_mb": round(_du(site / "minttt") / 1e6, 1),
        "build_seconds": round(build_seconds, 1),
    }


def run() -> dict[str, object]:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="minttt-bench-package-") as tmp:
        work = Path(tmp)
        base_tree = work / "baseline-tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base_tree), BASELINE],
            check=True,
            capture_output=True,
        )
        try:
            # the results a baseline wheel packs: its own checkout's (a worktree holds them)
            baseline = _measure(base_tree, work / "baseline")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)],
                check=False,
                capture_output=True,
            )
        shutil.rmtree(work / "baseline", ignore_errors=True)
        now = _measure(ROOT, work / "now")
        pure = _measure(ROOT, work / "pure", pure=True)
    return {
        "what": "python -m build --wheel, then pip install WHEEL -c requirements/lock.txt into a "
        "new venv: the wheel's size and the venv's size on disk",
        "baseline": f"the wheel of {BASELINE} (its commit, built the same way)",
        "now": now,
        "pure": pure,
        "baseline_result": baseline,
        "wheel_ratio": round(now["wheel_mb"] / baseline["wheel_mb"], 3),  # type: ignore[operator]
        "venv_ratio": round(now["venv_mb"] / baseline["venv_mb"], 3),  # type: ignore[operator]
        "load_average_1min": [round(load, 2), round(os.getloadavg()[0], 2)],
    }
