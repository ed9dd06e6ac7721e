"""A work queue: steps split into parts, run on a few worker processes, longest chain first.

A :class:`Step` lists its parts up front (each with an estimated cost in seconds) and the steps it
must wait for. A part is sent to the first free worker once every step it waits for has finished;
among the parts ready, the one heading the longest remaining chain goes first (its own cost plus
the longest part of each step that waits on it, and so on). A worker runs ``work(step, arg,
state)`` and sends the result back; when every part of a step is back, the step's ``finish`` runs
in this process with the results in the parts' order, so what a step makes never depends on the
order its parts ran in.

``state`` is what the parts read (``snapshot()``), sent to a worker again only after a ``finish``
changed it. With one worker everything runs here, in the same order. On any exit (an error, Ctrl-C)
no worker is left running: the parent alone answers signals (:func:`minttt.interrupt.worker_init`),
and a worker ends when its parent dies, even by SIGKILL (:func:`_end_with_parent`: the kernel's
parent-death signal on Linux, and everywhere a thread that watches the parent).

>>> from functools import partial
>>> done = []
>>> steps = [
...     Step("a", [Part(1, 1.0), Part(2, 1.0)], partial(done.append)),
...     Step("b", [Part(10, 1.0)], done.append, needs=("a",)),
... ]
>>> run_steps(steps, lambda step, arg, state: arg + 1, snapshot=lambda: None, workers=1)
>>> done
[[2, 3], [11]]
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import inf
from multiprocessing.connection import Connection, wait
from typing import Any

from minttt.interrupt import worker_init

#: how often (seconds) the parent wakes while it waits for a worker: a signal handler runs only
#: between bytecodes, and a blocked read would not return for a signal delivered to another thread
POLL = 0.2
#: how often (seconds) a worker's watchdog looks whether its parent is still there
WATCH = 0.5

Work = Callable[[str, Any, Any], Any]


@dataclass(frozen=True)
class Part:
    """One independent piece of a step: ``arg`` (picklable) for ``work``; ``cost``: estimated
    seconds."""

    arg: Any
    cost: float


@dataclass(frozen=True)
class Step:
    """A named step: its ``parts``, what runs when they are all done (``finish(results)``, in the
    parts' order, in this process), and the steps it waits for (``needs``)."""

    name: str
    parts: Sequence[Part]
    finish: Callable[[list[Any]], None]
    needs: tuple[str, ...] = ()


@dataclass
class _Task:
    step: str
    index: int
    part: Part
    priority: float


@dataclass
class _Plan:
    """What is left: parts not started, results per step, steps finished."""

    steps: dict[str, Step]
    waiting: list[_Task]
    results: dict[str, list[Any]] = field(default_factory=dict)
    left: dict[str, int] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)

    def ready(self) -> list[_Task]:
        """Parts whose steps wait for nothing unfinished, highest priority first."""
        return [t for t in self.waiting if set(self.steps[t.step].needs) <= self.finished]

    def take(self) -> _Task | None:
        """The ready part with the highest priority, removed from the waiting list."""
        ready = self.ready()
        if not ready:
            return None
        task = max(ready, key=lambda t: t.priority)  # first of equals: the listed order
        self.waiting.remove(task)
        return task

    def record(self, task: _Task, result: Any) -> bool:
        """Keep one result; True when it was the step's last (the step is then finished)."""
        self.results[task.step][task.index] = result
        self.left[task.step] -= 1
        if self.left[task.step]:
            return False
        step = self.steps[task.step]
        step.finish(self.results.pop(task.step))
        self.finished.add(step.name)
        return True

    def finish_empty(self) -> bool:
        """Finish the ready steps that have no parts; True if any did."""
        empty = [
            s
            for s in self.steps.values()
            if s.name not in self.finished and not s.parts and set(s.needs) <= self.finished
        ]
        for step in empty:
            step.finish([])
            self.finished.add(step.name)
        return bool(empty)


def plan(steps: Sequence[Step]) -> _Plan:
    """Every part with its priority: its cost plus the longest chain of steps waiting on its step.

    A ``needs`` naming a step not in ``steps`` is a ValueError, as is a cycle.
    """
    by_name = {s.name: s for s in steps}
    for s in steps:
        unknown = [n for n in s.needs if n not in by_name]
        if unknown:
            raise ValueError(f"step {s.name} needs unknown step(s) {', '.join(unknown)}")
    waiters: dict[str, list[str]] = {s.name: [] for s in steps}
    for s in steps:
        for n in s.needs:
            waiters[n].append(s.name)
    tails: dict[str, float] = {}

    def tail(name: str, seen: tuple[str, ...] = ()) -> float:
        if name in seen:
            raise ValueError(f"steps wait for each other: {' -> '.join((*seen, name))}")
        if name not in tails:
            tails[name] = max(
                (_longest(by_name[w]) + tail(w, (*seen, name)) for w in waiters[name]), default=0.0
            )
        return tails[name]

    tasks = [
        _Task(s.name, i, p, p.cost + tail(s.name)) for s in steps for i, p in enumerate(s.parts)
    ]
    return _Plan(
        steps=by_name,
        waiting=tasks,
        results={s.name: [None] * len(s.parts) for s in steps},
        left={s.name: len(s.parts) for s in steps},
    )


def makespan(steps: Sequence[Step], workers: int) -> float:
    """Seconds :func:`run_steps` would take on ``workers`` idle CPUs if every part took its
    ``cost``: the same parts start in the same order, each on the first worker free.

    >>> makespan([Step("a", [Part(1, 3.0), Part(2, 1.0), Part(3, 1.0)], print)], 2)
    3.0
    """
    todo = plan(steps)
    free = [0.0] * max(workers, 1)  # when each worker is next free
    ends: list[tuple[float, str]] = []  # (end, step) of every part started
    left = dict(todo.left)
    done_at: dict[str, float] = {}
    while todo.waiting:
        clock = min(free)
        for name, step in todo.steps.items():  # a step without parts is done with its needs
            if not step.parts and name not in done_at and all(n in done_at for n in step.needs):
                done_at[name] = max((done_at[n] for n in step.needs), default=0.0)
        ready = [
            t
            for t in todo.waiting
            if all(done_at.get(n, inf) <= clock for n in todo.steps[t.step].needs)
        ]
        if not ready:  # wait for the next step to finish
            clock = min(e for e, _ in ends if e > clock)
            free = [max(f, clock) for f in free]
            continue
        task = max(ready, key=lambda t: t.priority)
        todo.waiting.remove(task)
        worker = free.index(min(free))
        end = free[worker] + task.part.cost
        free[worker] = end
        ends.append((end, task.step))
        left[task.step] -= 1
        if not left[task.step]:
            done_at[task.step] = max(e for e, s in ends if s == task.step)
    return max((e for e, _ in ends), default=0.0)


def _longest(step: Step) -> float:
    return max((p.cost for p in step.parts), default=0.0)


def run_steps(
    steps: Sequence[Step],
    work: Work,
    *,
    snapshot: Callable[[], Any],
    workers: int,
    on_progress: Callable[[list[str], int, int], None] | None = None,
) -> None:
    """Run every part of ``steps`` with ``work`` on ``workers`` processes (here when 1).

    ``work`` must be a module-level function (it is sent to the workers) and must not change the
    state it is given; ``finish`` changes it. ``on_progress(running steps, parts done, parts)`` is
    called whenever a part starts or ends. An exception raised by a part is raised here, after
    every worker stopped.
    """
    todo = plan(steps)
    total = len(todo.waiting)
    if workers <= 1:
        _run_here(todo, work, snapshot, total, on_progress)
    else:
        _run_workers(todo, work, snapshot, workers, total, on_progress)


def _run_here(
    todo: _Plan,
    work: Work,
    snapshot: Callable[[], Any],
    total: int,
    on_progress: Callable[[list[str], int, int], None] | None,
) -> None:
    done = 0
    while True:
        todo.finish_empty()
        task = todo.take()
        if task is None:
            break
        if on_progress:
            on_progress([task.step], done, total)
        result = work(task.step, task.part.arg, snapshot())
        done += 1
        todo.record(task, result)
        if on_progress:
            on_progress([], done, total)
    _check_all_finished(todo)


def _check_all_finished(todo: _Plan) -> None:
    stuck = [n for n in todo.steps if n not in todo.finished]
    if stuck:  # only a bug in plan() could leave one: every need names a step, no cycle
        raise RuntimeError(f"steps never became ready: {', '.join(stuck)}")


@dataclass
class _Worker:
    process: Any
    conn: Connection
    version: int = -1  # the state version it holds
    task: _Task | None = None


def _run_workers(
    todo: _Plan,
    work: Work,
    snapshot: Callable[[], Any],
    count: int,
    total: int,
    on_progress: Callable[[list[str], int, int], None] | None,
) -> None:
    mp = multiprocessing.get_context()
    pool: list[_Worker] = []
    version, done = 0, 0
    # the kernel's parent-death signal follows the thread that starts the worker: asked for only
    # when that thread is the main one (which lives as long as the process)
    parent = (os.getpid(), threading.current_thread() is threading.main_thread())
    try:
        for _ in range(min(count, total) or 1):
            mine, theirs = mp.Pipe()
            process = mp.Process(target=_serve, args=(theirs, work, parent), daemon=True)
            process.start()
            theirs.close()
            pool.append(_Worker(process, mine))
        while True:
            if todo.finish_empty():
                version += 1
            started = _start_idle(pool, todo, snapshot, version)
            busy = [w for w in pool if w.task is not None]
            if not busy:
                break
            if started and on_progress:
                on_progress(_running(pool), done, total)
            for worker in _answered(busy):
                task, result = _receive(worker)
                done += 1
                if todo.record(task, result):
                    version += 1
                if on_progress:
                    on_progress(_running(pool), done, total)
        _check_all_finished(todo)
    finally:
        for worker in pool:
            if worker.process.is_alive():
                worker.process.terminate()
            worker.process.join()
            worker.conn.close()


def _start_idle(
    pool: list[_Worker], todo: _Plan, snapshot: Callable[[], Any], version: int
) -> bool:
    """Give each idle worker the best ready part (and the state, if it holds an older one)."""
    started = False
    for worker in pool:
        if worker.task is not None:
            continue
        task = todo.take()
        if task is None:
            break
        state = (version, snapshot()) if worker.version != version else None
        worker.conn.send((task.step, task.part.arg, state))
        worker.version, worker.task, started = version, task, True
    return started


def _answered(busy: list[_Worker]) -> list[_Worker]:
    """The busy workers that answered, waiting in short slices (see :data:`POLL`)."""
    while True:
        ready = wait([w.conn for w in busy], timeout=POLL)
        if ready:
            return [w for w in busy if w.conn in ready]


def _receive(worker: _Worker) -> tuple[_Task, Any]:
    task = worker.task
    assert task is not None
    try:
        ok, value = worker.conn.recv()
    except EOFError:
        code = worker.process.exitcode
        raise RuntimeError(f"a worker died running {task.step} (exit {code})") from None
    if not ok:
        raise value
    worker.task = None
    return task, value


def _running(pool: list[_Worker]) -> list[str]:
    return sorted({w.task.step for w in pool if w.task is not None})


def _serve(conn: Connection, work: Work, parent: tuple[int, bool]) -> None:
    """A worker: run parts until the parent closes the pipe, terminates it or dies
    (``parent``: its pid, and whether its main thread started this worker)."""
    worker_init()
    _end_with_parent(*parent)
    state: Any = None
    while True:
        try:
            step, arg, new_state = conn.recv()
        except EOFError:
            return
        if new_state is not None:
            state = new_state[1]
        try:
            answer: tuple[bool, Any] = (True, work(step, arg, state))
        except Exception as exc:  # the parent raises it
            answer = (False, exc)
        try:
            conn.send(answer)
        except Exception as exc:  # an answer or an exception that does not pickle
            conn.send((False, RuntimeError(f"{step}: {type(exc).__name__}: {exc}")))


def _end_with_parent(parent: int, main_thread: bool) -> None:
    """End this process when the process ``parent`` dies, however it dies (SIGKILL too, which
    runs no clean-up in it): on Linux the kernel sends SIGKILL then (``PR_SET_PDEATHSIG``, when
    the parent's main thread forked this worker), and everywhere a daemon thread looks every
    :data:`WATCH` seconds and exits the process once the parent is gone."""
    forked = os.name == "posix" and os.getppid() == parent  # not through a fork server
    if forked and main_thread and sys.platform.startswith("linux"):
        _parent_death_signal()
    if _parent_gone(parent, forked):  # it died before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while not _parent_gone(parent, forked):
            time.sleep(WATCH)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _parent_death_signal() -> None:
    """Ask Linux for SIGKILL when the parent dies (nothing where libc or prctl is missing)."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _parent_gone(parent: int, forked: bool) -> bool:
    """Whether the process ``parent`` is gone: a forked orphan's parent becomes another process;
    otherwise (spawned, or from a fork server) the parent's sentinel says."""
    if forked:
        return os.getppid() != parent
    process = multiprocessing.parent_process()
    return process is not None and not process.is_alive()


__all__ = ["POLL", "Part", "Step", "makespan", "plan", "run_steps"]
