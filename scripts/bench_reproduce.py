"""Benchmark of ``minttt reproduce`` as a whole, side by side with the code before its work queue.

Whole processes (``python -m minttt reproduce``, start-up included), alternating: the code of
:data:`BASELINE` (the commit before the work queue, extracted into a temporary folder and put first
on ``PYTHONPATH``) and the code of this checkout, ``ROUNDS`` times each (default 2,
``MINTTT_BENCH_ROUNDS``), each into a new temporary folder with the committed long runs beside it,
as reproduce reads them. Per run: wall seconds, CPU seconds of the whole process tree (its workers
included) and the machine's 1-minute load average before and after. Both codes must write the
same bytes. The floor: every part's CPU seconds, measured in one process, and the seconds the
work queue takes with those costs on this machine's CPUs when they are idle (its own order,
:func:`minttt.report.queue.makespan`): what the wall seconds come to when nothing else runs.
Takes about 4 minutes on 2 idle cores. ``results/`` is untouched.
On a shared machine, ``nice -n -15 python scripts/bench.py AREA`` (root) comes close to idle
cores: the niceness is recorded beside the load.
"""

from __future__ import annotations

import dataclasses
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.report.reproduce import carry_long_runs, default_workers  # noqa: E402

#: main before the work queue (reproduce ran its steps one by one, three in fixed pairs)
BASELINE = "2c193de"
TARGET_SECONDS = 40.0


def _extract(commit: str, into: Path) -> Path:
    """The package as it was at ``commit``, under ``into`` (for PYTHONPATH)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "minttt"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _run(code: Path, work: Path) -> dict[str, Any]:
    """One whole ``minttt reproduce`` of the package under ``code`` into ``work``."""
    out, enc = work / "results", work / "encodings"
    out.mkdir(parents=True)
    carry_long_runs(ROOT / "results", out)
    env = {**os.environ, "PYTHONPATH": str(code)}
    command = [sys.executable, "-m", "minttt", "reproduce", "--out", str(out)]
    load_before = os.getloadavg()[0]
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run from the work folder: from the checkout, ``python -m`` would import the checkout's
    # package ahead of PYTHONPATH, and the baseline would be this code again
    subprocess.run(
        [*command, "--encodings", str(enc)], check=True, capture_output=True, env=env, cwd=work
    )
    wall = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return {
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def _floor(work: Path, cpus: int) -> dict[str, Any]:
    """The queue's own floor: every part's CPU seconds, measured here on one worker, and the
    seconds the queue would take with those costs on ``cpus`` idle CPUs
    (:func:`minttt.report.queue.makespan`, the queue's own order)."""
    from minttt.report import reproduce as driver
    from minttt.report import steps as step_specs
    from minttt.report.queue import Part, Step, makespan

    seconds: dict[str, list[float]] = {name: [] for name in step_specs.SPECS}

    def timed(name: str, work_part: Any) -> Any:
        def run_part(ctx: Any, arg: Any) -> Any:
            start = time.process_time()
            try:
                return work_part(ctx, arg)
            finally:
                seconds[name].append(time.process_time() - start)

        return run_part

    specs = dict(step_specs.SPECS)
    try:
        for name, spec in specs.items():
            step_specs.SPECS[name] = dataclasses.replace(spec, work=timed(name, spec.work))
        out = work / "results"
        out.mkdir(parents=True)
        carry_long_runs(ROOT / "results", out)
        driver.reproduce(out, work / "encodings", workers=1)
    finally:
        step_specs.SPECS.update(specs)
    ctx = step_specs.Context(out, work / "encodings")
    measured = [
        Step(
            name,
            [Part(p.arg, t) for p, t in zip(spec.parts(ctx), seconds[name], strict=True)],
            lambda _results: None,
            needs=(*spec.needs, *spec.after),
        )
        for name, spec in specs.items()
    ]
    total = sum(sum(v) for v in seconds.values())
    return {
        "cpu_seconds_one_worker": round(total, 1),
        "per_step_cpu_seconds": {n: round(sum(v), 1) for n, v in seconds.items()},
        "parts": sum(len(v) for v in seconds.values()),
        "longest_part_seconds": round(max(t for v in seconds.values() for t in v), 1),
        f"queue_seconds_on_{cpus}_idle_cpus": round(makespan(measured, cpus), 1),
    }


def _files(work: Path) -> dict[str, bytes]:
    return {str(p.relative_to(work)): p.read_bytes() for p in work.rglob("*") if p.is_file()}


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    wall = statistics.median(r["wall_seconds"] for r in runs)
    cpu = statistics.median(r["cpu_seconds"] for r in runs)
    return {"wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1), "runs": runs}


def run() -> dict[str, Any]:
    rounds = int(os.environ.get("MINTTT_BENCH_ROUNDS", "2"))
    cpus = default_workers()
    with tempfile.TemporaryDirectory(prefix="minttt-bench-reproduce-") as tmp:
        base_code = _extract(BASELINE, Path(tmp) / "baseline")
        runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "now": []}
        same = True
        differing: list[str] = []
        for i in range(rounds):
            written = {}
            for label, code in (("baseline", base_code), ("now", ROOT)):
                work = Path(tmp) / f"{label}-{i}"
                runs[label].append(_run(code, work))
                written[label] = _files(work)
            base_files, now_files = written["baseline"], written["now"]
            same = same and base_files == now_files
            differing = sorted(
                k for k in set(base_files) | set(now_files) if base_files.get(k) != now_files.get(k)
            )
            files = len(written["now"])
        floor = _floor(Path(tmp) / "floor", cpus)
    base, now = _summary(runs["baseline"]), _summary(runs["now"])
    return {
        "what": f"minttt reproduce, whole processes, {rounds} alternating runs each, medians",
        "baseline": {"commit": BASELINE, **base},
        "now": now,
        "ratio_now_over_baseline": round(now["wall_seconds"] / base["wall_seconds"], 3),
        "cpus": cpus,
        "niceness": os.nice(0),  # below 0: the machine's other work yielded to it
        "floor": floor,
        "target_seconds": TARGET_SECONDS,
        "under_target": now["wall_seconds"] <= TARGET_SECONDS,
        "same_bytes_as_baseline": same,
        # what the code since the baseline writes differently on purpose (new sections, the
        # certificates' second check): the files, relative to the run's folder
        "files_differing_from_baseline": differing,
        "files_written": files,
        "load_note": "1-minute load average before and after each run; the target is for 2 "
        "idle cores (load below 0.5)",
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
