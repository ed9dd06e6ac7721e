"""Raw tables (--symmetry none): the table format, proofs over the raw graph, raw firmware."""

from __future__ import annotations

import json
import os
import shutil
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.game.graph import build_graph
from minttt.game.rules import Board
from minttt.play.simavr import simavr_missing, simavr_player
from minttt.solvers import cross_check, make_table, solve
from minttt.solvers.no_symmetry import solve_raw
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
    assert json.loads(r.stdout)["symmetry"] == "none"
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


def _fake_drat_trim(tmp_path: Path, verdict: str) -> Path:
    """A stand-in drat-trim: checks that both files are there and prints ``verdict``."""
    script = tmp_path / "drat-trim"
    summary = "c 7 of 20 clauses in core\nc 3 of 11 lemmas in core using 40 resolution steps"
    script.write_text(
        f"#!/bin/sh\ntest -s \"$1\" && test -s \"$2\" && printf '%s\\n' '{summary}' 's {verdict}'\n"
    )
    script.chmod(0o755)
    return script


def test_a_call_rejected_by_drat_trim_or_its_lrat_check_is_not_confirmed(tmp_path) -> None:
    """``--drat-trim``: CaDiCaL really refutes the bound, the given binary judges the proof and
    minttt.lrat its LRAT output (the stand-in writes none: not confirmed either)."""
    script = _cross_check_script()
    name, k = "first-7-lookup-positions", 68  # X opens in cell 7 (raw): CaDiCaL takes 0.1 s
    rejected = script.run_call("drat", name, k, 120, _fake_drat_trim(tmp_path, "NOT VERIFIED"))
    assert not rejected["confirmed"] and "did not verify" in rejected["answer"]
    no_lrat = script.run_call("drat", name, k, 120, _fake_drat_trim(tmp_path, "VERIFIED"))
    assert not no_lrat["confirmed"] and "wrote no LRAT" in no_lrat["answer"]
    plain = script.run_call("drat", name, k, 120)  # no binary: minttt.drat checks it
    assert plain["confirmed"] and plain["checked_by"] == "minttt.drat"
    assert f"{name}.cnf.xz" in plain["files"] and plain["lemmas"] > 0


REAL_DRAT_TRIM = os.environ.get("MINTTT_DRAT_TRIM") or shutil.which("drat-trim")


@pytest.mark.skipif(
    REAL_DRAT_TRIM is None,
    reason="no drat-trim binary (set MINTTT_DRAT_TRIM or put drat-trim on PATH)",
)
def test_a_call_checked_by_real_drat_trim_and_minttt_lrat() -> None:
    script = _cross_check_script()
    record = script.run_call("drat", "first-7-lookup-positions", 68, 120, Path(REAL_DRAT_TRIM))
    assert record["confirmed"], record
    assert record["checked_by"] == (
        "drat-trim (backward); its LRAT by minttt check-proof --lrat (minttt.lrat)"
    )
    assert "LRAT valid" in record["check"]


def test_the_script_rejects_a_missing_drat_trim(tmp_path, capsys) -> None:
    script = _cross_check_script()
    assert script.main(["--drat-trim", str(tmp_path / "nope")]) == 2
    assert "no drat-trim binary" in capsys.readouterr().err


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

    from minttt.proof import drat
    from minttt.proof.cnf import cnf_text

    data = json.loads(CROSS.read_text("utf-8"))
    for name, record in _shipped():
        cnf = drat.read_bytes(RAW_PROOFS / f"{name}.cnf.xz")
        formula = encode(RAW, Variant.parse(name))
        assert cnf == cnf_text(formula, record["bound"] + 1).encode("ascii"), name
        proof = lzma.decompress((RAW_PROOFS / f"{name}.drat.xz").read_bytes())
        assert hashlib.sha256(proof).hexdigest() == record["proof_sha256"]
        assert drat.check(cnf, proof).valid, name
    assert data["versions"]["z3"]


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
@pytest.mark.skipif(not CROSS.is_file(), reason="scripts/raw_cross_check.py has not run")
def test_every_raw_cnf_whose_proof_is_not_shipped_is_the_claim() -> None:
    """The large proofs are regenerated from these CNFs (second_check.py): each is the claim."""
    from minttt.proof import drat
    from minttt.proof.cnf import cnf_text

    data = json.loads(CROSS.read_text("utf-8"))
    unshipped = [
        (key.split(":", 1)[1], r)
        for key, r in data["calls"].items()
        if key.startswith("drat:") and r["confirmed"] and not r["shipped"]
    ]
    assert len(unshipped) >= 4  # second and both-center, positions and entries
    for name, record in unshipped:
        cnf = drat.read_bytes(RAW_PROOFS / f"{name}.cnf.xz")
        formula = encode(RAW, Variant.parse(name))
        assert cnf == cnf_text(formula, record["bound"] + 1).encode("ascii"), name


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


def test_the_report_names_the_checkers_of_the_large_raw_proofs() -> None:
    from minttt.report.raw_cross import _drat_trim_note

    lrat = "drat-trim (backward); its LRAT by minttt check-proof --lrat (minttt.lrat)"
    calls = {
        "drat:a": {"confirmed": True, "checked_by": lrat},
        "drat:b": {"confirmed": True},  # checked by minttt.drat
        "drat:c": {"confirmed": False, "checked_by": "drat-trim (backward)"},
        "z3:a": {"confirmed": True},
    }
    assert _drat_trim_note({"calls": calls}) == (
        ", or by drat-trim and its LRAT output by `minttt.lrat` for a"
    )
    calls["drat:c"]["confirmed"] = True  # one without LRAT: the note must not claim it
    assert _drat_trim_note({"calls": calls}) == ", or by drat-trim for a, c"
    assert _drat_trim_note({"calls": {"drat:b": calls["drat:b"]}}) == ""
