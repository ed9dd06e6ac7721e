"""The work queue of ``minttt reproduce`` (minttt.report.queue) and the driver that uses it.

The queue's parts run on real worker processes here: results come back in the parts' order,
a step's parts wait for the steps it needs (and see what their finish left in the state), the
longest chain starts first, and an error, a dead worker or Ctrl-C leaves no worker behind. The
driver writes the same bytes, figures in the same order, on one worker or two; given only an
output folder it writes nothing outside it, and it finds the long runs' results it reads.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest

from minttt.report.long_runs import carry_long_runs, long_run_files
from minttt.report.queue import Part, Step, makespan, plan, run_steps
from minttt.report.reproduce import STEPS, chosen_steps, default_encodings, reproduce


def _work(step: str, arg: Any, state: Any) -> Any:
    """The tests' parts: ``(step, arg, what the state held)``; some args misbehave."""
    if arg == "boom":
        raise ValueError("part failed")
    if arg == "die":
        os._exit(3)
    if arg == "slow":
        time.sleep(30)
    return step, arg, dict(state)


def _steps(log: list[tuple[str, list[Any]]], state: dict[str, Any]) -> list[Step]:
    def finish(name: str):
        def done(results: list[Any]) -> None:
            log.append((name, results))
            state[name] = len(results)

        return done

    return [
        Step("a", [Part(i, 0.1) for i in range(5)], finish("a")),
        Step("b", [Part("x", 0.1), Part("y", 0.1)], finish("b"), needs=("a",)),
        Step("c", [Part("z", 0.1)], finish("c")),
        Step("d", [], finish("d"), needs=("b", "c")),
    ]


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_in_order_after_what_they_need(workers: int) -> None:
    log: list[tuple[str, list[Any]]] = []
    state: dict[str, Any] = {}
    run_steps(_steps(log, state), _work, snapshot=lambda: state, workers=workers)
    finished = [name for name, _ in log]
    assert sorted(finished) == ["a", "b", "c", "d"]
    assert finished.index("a") < finished.index("b") < finished.index("d")
    assert finished.index("c") < finished.index("d")
    results = dict(log)
    assert [arg for _, arg, _ in results["a"]] == [0, 1, 2, 3, 4]
    assert [arg for _, arg, _ in results["b"]] == ["x", "y"]
    for _, _, seen in results["b"]:  # b's parts ran after a's finish changed the state
        assert seen["a"] == 5
    assert results["d"] == []


def test_the_longest_chain_starts_first() -> None:
    steps = [
        Step("short", [Part("s", 5.0)], lambda r: None),
        Step("first", [Part("f", 1.0)], lambda r: None),
        Step("then", [Part("t", 9.0)], lambda r: None, needs=("first",)),
    ]
    todo = plan(steps)
    assert [t.priority for t in todo.waiting] == [5.0, 10.0, 9.0]
    started: list[str] = []

    def work(step: str, arg: str, state: Any) -> None:
        started.append(arg)

    run_steps(steps, work, snapshot=lambda: None, workers=1)
    assert started == ["f", "t", "s"]


def test_plan_refuses_unknown_steps_and_cycles() -> None:
    with pytest.raises(ValueError, match="unknown step"):
        plan([Step("a", [], lambda r: None, needs=("nope",))])
    with pytest.raises(ValueError, match="wait for each other"):
        plan(
            [
                Step("a", [Part(1, 1.0)], lambda r: None, needs=("b",)),
                Step("b", [Part(1, 1.0)], lambda r: None, needs=("a",)),
            ]
        )


@pytest.mark.parametrize(
    ("arg", "error", "match"),
    [("boom", ValueError, "part failed"), ("die", RuntimeError, "worker died")],
)
def test_a_failing_part_stops_the_run_and_every_worker(
    arg: str, error: type[Exception], match: str
) -> None:
    steps = [Step("a", [Part(arg, 1.0), Part("slow", 0.5)], lambda r: None)]
    started = time.monotonic()
    with pytest.raises(error, match=match):
        run_steps(steps, _work, snapshot=lambda: {}, workers=2)
    assert time.monotonic() - started < 20  # the slow part was not waited for
    assert not multiprocessing.active_children()


def test_ctrl_c_leaves_no_worker_running() -> None:
    def progress(running: list[str], done: int, total: int) -> None:
        raise KeyboardInterrupt

    steps = [Step("a", [Part("slow", 1.0), Part("slow", 1.0)], lambda r: None)]
    with pytest.raises(KeyboardInterrupt):
        run_steps(steps, _work, snapshot=lambda: {}, workers=2, on_progress=progress)
    assert not multiprocessing.active_children()


def test_chosen_steps_pull_in_what_they_need() -> None:
    assert chosen_steps(["raw", "counts"]) == ["counts", "tables", "raw"]
    assert chosen_steps(["search"]) == ["search"]  # needs nothing: tables are not rebuilt
    assert chosen_steps(None) == [name for name, _ in STEPS]


def _fake_states(path: Path) -> dict[str, Any]:
    """001's plot stand-in: the driver is under test here, not the search (test_search.py)."""
    time.sleep(0.5)  # finishes after counts although it starts first (its part costs more)
    path.write_bytes(b"png")
    return {"moves": [1, 2]}


def test_one_worker_or_two_write_the_same_bytes_in_step_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("minttt.report.steps.plot_states_per_move", _fake_states)
    outputs = []
    for workers in (1, 2):
        out, enc = tmp_path / f"r{workers}", tmp_path / f"e{workers}"
        seen: list[tuple[str, int, int]] = []
        figures = reproduce(
            out, enc, steps=["search", "counts"], workers=workers, on_step=_recorder(seen)
        )
        assert list(figures) == ["counts", "search"]  # summary.json follows STEPS, not timing
        assert seen and seen[-1][1:] == (2, 2)
        summary = json.loads((out / "summary.json").read_text("utf-8"))
        assert list(summary) == ["counts", "search"] and summary["search"] == {"moves": [1, 2]}
        outputs.append({p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()})
    assert outputs[0] == outputs[1]
    assert {str(p) for p in outputs[0]} == {
        "counts.json",
        "states_per_move.png",
        "summary.json",
        "REPORT.md",
    }


def _recorder(seen: list[tuple[str, int, int]]) -> Any:
    return lambda *args: seen.append(args)


def test_out_alone_keeps_every_file_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, out = tmp_path / "elsewhere", tmp_path / "mine"
    here.mkdir()
    monkeypatch.chdir(here)
    reproduce(out, steps=["counts"], workers=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "mine"]
    assert not any(here.iterdir())
    assert sorted(p.name for p in out.iterdir()) == ["REPORT.md", "counts.json", "summary.json"]
    assert default_encodings(out) == out / "encodings"
    assert default_encodings(Path("results")) == Path("encodings")  # a checkout's layout


def test_long_runs_come_from_the_out_folder_else_from_what_the_package_carries(
    tmp_path: Path,
) -> None:
    checkout = Path(__file__).resolve().parent.parent / "results"
    shipped = long_run_files(checkout)
    assert {str(p) for p in shipped} >= {"games_study.json", "raw_cross_check.json"}
    assert carry_long_runs(tmp_path / "empty", tmp_path / "a") == shipped
    for rel in shipped:
        assert (tmp_path / "a" / rel).read_bytes() == (checkout / rel).read_bytes()
    mine = tmp_path / "mine"
    (mine / "games_study.json").parent.mkdir(parents=True)
    (mine / "games_study.json").write_text("{}", "utf-8")
    assert carry_long_runs(mine, tmp_path / "b") == [Path("games_study.json")]
    assert (tmp_path / "b" / "games_study.json").read_text("utf-8") == "{}"


def test_makespan_follows_the_queue_on_idle_workers() -> None:
    steps = [
        Step("short", [Part("s", 5.0)], lambda r: None),
        Step("first", [Part("f", 1.0)], lambda r: None),
        Step("gate", [], lambda r: None, needs=("first",)),
        Step("then", [Part("t", 9.0)], lambda r: None, needs=("gate",)),
    ]
    assert makespan(steps, 1) == 15.0
    assert makespan(steps, 2) == 10.0  # f then t on one worker, s beside them
    assert makespan(steps, 3) == 10.0  # t waits for f whatever the workers


def test_the_sdist_carries_every_long_run_the_wheel_ships() -> None:
    """``python -m build`` builds the wheel from the sdist: MANIFEST.in must take in every long
    run's file that setup.py copies into the wheel, or the wheel's REPORT.md loses sections."""
    from minttt.report.long_runs import LONG_RUN_INPUTS

    root = Path(__file__).resolve().parent.parent
    included = {
        word
        for line in (root / "MANIFEST.in").read_text("utf-8").splitlines()
        if line.startswith("include ")
        for word in line.split()[1:]
    }
    missing = [p for p in LONG_RUN_INPUTS if f"results/{p}" not in included]
    assert not missing, f"MANIFEST.in leaves out {missing}"
