"""The linear-programming bounds (minttt.solvers.highs) against the certified 3x3 minima, and
``minttt scale --mip`` on a checkpoint. HiGHS really runs (scipy, the lp extra)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from minttt.formula.arrays import encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.solvers.arrays import array_table, moves_from_model
from minttt.solvers.highs import lp_bound, mip_bound
from minttt.table.verify import verify_table

pytest.importorskip("scipy", reason="the LP bounds need scipy (pip install 'minttt[lp]')")

ROOT = Path(__file__).resolve().parent.parent
MINIMA = {
    c["variant"]: c["minimum"]
    for c in json.loads((ROOT / "results/proofs/index.json").read_text("utf-8"))["certificates"]
    if "lookup-entries" in c["variant"] and not c["variant"].startswith("both")
}


QUICK = {  # 003's two tables in the quick loop; every other minimum (seconds of branch and bound
    # each) in the full run
    "first-center-lookup-entries",
    "second-lookup-entries",
}


@pytest.mark.parametrize(
    "name", [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in sorted(MINIMA)]
)
def test_mip_proves_each_certified_minimum_and_its_point_is_a_perfect_table(name):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    result = mip_bound(formula, 60)
    assert result is not None and result.optimal
    assert result.lower == result.upper == MINIMA[name]
    chosen = moves_from_model(graph, formula, result.point)
    table = array_table(graph, formula, chosen, {"variant": name, "source": "mip", "seed": 0})
    assert table.size == MINIMA[name] and verify_table(table).ok


@pytest.mark.parametrize("name", sorted(MINIMA))
def test_lp_relaxation_never_passes_a_certified_minimum(name):
    variant = Variant.parse(name)
    result = lp_bound(encode_arrays(build_array_graph(variant.rules), variant))
    assert result is not None and result.lp_value is not None
    assert 1 <= result.lower <= MINIMA[name]
    assert result.lower == int(np.ceil(result.lp_value - 1e-6))


def test_a_stopped_branch_and_bound_is_still_a_bound():
    variant = Variant.parse("second-lookup-entries@mnk:3,4,3")  # 189, proven by RC2
    result = mip_bound(encode_arrays(build_array_graph(variant.rules), variant), 3)
    assert result is not None and not result.optimal
    assert result.lower <= 189
    assert result.upper is None or result.upper >= 189


def test_highs_past_its_limit_is_stopped_and_claims_nothing(monkeypatch: pytest.MonkeyPatch):
    from stalling_worker import stalls  # tests/: its own module, light for the spawned process

    from minttt.solvers import highs

    monkeypatch.setattr(highs, "_highs_worker", stalls)
    monkeypatch.setattr(highs, "GRACE_SECONDS", 0.5)
    variant = Variant.parse("second-lookup-entries")
    formula = encode_arrays(build_array_graph(variant.rules), variant)
    mip = mip_bound(formula, 0.5)  # without the guard: 120 s, then "the HiGHS process died"
    assert mip is not None
    assert (mip.lower, mip.upper, mip.point, mip.optimal) == (0, None, None, False)
    assert "past its 0.5 s limit: stopped, no answer" in mip.status
    lp = lp_bound(formula, 0.5)
    assert lp is not None and (lp.lower, lp.lp_value) == (None, None)
    assert "stopped, no answer" in lp.status


def _scale(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "minttt", "scale", "--game", "3x3", "--role", "second"]
    return subprocess.run(
        [*cmd, "--checkpoint", str(tmp_path / "o.json"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_scale_mip_proves_3x3_o_and_keeps_its_verified_table(tmp_path: Path):
    out = _scale(tmp_path, "--mip", "60")
    assert out.returncode == 0, out.stderr
    state = json.loads((tmp_path / "o.json").read_text("utf-8"))
    assert state["lower"] == state["upper"] == 72 and state["optimal"]
    assert state["mip"]["optimal"] and "point" not in state["mip"]
    assert [h[3] for h in state["history"]][-3:] == [
        "mip table, verified",
        "mip dual bound",
        "proven",
    ]
    assert "72 entries, proven" in out.stdout
    from minttt.table.model import load_table

    assert verify_table(load_table(tmp_path / "o.table.json")).ok


@pytest.mark.parametrize(
    "args", [["--mip", "-1"], ["--mip", "inf"], ["--mip", "5", "--levels", "5"]]
)
def test_scale_mip_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str]):
    out = _scale(tmp_path, *args)
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert not (tmp_path / "o.json").exists()


@pytest.mark.slow
def test_ctrl_c_stops_the_branch_and_bound_at_once_and_writes_nothing(tmp_path: Path):
    """HiGHS runs in a child process: Ctrl-C does not wait for its time limit."""
    import signal

    cmd = [sys.executable, "-m", "minttt", "scale", "--game", "mnk:3,4,3", "--role", "second"]
    proc = subprocess.Popen(
        [*cmd, "--checkpoint", str(tmp_path / "o.json"), "--mip", "300"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    assert "graph and formula" in proc.stderr.readline()
    assert "branch and bound" in proc.stderr.readline()  # HiGHS has started
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)  # not the 300 s the run was given
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert not (tmp_path / "o.json").exists() and not (tmp_path / "o.table.json").exists()
