"""``minttt evolve``: JSON output, table and plot files, bad input as one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minttt.cli import app
from minttt.evolve.plot import plot_bytes
from minttt.evolve.runner import evolution_summary, run
from minttt.evolve.situations import HochmuthConfig
from minttt.table.model import load_table
from minttt.table.verify import verify_table

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["evolve", *args])


def test_imperfect_result_exits_1_and_writes_no_never_lose_table(tmp_path: Path) -> None:
    out, png = tmp_path / "t.json", tmp_path / "f.png"
    args = ("--population", "30", "--generations", "3", "--seed", "2", "--json")
    result = invoke(*args, "--restarts", "0", "--out", str(out), "--plot", str(png))
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    assert doc["perfect"] is False and doc["generations"] == 3 and doc["best_lost"] > 0
    assert [a["seed"] for a in doc["attempts"]] == [2]
    assert not out.exists()  # an imperfect best never goes out labelled never-lose
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_imperfect_message_says_what_ran_and_where_to_resume(tmp_path: Path) -> None:
    ckpt = tmp_path / "c.json"
    args = ("--population", "20", "--generations", "2", "--checkpoint", str(ckpt))
    result = invoke(*args, "--restarts", "1")
    assert result.exit_code == 1
    assert "not perfect after 2 attempt(s), 4 generations" in result.stderr  # 2 x --generations
    assert f"checkpoint {ckpt}" in result.stderr and "Traceback" not in result.stderr
    # the same command with a larger budget goes on with attempt 3 (seed 2000)
    again = invoke(*args, "--restarts", "2", "--json")
    assert again.exit_code == 1
    assert [a["seed"] for a in json.loads(again.stdout)["attempts"]] == [0, 1000, 2000]


def test_a_perfect_first_run_exits_0_and_its_table_verifies(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    result = invoke("--seed", "3", "--json", "--out", str(out))  # seed 3: perfect at gen 167
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["perfect"] is True and doc["best_lost"] == 0 and len(doc["attempts"]) == 1
    table = load_table(out)
    assert table.criterion == "never-lose" and table.size == doc["table"]["size"]
    assert verify_table(table).ok


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2, 4])
def test_default_evolve_restarts_until_perfect(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "t.json"
    result = invoke("--seed", str(seed), "--json", "--out", str(out))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["perfect"] is True and doc["attempts"][-1]["perfect"] is True
    assert all(not a["perfect"] for a in doc["attempts"][:-1])
    assert doc["seed"] == seed + 1000 * (len(doc["attempts"]) - 1)
    assert verify_table(load_table(out)).ok


def test_single_run_keeps_000s_protocol() -> None:
    result = invoke("--population", "20", "--generations", "2", "--single-run", "--json")
    assert result.exit_code == 1
    assert len(json.loads(result.stdout)["attempts"]) == 1


def test_plot_bytes_are_deterministic() -> None:
    state = run(HochmuthConfig(population=10, generations=3, seed=0))
    assert plot_bytes(state) == plot_bytes(state)


def test_cornell_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "c.png"
    result = invoke(
        "--recipe",
        "cornell",
        "--population",
        "4",
        "--generations",
        "2",
        "--json",
        "--plot",
        str(png),
    )
    assert result.exit_code == 1, result.output  # 002's organisms never become perfect
    doc = json.loads(result.stdout)
    assert doc["recipe"] == "cornell" and doc["perfect"] is False and 0 <= doc["fitness"] <= 1
    assert png.exists()


def test_resume_through_the_cli(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ("--population", "20", "--seed", "4", "--json", "--single-run")
    assert invoke(*args, "--generations", "6", "--checkpoint", str(a)).exit_code == 1
    assert invoke(*args, "--generations", "2", "--checkpoint", str(b)).exit_code == 1
    final = invoke(*args, "--generations", "6", "--checkpoint", str(b))
    assert final.exit_code == 1
    strip = lambda p: {k: v for k, v in json.loads(p.read_text()).items() if k != "seconds"}  # noqa: E731
    assert strip(a) == strip(b)


@pytest.mark.parametrize(
    "args, message",
    [
        (("--population", "1"), "population must be 2-100,000"),
        (("--population", "-5"), "population must be 2-100,000"),
        (("--p-mutate", "-0.1"), "p-mutate must be a probability"),
        (("--p-crossover", "-1"), "p-crossover must be a probability"),
        (("--p-replicate", "1.5"), "p-replicate must be a probability"),
        (("--recipe", "cornell", "--p-mutate", "-0.01"), "p-mutate must be a probability"),
        (("--recipe", "nope"), "unknown recipe"),
        (("--fitness", "wins"), "unknown fitness"),
        (("--genes", "700"), "--genes must be 627 or 827"),
        (("--generations", "-1"), "generations must be 0-10,000,000"),
        (("--recipe", "cornell", "--genes", "827"), "hochmuth recipe only"),
        (("--recipe", "cornell", "--out", "x.json"), "cornell organisms are raw"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]


def test_bad_checkpoints_exit_2(tmp_path: Path) -> None:
    garbage = tmp_path / "g.json"
    garbage.write_bytes(b"\x00\xff not json")
    result = invoke("--checkpoint", str(garbage))
    assert result.exit_code == 2 and "not a readable evolve checkpoint" in result.stderr
    other = tmp_path / "c.json"
    assert (
        invoke(
            "--recipe",
            "cornell",
            "--population",
            "3",
            "--generations",
            "0",
            "--checkpoint",
            str(other),
        ).exit_code
        == 1  # cornell never becomes perfect: exit 1, its checkpoint written
    )
    result = invoke("--population", "3", "--checkpoint", str(other))
    assert result.exit_code == 2 and "recipe 'cornell'" in result.stderr
    doc = json.loads(other.read_text())
    doc["version"] = 99
    other.write_text(json.dumps(doc))
    result = invoke("--recipe", "cornell", "--population", "3", "--checkpoint", str(other))
    assert result.exit_code == 2 and "version 99" in result.stderr


def test_schema_invalid_checkpoint_exits_2_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    args = ("--population", "3", "--generations", "0", "--restarts", "0", "--checkpoint", str(path))
    invoke(*args)
    doc = json.loads(path.read_text())
    doc["rng_state"]["state"] = "tampered"
    path.write_text(json.dumps(doc))
    result = invoke(*args)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.stderr
    assert "has a missing or bad field: rng_state.state: 'tampered'" in lines[0]


@settings(max_examples=25, deadline=None)
@given(p=st.floats(max_value=-1e-9, allow_nan=False) | st.floats(min_value=1.0000001))
def test_fuzz_probabilities_outside_0_1(p: float) -> None:
    result = invoke("--p-mutate", repr(p), "--generations", "0", "--population", "2")
    assert result.exit_code == 2 and result.stderr.startswith("error:")


def test_evolution_summary_shape() -> None:
    doc = evolution_summary(seeds=(1,), population=20, generations=2)
    assert doc["runs"][0]["seed"] == 1 and doc["success_rate"] == 0.0
    assert doc["proven_minimum"] is None and doc == evolution_summary((1,), 20, 2)
