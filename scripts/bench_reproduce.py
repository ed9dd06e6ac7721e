"""Benchmark of ``minttt reproduce`` as a whole: wall seconds, process start included (target 60 s).

Runs into a temporary folder (with the committed other-games study beside it, as reproduce reads
it) so ``results/`` is untouched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out, enc = Path(tmp) / "results", Path(tmp) / "encodings"
        out.mkdir()
        study = ROOT / "results" / "games_study.json"
        if study.exists():
            shutil.copy(study, out / study.name)
        start = time.perf_counter()
        command = [sys.executable, "-m", "minttt", "reproduce"]
        subprocess.run(
            [*command, "--out", str(out), "--encodings", str(enc)],
            check=True,
            capture_output=True,
        )
        seconds = time.perf_counter() - start
        files = sum(1 for p in out.rglob("*") if p.is_file())
    return {
        "reproduce_wall_seconds": round(seconds, 1),
        "target_seconds": 60.0,
        "under_target": seconds < 60.0,
        "files_written": files,
    }
