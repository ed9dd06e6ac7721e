"""``minttt reproduce``: rebuild every result of the project, deterministically.

Each step (:mod:`minttt.report.steps`) writes files under ``out`` (default ``results/``) and
returns the figures it found; the figures go to ``summary.json`` and, beside the source documents'
figures, to ``REPORT.md``. The steps' parts run side by side on a work queue
(:mod:`minttt.report.queue`); the figures and sections are put in the steps' order, so the bytes
do not depend on which part finished first. Nothing written here holds a timestamp or a timing, so
two runs give the same bytes (timings live in ``results/bench.json``, written by
``scripts/bench.py``).

>>> [name for name, _ in STEPS][:3]
['counts', 'tables', 'verification']
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minttt.errors import InputError
from minttt.fileio import write_json_atomic, write_text_atomic
from minttt.interrupt import shielded
from minttt.report.long_runs import LONG_RUN_INPUTS, carry_long_runs
from minttt.report.queue import Step, run_steps
from minttt.report.sections import report_head
from minttt.report.steps import RAW_ENCODINGS, SPECS, Context, StepSpec, work

#: The steps, in the order of ``summary.json`` and REPORT.md: (name, how it runs).
STEPS: list[tuple[str, StepSpec]] = list(SPECS.items())


def reproduce(
    out: Path = Path("results"),
    encodings: Path | None = None,
    *,
    steps: list[str] | None = None,
    on_step: Callable[[str, int, int], None] | None = None,
    workers: int | None = None,
) -> dict[str, Any]:
    """Run the steps (all by default) and write ``summary.json`` and ``REPORT.md`` into ``out``.

    ``encodings`` (the exported formulas) defaults to ``encodings/`` beside the default ``out``
    (a checkout's layout) and to ``out/encodings`` for any other ``out``: nothing is written
    outside ``out`` unless asked. The steps' parts run on ``workers`` processes (default: one per
    CPU this process may use; 1 runs everything here); the files written are the same bytes
    either way. ``on_step(steps running, parts done, parts)`` follows the progress. Every file is
    first written to a staging folder inside ``out`` (and beside ``encodings``) and moved into
    place only when all steps finished, so an interrupted or failed run changes nothing.
    """

    out = Path(out)
    encodings = default_encodings(out) if encodings is None else Path(encodings)
    staged: list[tuple[Path, Path]] = []
    locks: list[int] = []
    made = _missing_folders(out, encodings.parent)  # removed again unless the run finishes
    try:
        staged = _stage(out, encodings, locks=locks)
        if any(SPECS[name].long_runs for name in chosen_steps(steps)):
            carry_long_runs(out, staged[0][0])
        ctx = Context(staged[0][0], staged[1][0])
        _run_steps(ctx, steps, on_step, default_workers() if workers is None else workers)
        write_json_atomic(ctx.out / "summary.json", ctx.figures)
        write_text_atomic(ctx.out / "REPORT.md", _report(ctx))
        _commit(staged)
        made = []
    except OSError as exc:
        raise InputError(f"{exc.filename or out}: cannot write ({exc.strerror or exc})") from None
    finally:
        for fd in locks:  # let go first: a lock held open would keep Windows from removing it
            os.close(fd)
        for tmp, _ in staged:
            shutil.rmtree(tmp, ignore_errors=True)
        for folder in made:  # deepest first; only what this run created, and only if empty
            with contextlib.suppress(OSError):
                folder.rmdir()
    return ctx.figures


def _missing_folders(*folders: Path) -> list[Path]:
    """The folders (and their parents) that do not exist yet, deepest first."""
    missing: set[Path] = set()
    for folder in folders:
        for path in (folder, *folder.parents):
            if path.exists():
                break
            missing.add(path)
    return sorted(missing, key=lambda p: len(p.parts), reverse=True)


def default_encodings(out: Path) -> Path:
    """Where ``reproduce`` writes the formulas when not told: ``encodings/`` beside the default
    ``results/``, else inside ``out``.

    >>> default_encodings(Path("results")), default_encodings(Path("/tmp/mine"))
    (PosixPath('encodings'), PosixPath('/tmp/mine/encodings'))
    """
    return Path("encodings") if Path(out) == Path("results") else Path(out) / "encodings"


def default_workers() -> int:
    """The CPUs this process may run on (its affinity where the system says, else the count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


#: the file inside a staging folder that its run holds locked while it lives (never committed)
STAGING_LOCK = ".staging.lock"


def _stage(out: Path, *finals: Path, locks: list[int]) -> list[tuple[Path, Path]]:
    """(staging, final) pairs: one staging folder inside ``out``, one beside each other final
    folder (inside ``out`` too when that folder is). Each is held by this run: its
    :data:`STAGING_LOCK` is locked (the descriptors go to ``locks``), so a run killed before it
    could remove its folders (SIGKILL) leaves them unlocked, and the next run removes them
    (:func:`_remove_stale`)."""

    staged: list[tuple[Path, Path]] = []
    try:
        for final, where in ((out, out), *((f, f.parent) for f in finals)):
            where.mkdir(parents=True, exist_ok=True)
            _remove_stale(where, final.name)
            tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".staging", dir=where))
            staged.append((tmp, final))
            locks.append(_hold(tmp / STAGING_LOCK))
    except OSError:
        for folder, _ in staged:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return staged


def _hold(path: Path) -> int:
    """A descriptor of ``path`` (made), locked exclusively: released when it is closed or this
    process ends, however it ends."""
    import portalocker

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        portalocker.lock(fd, portalocker.LOCK_EX | portalocker.LOCK_NB)
    except portalocker.exceptions.LockException:
        os.close(fd)
        raise OSError(f"{path}: locked by another process") from None
    return fd


def _remove_stale(where: Path, name: str) -> None:
    """Remove the staging folders of ``name`` in ``where`` that a run left behind when it was
    killed: those whose :data:`STAGING_LOCK` no process holds. A folder in use (its lock held)
    is left alone, as is one without a lock file (its owner cannot be told)."""
    for folder in where.glob(f".{name}.*.staging"):
        lock = folder / STAGING_LOCK
        if not folder.is_dir() or folder.is_symlink() or not lock.is_file():
            continue
        try:
            fd = _hold(lock)
        except OSError:
            continue  # a live run's
        try:  # the lock file goes last: a removal cut short is taken up by the next run
            for path in folder.iterdir():
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                elif path != lock:
                    path.unlink()
        except OSError:
            continue
        finally:
            os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)


def _commit(staged: list[tuple[Path, Path]]) -> None:
    """Move every staged file into its final folder, shielded from Ctrl-C (all or none)."""

    with shielded(final=True):
        for tmp, final in staged:
            for path in sorted(tmp.rglob("*")):
                if path.is_file() and path != tmp / STAGING_LOCK:
                    target = final / path.relative_to(tmp)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(path, target)


def chosen_steps(steps: list[str] | None) -> list[str]:
    """The steps to run for ``--step`` names (all when None): those named and what they need,
    in :data:`STEPS` order.

    >>> chosen_steps(["diagrams"])
    ['tables', 'diagrams']
    """
    if steps is None:
        return list(SPECS)
    wanted = set(steps)
    while True:
        more = {n for s in wanted for n in SPECS[s].needs} - wanted
        if not more:
            return [n for n in SPECS if n in wanted]
        wanted |= more


def _run_steps(
    ctx: Context,
    steps: list[str] | None,
    on_step: Callable[[str, int, int], None] | None,
    workers: int,
) -> None:
    """Run the chosen steps on the queue; then order the figures and sections as :data:`STEPS`."""
    names = chosen_steps(steps)
    added: dict[str, tuple[list[str], list[str]]] = {}

    def finisher(name: str) -> Callable[[list[Any]], None]:
        def finish(results: list[Any]) -> None:
            keys, lines = set(ctx.figures), len(ctx.report)
            SPECS[name].finish(ctx, results)
            added[name] = ([k for k in ctx.figures if k not in keys], ctx.report[lines:])

        return finish

    queue = [
        Step(
            name,
            SPECS[name].parts(ctx),
            finisher(name),
            needs=tuple(n for n in (*SPECS[name].needs, *SPECS[name].after) if n in names),
        )
        for name in names
    ]

    def progress(running: list[str], done: int, total: int) -> None:
        if on_step:
            on_step(" + ".join(running), done, total)

    run_steps(queue, work, snapshot=lambda: ctx, workers=workers, on_progress=progress)
    figures, report = ctx.figures, []
    ctx.figures = {k: figures[k] for name in names for k in added[name][0]}
    for name in names:
        report += added[name][1]
    ctx.report = report


def _report(ctx: Context) -> str:
    return "\n".join(report_head() + ctx.report).rstrip() + "\n"


__all__ = [
    "Context",
    "LONG_RUN_INPUTS",
    "RAW_ENCODINGS",
    "STEPS",
    "carry_long_runs",
    "chosen_steps",
    "default_encodings",
    "default_workers",
    "reproduce",
]
