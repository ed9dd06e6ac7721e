"""The LRAT checker (minttt.lrat) on hand-made proofs, their corruptions, and drat-trim's output
on a shipped certificate when a drat-trim binary is at hand."""

from __future__ import annotations

import gzip
import lzma
import os
import shutil
import stat
from pathlib import Path

import pytest
from proof_helpers import PHP32, PHP32_PROOF, random_drat_cases
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import DefectError
from minttt.proof import drat, lrat
from minttt.proof.drat_trim import drat_trim_check

runner = CliRunner()

#: mutants of minttt/proof/lrat.py no test can tell from it (scripts/mutation.py), and why
EQUIVALENT_MUTANTS = {
    "rup = hints if not hints or min(hints) > 0 else hints[: _first_negative(hints)]  # 0 -> -1": (
        "no hint is 0 (refused when read): > -1 is > 0"
    ),
    "rup = hints if not hints or min(hints) > 0 else hints[: _first_negative(hints)]  # 0 -> 1": (
        "both branches give the hints up to the first negative one: the first is a shortcut"
    ),
    "rup = hints if not hints or min(hints) > 0 else hints[: _first_negative(hints)]  "
    "# min(hints) > 0 -> min(hints) >= 0": "no hint is 0 (refused when read)",
    "if not ids or ids[-1] != 0 or 0 in ids[:-1] or min(ids[:-1], default=1) < 0:  # 1 -> 2": (
        "the default of an empty list of ids (a line deleting nothing): 1 and 2 are both >= 0 "
        "(the other 1 -> 2 of the line, ids[-2], a test kills)"
    ),
    "if h < 0:  # 0 -> 1": "no hint is 0 (refused when read): < 1 is < 0",
    "zero = nums.index(0, 1)  # 1 -> 0": "nums[0] is the id, checked positive just before",
    "if TYPE_CHECKING:  # annotations only: the checker starts in a few milliseconds (no "
    "pathlib)  # TYPE_CHECKING -> not (TYPE_CHECKING)": "pathlib imported at run time: slower "
    "to start, the same verdicts",
    # the fast RUP pass (_rup) made to give up where it would succeed: _Checker.implied then
    # judges the lemma alone, with the same verdict, message and hints used
    "return 0  # return 0 -> pass": "None is false as 0 is: the pass gives up as before",
    "count += 1  # 1 -> 0": "the pass then returns 0 at the conflict: it gives up",
    "unit = 0  # 0 -> 1": "no hint is then ever the conflict: the pass gives up",
    "unit = 0  # 0 -> -1": "no hint is then ever the conflict: the pass gives up",
    "return count  # every literal false: the conflict  # return count -> pass": "no hint is "
    "then ever the conflict: the pass gives up",
    "if not false.isdisjoint([-x for x in lits]):  # -x -> x": "every lemma but the empty "
    "clause then looks a tautology: the pass gives up on it",
    "if unit or -x in false:  # unit or -x in false -> not (unit or -x in false)": "the pass "
    "then gives up at the first literal not false (and not true)",
    "if unit or -x in false:  # -x in false -> -x not in false": "the pass then gives up at "
    "the first literal unassigned",
    "return _fail(result, Step(0, lits, number), cid, why)  # 0 -> 1": "the kind of a failed "
    "LRAT lemma is never read (its literals and line are)",
    "return _fail(result, Step(0, lits, number), cid, why)  # 0 -> -1": "the kind of a failed "
    "LRAT lemma is never read (its literals and line are)",
}

# -1: (-1 -3) and (-1 -5) make 3 and 5 false, (3 4) and (5 6) make 4 and 6 true: (-4 -6) fails.
PHP32_LRAT = b"""10 -1 0 4 5 2 3 9 0
11 -3 0 4 6 1 3 8 0
11 d 4 5 0
12 0 10 11 1 2 7 0
"""
# RAT: 1 is not RUP-implied by its hint 2 alone; the one clause with -1 (clause 1) gives the
# resolvent (4 2), refuted by the group -1: clause 4 makes 5 false, clause 3 (4 5) then fails.
RAT_CNF = b"p cnf 5 4\n-1 2 0\n-2 4 0\n4 5 0\n-5 2 0\n"


def _lines(proof: bytes) -> list[bytes]:
    return proof.splitlines(keepends=True)


def test_pigeonhole_lrat_is_valid_and_uses_the_formula():
    r = lrat.check(PHP32, PHP32_LRAT)
    assert r.valid, r.message
    assert (r.lemmas, r.deletions, r.rat_lemmas) == (3, 2, 0)
    assert r.core_clauses == 9  # every clause of the pigeonhole formula is needed


@pytest.mark.parametrize(
    "proof, why",
    [
        (PHP32_LRAT.replace(b"10 -1 0", b"10 1 0"), "lemma 1 (id 10, line 1): hint 4 is satisfied"),
        (PHP32_LRAT.replace(b"4 5 2 3 9 0", b"4 5 2 3 0"), "lemma 1 (id 10"),  # a dropped hint
        (PHP32_LRAT.replace(b"12 0 10 11 1 2 7 0\n", b""), "never adds the empty clause"),
        (PHP32_LRAT.replace(b" 4 6 1 3 8", b" 8 4 6 1 3"), "lemma 2 (id 11"),  # out of order
        (PHP32_LRAT.replace(b"11 d 4 5 0", b"11 d 4 7 0"), "hint 7 is not a live clause"),
        (PHP32_LRAT.replace(b"11 -3", b"10 -3"), "not above the previous id 10"),
        (PHP32_LRAT.replace(b"12 0 10 11 1 2 7 0", b"12 0 10 11 1 2 99 0"), "not a live clause"),
    ],
    ids=["flipped", "dropped-hint", "no-empty", "order", "deleted-hint", "id", "unknown-id"],
)
def test_a_corrupted_lrat_proof_is_invalid_and_names_the_lemma(proof: bytes, why: str):
    r = lrat.check(PHP32, proof)
    assert not r.valid and why in r.message, r.message


def test_removing_a_formula_clause_breaks_the_proof():
    cnf = PHP32.replace(b"p cnf 6 9", b"p cnf 6 8").replace(b"-4 -6 0\n", b"")
    r = lrat.check(cnf, PHP32_LRAT)  # ids shift: the hints no longer fit
    assert not r.valid and "lemma 1 " in r.message


def test_rat_lemma_with_its_group():
    proof = b"5 1 4 0 2 -1 4 3 0\n"
    r = lrat.check_lines(drat.parse_cnf(RAT_CNF)[1], [proof])
    assert r.rat_lemmas == 1 and "never adds the empty clause" in r.message
    r = lrat.check(RAT_CNF, b"5 1 4 0 2 -1 4 0\n")  # the group stops short of a conflict
    assert "RAT on 1, clause 1: the hints end without a conflict" in r.message
    r = lrat.check(RAT_CNF, b"5 1 4 0 2 0\n")  # no group for clause 1
    assert "and it is not RAT (RAT on 1: no hints for clause 1)" in r.message
    # x1 <-> x2 & x3 (extended resolution): both resolvents on 1 are tautologies, so RAT holds
    r = lrat.check(b"p cnf 3 2\n-1 2 0\n-1 3 0\n", b"3 1 -2 -3 0 0\n")
    assert r.rat_lemmas == 1 and not r.failed


def test_a_tautology_needs_no_hints():
    r = lrat.check_lines(drat.parse_cnf(PHP32)[1], [b"10 1 -1 0 0\n"])
    assert r.lemmas == 1 and r.message == "the proof never adds the empty clause"


@pytest.mark.parametrize(
    "proof", [b"10 -1 0 4 5\n", b"x 0\n", b"10 -1 4 5 2 3 9\n", b"11 d 4 x 0\n", b"11 d\n"]
)
def test_a_malformed_line_is_a_bad_file(proof: bytes):
    with pytest.raises(drat.ProofFormatError, match="LRAT line 1"):
        lrat.check(PHP32, proof)


@pytest.mark.parametrize(
    "pack", [lambda b: b, lzma.compress, gzip.compress], ids=["txt", "xz", "gz"]
)
def test_the_cli_reads_lrat_plain_or_compressed(tmp_path: Path, pack):
    (tmp_path / "f.cnf").write_bytes(PHP32)
    (tmp_path / "p.lrat").write_bytes(pack(PHP32_LRAT))
    r = runner.invoke(app, ["check-proof", str(tmp_path / "f.cnf"), str(tmp_path / "p.lrat")])
    assert r.exit_code == 0 and "valid: 3 lemmas checked" in r.output, r.output
    (tmp_path / "bad").write_bytes(pack(PHP32_LRAT.replace(b"4 5 2 3 9 0", b"4 5 2 3 0")))
    r = runner.invoke(
        app, ["check-proof", "--lrat", str(tmp_path / "f.cnf"), str(tmp_path / "bad")]
    )
    assert r.exit_code == 1 and "lemma 1 (id 10" in r.output
    (tmp_path / "broken.lrat").write_bytes(b"\xfd7zXZ\x00garbage")
    r = runner.invoke(app, ["check-proof", str(tmp_path / "f.cnf"), str(tmp_path / "broken.lrat")])
    assert r.exit_code == 2 and "Traceback" not in r.output


# ------------------------------------------------------------------ drat-trim's LRAT, checked


def _fake_drat_trim(tmp_path: Path, lrat_text: bytes | None) -> Path:
    """A stand-in drat-trim that says VERIFIED and writes ``lrat_text`` where -L asks."""
    (tmp_path / "canned.lrat").write_bytes(lrat_text or b"")
    copy = f'cp {tmp_path / "canned.lrat"} "$6"' if lrat_text is not None else "true"
    script = tmp_path / "drat-trim"
    script.write_text(
        "#!/bin/sh\n"
        "printf 'c 9 of 9 clauses in core\\nc 3 of 3 lemmas in core using 9 resolution steps\\n'\n"
        f'test "$5" = -L && {copy}\necho "s VERIFIED"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def test_drat_trim_lrat_output_is_checked_by_minttt(tmp_path: Path):
    verdict = drat_trim_check(_fake_drat_trim(tmp_path, PHP32_LRAT), PHP32, b"0\n", 60, lrat=True)
    assert verdict["lrat_lemmas"] == 3 and verdict["lrat_checker"].startswith("minttt")
    bad = PHP32_LRAT.replace(b"2 7 0", b"2 0")
    with pytest.raises(DefectError, match="fails minttt's check"):
        drat_trim_check(_fake_drat_trim(tmp_path, bad), PHP32, b"0\n", 60, lrat=True)
    with pytest.raises(DefectError, match="wrote no LRAT"):
        drat_trim_check(_fake_drat_trim(tmp_path, None), PHP32, b"0\n", 60, lrat=True)


REAL_DRAT_TRIM = os.environ.get("MINTTT_DRAT_TRIM") or shutil.which("drat-trim")


@pytest.mark.skipif(
    REAL_DRAT_TRIM is None,
    reason="no drat-trim binary (set MINTTT_DRAT_TRIM or put drat-trim on PATH): the real "
    "drat-trim -> minttt.lrat chain is not run; the fake one above is",
)
def test_a_shipped_certificate_through_real_drat_trim_and_minttt_lrat():
    proofs = Path(__file__).resolve().parent.parent / "results" / "proofs"
    cnf = drat.read_bytes(proofs / "first-center-lookup-positions.cnf.xz")
    proof = drat.read_bytes(proofs / "first-center-lookup-positions.drat.xz")
    verdict = drat_trim_check(Path(str(REAL_DRAT_TRIM)), cnf, proof, 600, lrat=True)
    assert verdict["verified"] and 0 < verdict["lrat_lemmas"] <= verdict["lemmas"]


@pytest.mark.skipif(
    REAL_DRAT_TRIM is None,
    reason="no drat-trim binary (set MINTTT_DRAT_TRIM or put drat-trim on PATH)",
)
def test_certify_with_drat_trim_records_both_checks(tmp_path: Path):
    import json

    args = ["certify", "first-center-lookup-positions", "--out", str(tmp_path)]
    r = runner.invoke(app, [*args, "--drat-trim", str(REAL_DRAT_TRIM)])
    assert r.exit_code == 0, r.output
    (record,) = json.loads((tmp_path / "index.json").read_text("utf-8"))["certificates"]
    assert record["checked_by"] == (
        "drat-trim (backward); its LRAT by minttt check-proof --lrat (minttt.lrat)"
    )
    assert record["lrat_seconds"] >= 0


# ------------------------------------------------------------------ LRAT written by minttt.drat

PROOFS = Path(__file__).resolve().parent.parent / "results" / "proofs"
# test_drat's RAT case: UNSAT, and 4 is RAT on 4 but not RUP (minttt.drat writes no LRAT for it)
DRAT_RAT_CNF = (
    b"p cnf 4 8\n1 -2 0\n-2 -1 0\n1 2 0\n-4 -2 0\n3 4 2 0\n-1 2 0\n3 2 -1 0\n-1 -2 -4 0\n"
)
DRAT_RAT_PROOF = b"4 0\n0\n"


def test_the_drat_checker_writes_lrat_that_minttt_lrat_accepts():
    result = drat.check(PHP32, PHP32_PROOF, lrat=True)
    assert result.valid and result.lrat is not None
    checked = lrat.check(PHP32, result.lrat)
    assert checked.valid, checked.message
    assert checked.lemmas == result.core_lemmas + 1  # the needed lemmas, then the empty clause
    assert drat.check(PHP32, PHP32_PROOF).lrat is None  # only when asked for


def test_lrat_from_random_accepted_drat_proofs_always_checks():
    """3,000 random formulas with random DRAT proofs (as in test_drat's soundness test): every
    proof minttt.drat accepts yields LRAT that minttt.lrat accepts, hints for top-level units,
    lemma literals already true or false at top level and honoured deletions included."""
    written = 0
    for cnf, _, proof in random_drat_cases(20261124, 3000):
        r = drat.check(cnf, proof, lrat=True)
        if r.valid and r.lrat is not None:
            written += 1
            checked = lrat.check(cnf, r.lrat)
            assert checked.valid, (cnf, proof, r.lrat, checked.message)
    assert written > 100


def _shipped_3x3() -> list:
    import json

    index = json.loads((PROOFS / "index.json").read_text("utf-8"))["certificates"]
    return [
        pytest.param(
            r,
            id=r["variant"],
            # up to 30 KB in the quick loop (7 proofs); the rest in the full run (-m slow too)
            marks=() if r["proof_bytes_uncompressed"] < 30_000 else pytest.mark.slow,
        )
        for r in index
    ]


@pytest.mark.parametrize("record", _shipped_3x3())
def test_every_shipped_certificate_turns_into_checked_lrat(record: dict):
    result = drat.check_files(PROOFS / record["cnf"], PROOFS / record["proof"], lrat=True)
    assert result.valid and result.lrat is not None
    checked = lrat.check(drat.read_bytes(PROOFS / record["cnf"]), result.lrat)
    assert checked.valid, checked.message
    assert checked.lemmas == result.core_lemmas + 1


def test_a_corrupted_hint_in_written_lrat_is_caught():
    result = drat.check(PHP32, PHP32_PROOF, lrat=True)
    assert result.lrat is not None
    lines = result.lrat.splitlines()
    head, hints = lines[0].split(b" 0 ", 1)
    dropped = hints.split()[1:]  # drop the first hint of the first lemma
    broken = b"\n".join([head + b" 0 " + b" ".join(dropped), *lines[1:]]) + b"\n"
    assert not lrat.check(PHP32, broken).valid


def test_check_proof_writes_lrat_for_any_checker(tmp_path: Path):
    cnf, proof = tmp_path / "php.cnf", tmp_path / "php.drat"
    cnf.write_bytes(PHP32)
    proof.write_bytes(PHP32_PROOF)
    out = tmp_path / "php.lrat.xz"
    r = runner.invoke(app, ["check-proof", str(cnf), str(proof), "--lrat-out", str(out)])
    assert r.exit_code == 0 and "wrote the LRAT refutation" in r.output
    assert lrat.check(PHP32, lzma.decompress(out.read_bytes())).valid
    r = runner.invoke(app, ["check-proof", str(cnf), str(out)])  # .lrat in the name: LRAT
    assert r.exit_code == 0 and "lemmas checked" in r.output
    r = runner.invoke(
        app,
        ["check-proof", str(cnf), str(proof), "--lrat-out", str(tmp_path / "p.lrat.gz"), "--json"],
    )
    assert r.exit_code == 0 and '"lrat_out"' in r.output
    assert lrat.check(PHP32, gzip.decompress((tmp_path / "p.lrat.gz").read_bytes())).valid


@pytest.mark.parametrize(
    "args, why",
    [
        (["{proof}", "--lrat-out", "{tmp}"], "is a folder"),
        (["{proof}", "--lrat-out", "{proof}"], "is an input"),
        (["{lrat}", "--lrat-out", "{tmp}/x.lrat"], "LRAT already"),
        (["{rat}", "--lrat-out", "{tmp}/r.lrat"], "needs RAT"),
    ],
)
def test_check_proof_lrat_out_refuses_in_one_line(tmp_path: Path, args: list[str], why: str):
    cnf = tmp_path / "php.cnf"
    cnf.write_bytes(PHP32)
    (tmp_path / "php.drat").write_bytes(PHP32_PROOF)
    (tmp_path / "php.lrat").write_bytes(drat.check(PHP32, PHP32_PROOF, lrat=True).lrat or b"")
    names = {
        "proof": str(tmp_path / "php.drat"),
        "lrat": str(tmp_path / "php.lrat"),
        "tmp": str(tmp_path),
        "rat": str(tmp_path / "rat.drat"),
    }
    rat_cnf = tmp_path / "rat.cnf"
    rat_cnf.write_bytes(DRAT_RAT_CNF)
    (tmp_path / "rat.drat").write_bytes(DRAT_RAT_PROOF)
    target = rat_cnf if "{rat}" in args else cnf
    before = sorted(p.name for p in tmp_path.iterdir())
    r = runner.invoke(app, ["check-proof", str(target), *[a.format(**names) for a in args]])
    assert r.exit_code == 2 and why in r.output, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_long_checks_report_progress(tmp_path: Path):
    """DRAT reports its forward and backward passes against their totals; LRAT counts lines."""
    name = "first-corner-lookup-positions-never-lose"  # 41 KB proof, 2,125 steps
    calls: list[tuple[str, int, int]] = []
    result = drat.check_files(
        PROOFS / f"{name}.cnf.xz",
        PROOFS / f"{name}.drat.xz",
        lrat=True,
        progress=lambda *a: calls.append(a),
    )
    assert result.valid and result.lrat is not None
    phases = [c[0] for c in calls]
    assert phases.index("forward") < phases.index("backward") and set(phases) == {
        "forward",
        "backward",
    }
    for phase in ("forward", "backward"):
        done = [d for p, d, t in calls if p == phase]
        assert done == sorted(done) and all(0 <= d < t for p, d, t in calls if p == phase)
    assert calls[0] == ("forward", 0, result.lemmas + result.deletions)  # every proof step
    lines = tmp_path / "p.lrat"
    lines.write_bytes(result.lrat)
    seen: list[tuple[str, int, int]] = []
    assert lrat.check_files(PROOFS / f"{name}.cnf.xz", lines, progress=lambda *a: seen.append(a))
    assert seen and seen[0] == ("lines", 0, 0)


def test_an_interrupted_check_writes_no_lrat(tmp_path: Path):
    """Ctrl-C during a long DRAT check: exit 130, no LRAT file and no staging file left. The
    reference engine, which takes about 8 s here (the compiled one would be done before the
    signal)."""
    import signal
    import subprocess
    import sys
    import time

    name = "second-tree-positions@3x3-misere"  # about 8 s of checking
    out = tmp_path / "p.lrat"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "minttt",
            "check-proof",
            str(PROOFS / f"{name}.cnf.xz"),
            str(PROOFS / f"{name}.drat.xz"),
            "--lrat-out",
            str(out),
            "--engine",
            "reference",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err
    assert proc.returncode in (130, -signal.SIGINT), (proc.returncode, err)
    assert list(tmp_path.iterdir()) == []


REAL_LRAT_CHECK = os.environ.get("MINTTT_LRAT_CHECK") or shutil.which("lrat-check")


@pytest.mark.slow  # the 42 DRAT checks again, about 45 s
@pytest.mark.skipif(
    not REAL_LRAT_CHECK,
    reason="no lrat-check (drat-trim's C LRAT checker): set MINTTT_LRAT_CHECK or put it on PATH",
)
def test_written_lrat_passes_drat_trims_lrat_check(tmp_path: Path):
    """minttt.drat's LRAT for every 3x3 certificate, checked by another LRAT checker (C)."""
    import json
    import subprocess

    index = json.loads((PROOFS / "index.json").read_text("utf-8"))["certificates"]
    for record in index:
        cnf = drat.read_bytes(PROOFS / record["cnf"])
        result = drat.check(cnf, drat.read_bytes(PROOFS / record["proof"]), lrat=True)
        assert result.lrat is not None
        # the shipped CNF as it is (its comment lines fit lrat-check's 1,024-byte reader)
        (tmp_path / "f.cnf").write_bytes(cnf)
        (tmp_path / "f.lrat").write_bytes(result.lrat)
        run = subprocess.run(
            [str(REAL_LRAT_CHECK), str(tmp_path / "f.cnf"), str(tmp_path / "f.lrat")],
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0 and "c VERIFIED" in run.stdout, (record["variant"], run.stdout)
        assert "NOT VERIFIED" not in run.stdout and "WARNING" not in run.stdout


@pytest.mark.skipif(
    not REAL_LRAT_CHECK,
    reason="no lrat-check (drat-trim's C LRAT checker): set MINTTT_LRAT_CHECK or put it on PATH",
)
def test_lrat_check_reads_a_shipped_cnf_whole_and_refuses_a_cut_refutation(tmp_path: Path):
    """On a shipped CNF as it is, lrat-check accepts minttt's LRAT and refuses it without its
    last line (format 1's long comment line made it stop reading the CNF and still pass)."""
    import subprocess

    cnf = drat.read_bytes(PROOFS / "first-center-lookup-entries.cnf.xz")
    proof = drat.read_bytes(PROOFS / "first-center-lookup-entries.drat.xz")
    lrat = drat.check(cnf, proof, lrat=True).lrat
    assert lrat is not None
    (tmp_path / "f.cnf").write_bytes(cnf)

    def verdict(text: bytes) -> str:
        (tmp_path / "f.lrat").write_bytes(text)
        run = subprocess.run(
            [str(REAL_LRAT_CHECK), str(tmp_path / "f.cnf"), str(tmp_path / "f.lrat")],
            capture_output=True,
            text=True,
            check=False,
        )
        return run.stdout

    assert "c VERIFIED" in verdict(lrat)
    cut = b"".join(line + b"\n" for line in lrat.splitlines()[:-1])
    assert "c VERIFIED" not in verdict(cut)


# ------------------------------------------------------------------- what the mutants showed

XOR2 = b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
XOR2_LRAT = b"5 2 0 1 2 0\n6 0 5 3 4 0\n"


def test_comment_lines_are_skipped_and_the_core_is_named():
    r = lrat.check(XOR2, b"c a comment\ncomment too\n" + XOR2_LRAT)
    assert r.valid and r.lemmas == 2
    assert r.core_formula == [0, 1, 2, 3] and r.core_clauses == 4
    unit_first = b"p cnf 2 5\n1 0\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
    r = lrat.check(unit_first, b"6 0 1 3 5 0\n")
    assert r.valid and r.core_formula == [0, 2, 4] and r.core_clauses == 3


@pytest.mark.parametrize(
    "line",
    [b"5 d -3 0", b"5 d -1 0", b"5 d 3 -4 0", b"5 d 3 0 4 0", b"5 d 3", b"5 d", b"5 d 0 0"],
    ids=["negative", "minus one", "negative second", "zero inside", "no end", "nothing", "0"],
)
def test_bad_deletions_are_refused(line: bytes):
    with pytest.raises(drat.ProofFormatError, match="LRAT line 1: bad deletion"):
        lrat.check(XOR2, line + b"\n" + XOR2_LRAT)


def test_deletions_of_several_ids_and_of_none():
    r = lrat.check(XOR2, b"4 d 1 2 0\n4 d 0\n" + XOR2_LRAT)
    assert not r.valid and "hint 1 is not a live clause" in r.message and r.deletions == 2
    assert lrat.check(XOR2, b"4 d 0\n" + XOR2_LRAT).valid


@pytest.mark.parametrize("line", [b"5", b"5 2 0", b"0 0 1 0", b"5 2 0 1 0 2 0", b"-5 0 1 0"])
def test_lemma_lines_that_are_not_lrat_are_refused(line: bytes):
    with pytest.raises(drat.ProofFormatError, match="LRAT line 1: not 'ID LITERALS 0 HINTS 0'"):
        lrat.check(XOR2, line + b"\n")


def test_an_empty_clause_with_no_hints_and_a_first_id_of_1_are_read_then_judged():
    r = lrat.check(XOR2, b"5 0 0\n")
    assert not r.valid and r.message.endswith("the hints end without a conflict")
    r = lrat.check(b"p cnf 1 0\n", b"1 0 0\n")
    assert not r.valid and r.message == "lemma 1 (id 1, line 1): the hints end without a conflict"
    r = lrat.check(XOR2, b"5 -1 0 2 4 0\n6 0 5 1 3 0\n")  # a negative literal first
    assert r.valid


def test_a_cnf_with_a_nul_byte_is_refused(tmp_path: Path):
    cnf, proof = tmp_path / "f.cnf", tmp_path / "p.lrat"
    cnf.write_bytes(XOR2 + b"c \x00\n")
    proof.write_bytes(XOR2_LRAT)
    with pytest.raises(drat.ProofFormatError, match="NUL byte"):
        lrat.check_files(cnf, proof)


def test_a_line_of_many_chunks_is_read_whole_up_to_its_limit(tmp_path: Path) -> None:
    """drat-trim's LRAT deletes every clause the refutation does not need in one line: tens of
    MB for a formula of millions of clauses (4x4 k=4). Lines pass whole across read chunks, up
    to the reader's limit (minttt.lrat's: 1 GiB), and a longer one is refused."""
    from minttt.proof import lrat

    cnf = tmp_path / "f.cnf"
    cnf.write_bytes(b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    ids = b" ".join(b"%d" % i for i in range(10, 700_000))  # about 4.8 MB, several chunks
    proof = tmp_path / "p.lrat"
    proof.write_bytes(b"4 d " + ids + b" 0\n5 2 0 1 2 0\n6 0 5 3 4 0\n")
    lines = list(drat.read_lines(proof, 8 << 20))
    assert [len(x) for x in lines[1:]] == [11, 11] and lines[0].endswith(b" 0")
    assert lrat.check_files(cnf, proof).valid
    with pytest.raises(drat.ProofFormatError, match="a line longer than"):
        list(drat.read_lines(proof, 1 << 20))


def test_a_streamed_lrat_file_may_pass_what_a_whole_read_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """3x4 O's 4.4 GB proof gives a 6 GB LRAT file: streamed line by line, it is not bounded by
    what a reader holding a file whole may take (MAX_BYTES, here shrunk to 1 kB), only by
    MAX_STREAM; a whole read still refuses it."""
    from minttt.proof import lrat

    monkeypatch.setattr(drat, "MAX_BYTES", 1000)
    cnf = tmp_path / "f.cnf"
    cnf.write_bytes(b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    proof = tmp_path / "p.lrat"
    filler = b"".join(b"c comment line %d\n" % i for i in range(200))  # about 3.7 kB
    proof.write_bytes(filler + b"5 2 0 1 2 0\n6 0 5 3 4 0\n")
    assert lrat.check_files(cnf, proof).valid
    with pytest.raises(drat.ProofFormatError, match="more than 1,000 bytes"):
        drat.read_bytes(proof)
    monkeypatch.setattr(drat, "MAX_STREAM", 2000)
    with pytest.raises(drat.ProofFormatError, match="more than 2,000 bytes"):
        list(drat.read_lines(proof))


@pytest.mark.parametrize("compiled", [None, False])
def test_an_lrat_file_is_checked_against_cnf_bytes(tmp_path: Path, compiled: bool | None):
    """``check_file``: the CNF as minttt holds it (bytes), the proof as a file drat-trim wrote,
    read as a stream; the compiled check where built, the reference otherwise; a wrong hint
    fails either way."""
    (tmp_path / "p.lrat").write_bytes(PHP32_LRAT)
    result = lrat.check_file(PHP32, tmp_path / "p.lrat", compiled=compiled)
    assert result.valid and result.lemmas == 3
    (tmp_path / "bad.lrat").write_bytes(PHP32_LRAT.replace(b"2 7 0", b"2 0"))
    assert not lrat.check_file(PHP32, tmp_path / "bad.lrat", compiled=compiled).valid
