"""Interruptions: SIGINT / SIGTERM end a command with 130 / 143 and no result."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minttt import interrupt
from minttt.errors import InputError
from minttt.evolve.checkpoint import load_checkpoint
from minttt.evolve.runner import Interrupted, run
from minttt.evolve.situations import HochmuthConfig
from minttt.fileio import write_texts_atomic
from minttt.solvers.z3_drivers import _raise_if_stopped

ROOT = Path(__file__).resolve().parents[1]


def test_sigterm_in_an_evolve_run_writes_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    config = HochmuthConfig(population=20, generations=50, seed=3)

    def terminate(state) -> None:
        if state.generation == 3:
            raise interrupt.Terminated()

    with pytest.raises(Interrupted) as stop:
        run(config, checkpoint=path, every=1000, on_generation=terminate)
    assert stop.value.state.generation == 3
    assert load_checkpoint(path).generation == 3


def test_z3_unknown_before_its_time_limit_is_an_interruption() -> None:
    with interrupt.handlers() as signals:
        started = time.monotonic()
        _raise_if_stopped("timeout", started - 10, 10.0)  # a real timeout: no error
        _raise_if_stopped("sat.canceled", started - 10, 10.0)
        # the time limit's own Context.interrupt, after the limit (Z3 5.4 says "interrupted")
        _raise_if_stopped("interrupted", started - 0.0055, 0.0004)
        with pytest.raises(KeyboardInterrupt):
            _raise_if_stopped("interrupted from keyboard", started, 10.0)
        assert signals.exit_code() == 130
    with interrupt.handlers(), pytest.raises(KeyboardInterrupt):
        _raise_if_stopped("canceled", time.monotonic(), None)  # no limit: only Ctrl-C stops it


def test_a_signal_during_the_commit_is_ignored_and_all_files_are_written(tmp_path: Path) -> None:
    files = {tmp_path / f"{i}.txt": str(i) for i in range(5)}
    with interrupt.handlers() as signals:
        with interrupt.shielded():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)  # the handler runs here and must not raise
        write_texts_atomic(files, final=True)
        os.kill(os.getpid(), signal.SIGINT)  # after the final commit: the run has succeeded
        time.sleep(0.01)
        assert signals.exit_code() is None
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{i}.txt" for i in range(5)]


def test_an_unwritable_file_among_many_writes_none(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(InputError, match="folder"):
        write_texts_atomic({tmp_path / "a.txt": "a", tmp_path / "folder": "b"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_an_interrupted_write_removes_the_folders_it_made(tmp_path: Path) -> None:
    """The flake of solve --all --out: a Ctrl-C while the files were staged left the new --out
    folder behind (exit 130 with something written). Folders a failed write made go with it."""
    out = tmp_path / "new" / "out"
    files = {out / "a.txt": "a", out / "deep" / "b.txt": "b", out / "deep": "x"}
    with pytest.raises(InputError):  # the third file collides with the folder the second made
        write_texts_atomic(files)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "other.txt").write_text("theirs")
    with pytest.raises(InputError):
        write_texts_atomic({tmp_path / "kept" / "a.txt": "a", tmp_path / "kept": "b"})
    assert [p.name for p in (tmp_path / "kept").iterdir()] == ["other.txt"]  # not ours: stays


def test_sigterm_exits_143_without_a_traceback(tmp_path: Path) -> None:
    """A real process: SIGTERM during an evolve run ends it with 143 and a loadable checkpoint."""
    path = tmp_path / "c.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "minttt", "evolve", "--generations", "100000", "--json"]
        + ["--checkpoint", str(path), "--checkpoint-every", "1"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not path.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err.decode()
    assert b"Traceback" not in err
    assert load_checkpoint(path).generation >= 1
