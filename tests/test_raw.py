"""Raw tables (--symmetry none): the table format, proofs over the raw graph, raw firmware."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.formula.encode import Variant, encode
from minttt.game.graph import build_graph
from minttt.game.rules import Board
from minttt.play.simavr import simavr_missing, simavr_player
from minttt.solvers import cross_check, make_table, solve
from minttt.solvers.raw import solve_raw
from minttt.table.model import load_table, table_from_json
from minttt.table.verify import verify_player, verify_table

RAW = build_graph(symmetric=False)


@cache
def _raw_table(variant: Variant):
    solution = solve_raw(RAW, variant, check=True)
    return solution, make_table(RAW, solution)


def test_raw_corner_minimum_is_proven_by_both_families_and_verifies() -> None:
    solution, table = _raw_table(Variant("first", "corner", "lookup", "entries"))
    assert solution.optimal and solution.lower_bound == solution.size
    assert solution.cross_check["agree"]
    assert table.raw and table.opening == 0
    assert verify_table(table).ok
    # keyed by the raw board: every entry is looked up as it is, no transform
    for e in table.entries:
        assert table.move(Board.parse(e.board)) == e.move


@pytest.mark.slow
def test_raw_minimum_is_unsat_one_below() -> None:
    v = Variant("first", "edge", "lookup", "positions")
    formula = encode(RAW, v)
    best = solve(formula)
    assert best.optimal
    # the proof: a bound of size-1 is unsatisfiable
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver

    card = CardEnc.atmost(
        list(formula.objective),
        bound=best.size - 1,
        top_id=formula.num_vars,
        encoding=EncType.seqcounter,
    )
    with Solver(name="g4", bootstrap_with=[*map(list, formula.clauses), *card.clauses]) as s:
        assert s.solve() is False


def test_raw_table_file_round_trip_and_old_files_stay_full(tmp_path: Path) -> None:
    _, table = _raw_table(Variant("first", "corner", "lookup", "entries"))
    data = json.loads(table.to_json())
    assert data["symmetry"] == "none"
    assert table_from_json(table.to_json()) == table
    sym = json.loads(Path("results/tables/first-center-lookup-entries.json").read_text())
    assert "symmetry" not in sym
    assert table_from_json(json.dumps(sym)).symmetry == "full"
    # a raw key need not be canonical; the same key in a symmetric file is refused
    data.pop("symmetry")
    with pytest.raises(InputError, match="not canonical"):
        table_from_json(json.dumps(data))
    data["symmetry"] = "half"
    with pytest.raises(InputError, match="symmetry"):
        table_from_json(json.dumps(data))


def test_cli_solve_verify_export_raw(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t.json"
    args = ["solve", "--role", "first", "--opening", "corner", "--objective", "entries"]
    r = runner.invoke(app, [*args, "--symmetry", "none", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["symmetry"] == "none"
    assert load_table(out).raw
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0
    header = runner.invoke(app, ["export", str(out), "-f", "c"])
    assert "MINTTT_NSYM 1" in header.output
    bad = runner.invoke(app, [*args, "--symmetry", "half"])
    assert bad.exit_code == 2 and "symmetry" in bad.output
    count = runner.invoke(app, ["count", "--symmetry", "none", "--json"])
    assert json.loads(count.output)["positions"] == 5478


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("avr-gcc") is None or simavr_missing() is not None, reason="no avr toolchain"
)
@pytest.mark.parametrize("layout", ["bytes", "nibbles"])
def test_raw_firmware_has_no_transform_and_plays_perfectly(tmp_path: Path, layout: str) -> None:
    from minttt.table.firmware import build_firmware, firmware_source

    _, table = _raw_table(Variant("first", "corner", "lookup", "entries"))
    assert "sym[" not in firmware_source(table, layout)
    built = build_firmware(table, tmp_path / "raw.elf", layout=layout)
    chip = simavr_player(built.path)
    try:
        assert verify_player(chip, "X", "optimal").ok
    finally:
        chip.close()


@pytest.mark.slow
def test_raw_second_player_minimum_agrees_across_families() -> None:
    formula = encode(RAW, Variant("second", None, "lookup", "positions"))
    checked = cross_check(formula, solve(formula))
    assert checked.optimal and checked.cross_check["size"] == checked.size


# ------------------------------------------------------------- raw minima, a second way (long run)

ROOT = Path(__file__).resolve().parent.parent
CROSS = ROOT / "results" / "raw_cross_check.json"
RAW_PROOFS = ROOT / "results" / "proofs" / "raw"


def _cross_check_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "raw_cross_check", ROOT / "scripts" / "raw_cross_check.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _shipped() -> list[tuple[str, dict]]:
    data = json.loads(CROSS.read_text("utf-8"))
    return [(k.split(":", 1)[1], r) for k, r in data["calls"].items() if r.get("shipped")]


def test_any_opening_is_refuted_by_its_nine_cases() -> None:
    script = _cross_check_script()
    names = {0: "corner", 1: "edge", 4: "center"}
    expected = [f"first-{names.get(c, c)}-lookup-entries" for c in range(9)]
    assert script.cases("first-any-lookup-entries") == expected
    assert script.cases("second-lookup-entries") == ["second-lookup-entries"]


@pytest.mark.skipif(not CROSS.is_file(), reason="scripts/raw_cross_check.py has not run")
def test_the_cross_check_record_matches_the_minima_and_the_shipped_files() -> None:
    data = json.loads(CROSS.read_text("utf-8"))
    minima = {
        r["variant"]: r["size"]
        for r in json.loads((ROOT / "results" / "tables-raw.json").read_text())
    }
    assert {r["variant"]: r["minimum"] for r in data["variants"]} == minima
    for row in data["variants"]:  # a variant is confirmed only when each of its cases is
        for method in ("drat", "z3"):
            calls = [data["calls"].get(f"{method}:{c}") for c in row["cases"]]
            k = row["minimum"]
            assert row[method] == all(
                c is not None and c["confirmed"] and c["bound"] >= k - 1 for c in calls
            )
    for key, record in data["calls"].items():  # a checked proof: its CNF, and the proof if small
        method, name = key.split(":", 1)
        if method == "drat" and record["confirmed"]:
            assert (RAW_PROOFS / f"{name}.cnf.xz").is_file()
            assert (RAW_PROOFS / f"{name}.drat.xz").is_file() == record["shipped"]


@pytest.mark.slow
@pytest.mark.skipif(not CROSS.is_file(), reason="scripts/raw_cross_check.py has not run")
def test_every_shipped_raw_proof_checks_and_its_cnf_is_the_claim() -> None:
    import hashlib
    import lzma

    from minttt import drat
    from minttt.solvers.certify import cnf_text

    data = json.loads(CROSS.read_text("utf-8"))
    for name, record in _shipped():
        cnf = drat.read_bytes(RAW_PROOFS / f"{name}.cnf.xz")
        formula = encode(RAW, Variant.parse(name))
        assert cnf == cnf_text(formula, record["bound"] + 1).encode("ascii"), name
        proof = lzma.decompress((RAW_PROOFS / f"{name}.drat.xz").read_bytes())
        assert hashlib.sha256(proof).hexdigest() == record["proof_sha256"]
        assert drat.check(cnf, proof).valid, name
    assert data["versions"]["z3"]


def test_the_report_section_reads_the_long_run(tmp_path) -> None:
    from minttt.report.raw_cross import raw_cross_check_markdown
    from minttt.report.reproduce import LONG_RUN_INPUTS

    assert "raw_cross_check.json" in LONG_RUN_INPUTS  # carried into reproduce's staging folder
    assert "not found" in raw_cross_check_markdown(tmp_path / "none.json")[0]
    if CROSS.is_file():
        lines = raw_cross_check_markdown(CROSS)
        rows = [
            line for line in lines if line.startswith("| first-") or line.startswith("| second")
        ]
        assert len(rows) + sum(line.startswith("| both") for line in lines) == 12
