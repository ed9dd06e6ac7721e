"""The compiled DRAT checker (minttt.proof.kernels, drat_*, C) is the reference, step for step:
on every hand-made, random, hostile and shipped proof it gives the same verdict, the same failing
lemma, the same core and the same LRAT lines as the Python checker; where it was not built, the
reference checks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from proof_helpers import PHP32, PHP32_PROOF, random_drat_cases
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.proof import drat

PROOFS = Path(__file__).resolve().parent.parent / "results" / "proofs"
runner = CliRunner()

RAT_CNF = b"p cnf 4 8\n1 -2 0\n-2 -1 0\n1 2 0\n-4 -2 0\n3 4 2 0\n-1 2 0\n3 2 -1 0\n-1 -2 -4 0\n"
XOR2 = b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
REMOVED_REASON = b"p cnf 9 5\n-3 0\n-4 -9 8 0\n-4 -9 -8 0\n9 1 0\n9 -1 0\n"
#: the hand-made cases of test_drat.py, and a few more that reach every branch of the kernel
CASES = [
    (PHP32, PHP32_PROOF),
    (PHP32, b"0\n"),
    (PHP32, b"d -1 -3 0\n-1 0\n-3 0\n0\n"),
    (PHP32, b"-1 0\n-3 0\n"),
    (PHP32, b"a\x03\x00a\x07\x00d\x03\x0b\x00a\x00"),
    (PHP32, b"-1 -1 0\nd -1 0\nd -1 0\n-3 3 0\n-3 0\nd -3 0\n-3 0\n0\n"),  # repeats, tautology
    (REMOVED_REASON, b"3 4 0\n-9 0\n0\n"),
    (REMOVED_REASON, b"3 4 0\n-4 5 0\n-5 4 0\n-9 0\n0\n"),
    (RAT_CNF, b"4 0\n0\n"),
    (RAT_CNF, b"-4 0\n0\n"),
    (RAT_CNF, b"4 3 0\n4 0\nd 4 3 0\n0\n"),
    (b"p cnf 3 2\n1 3 0\n-1 3 0\n", b"-3 0\n0\n"),
    (XOR2, b"3 0\n2 0\n0\n"),
    (XOR2, b"2 0\n0\n0\n"),
    (b"p cnf 1 2\n1 0\n-1 0\n", b"0\n"),
    (b"p cnf 2 3\n1 0\n2 0\n-1 -2 0\n", b"0\n"),
    (b"p cnf 2 3\n1 1 -1 0\n1 2 0\n-1 0\n", b"2 0\n-2 0\n0\n"),  # a tautology in the formula
    (b"p cnf 2 2\n1 0\n-1 0\n", b"2147483647 0\n0\n"),  # sparse: renumbered densely
    (b"p cnf 3 4\n1 2 3 0\n-1 2 3 0\n1 -2 3 0\n-3 0\n", b"2 3 0\n3 0\n0\n"),
    (b"p cnf 1 2\n1 0\n0\n", b"0\n"),  # an empty clause in the formula
    (b"p cnf 0 0\n", b"0\n"),  # no formula at all
    (b"p cnf 2 1\n1 2 0\n", b"d 1 2 0\n0\n"),
    (b"p cnf 3 3\n1 2 0\n-1 0\n-2 0\n", b"c a comment\n0\n"),  # read by the reader
]


def _same(cnf: bytes, proof: bytes, lrat: bool = True) -> drat.CheckResult:
    """Check with both checkers; every field must agree. The compiled result."""
    reference = drat.check(cnf, proof, lrat=lrat, compiled=False)
    compiled = drat.check(cnf, proof, lrat=lrat, compiled=True)
    assert (reference.engine, compiled.engine) == ("reference", "compiled")
    for field in ("valid", "message", "lemmas", "deletions", "core_lemmas", "core_clauses",
                  "rat_lemmas", "ignored_deletions", "failed_index", "core_formula",
                  "core_steps", "lrat"):  # fmt: skip
        assert getattr(compiled, field) == getattr(reference, field), (field, proof)
    assert compiled.failed == reference.failed
    return compiled


@pytest.mark.parametrize("cnf, proof", CASES)
def test_the_hand_made_cases_agree(cnf: bytes, proof: bytes):
    _same(cnf, proof)


def test_random_proofs_agree_valid_or_not():
    verdicts = [_same(cnf, proof).valid for cnf, _, proof in random_drat_cases(11, 400)]
    assert 20 < sum(verdicts) < len(verdicts)  # both kinds, in numbers


def test_a_deletion_of_a_reason_is_ignored_alike():
    # 1 is implied by (1 2) at top level; deleting its reason is ignored (as drat-trim does)
    cnf = b"p cnf 4 6\n1 2 0\n-2 0\n3 4 0\n-3 4 0\n3 -4 0\n-3 -4 0\n"
    result = _same(cnf, b"d 1 2 0\n4 0\n0\n")
    assert result.valid and result.ignored_deletions == 1


def test_shipped_certificates_agree_lrat_included():
    """Three shipped certificates, one of each kind (3x3, raw, misere): the quick loop's share of
    the slow test below."""
    index = json.loads((PROOFS / "index.json").read_text("utf-8"))["certificates"]
    for rec in index[:2]:
        cnf = drat.read_bytes(PROOFS / rec["cnf"], text=True)
        assert _same(cnf, drat.read_proof(PROOFS / rec["proof"])).valid


@pytest.mark.slow  # the 58 DRAT certificates twice: minutes
def test_every_shipped_certificate_agrees():
    pairs = [
        (PROOFS / r["cnf"], PROOFS / r["proof"])
        for r in json.loads((PROOFS / "index.json").read_text("utf-8"))["certificates"]
    ]
    pairs += [(p.with_name(p.name.replace(".drat.xz", ".cnf.xz")), p)
              for p in sorted((PROOFS / "raw").glob("*.drat.xz"))]  # fmt: skip
    assert len(pairs) >= 58
    for cnf, proof in pairs:
        assert _same(drat.read_bytes(cnf, text=True), drat.read_proof(proof)).valid, proof


def test_the_default_is_the_reference_below_the_threshold_and_compiled_above(monkeypatch):
    assert drat.check(PHP32, PHP32_PROOF).engine == "reference"
    monkeypatch.setattr(drat, "COMPILED_FROM", 1)
    result = drat.check(PHP32, PHP32_PROOF)
    assert result.valid and result.engine == "compiled"
    assert drat.check(PHP32, PHP32_PROOF, compiled=False).engine == "reference"


def test_progress_and_failures_come_from_the_compiled_phases_too():
    proof = b"3 0\n" * 5000 + b"0\n"
    calls: list[tuple[str, int]] = []
    result = drat.check(
        b"p cnf 3 1\n1 2 3 0\n", proof, compiled=True, progress=lambda p, d, t: calls.append((p, d))
    )
    assert not result.valid and result.failed_index == 5001
    assert [c for c in calls if c[0] == "forward"] == [("forward", 0), ("forward", 4096)]


def test_check_proof_names_its_engine_and_engine_chooses(tmp_path: Path):
    cnf, proof = tmp_path / "f.cnf", tmp_path / "p.drat"
    cnf.write_bytes(PHP32)
    proof.write_bytes(PHP32_PROOF)
    out = runner.invoke(app, ["check-proof", str(cnf), str(proof), "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["engine"] == "reference"
    out = runner.invoke(
        app, ["check-proof", str(cnf), str(proof), "--json", "--engine", "compiled"]
    )
    assert out.exit_code == 0 and json.loads(out.stdout)["engine"] == "compiled"
    proof.write_bytes(b"d -1 -3 0\n-1 0\n-3 0\n0\n")
    out = runner.invoke(app, ["check-proof", str(cnf), str(proof), "--engine", "compiled"])
    assert out.exit_code == 1 and "lemma 1" in out.output
    out = runner.invoke(app, ["check-proof", str(cnf), str(proof), "--engine", "fast"])
    assert out.exit_code == 2 and "Traceback" not in out.output


def _as_steps(flat: tuple) -> list[drat.Step]:
    kinds, starts, lits = flat
    return [
        drat.Step(int(kinds[i]), tuple(lits[starts[i] : starts[i + 1]].tolist()), i + 1)
        for i in range(len(kinds))
    ]


@pytest.mark.parametrize(
    "proof",
    [
        b"1 2 0\nd 1 2 0\n-3 0\n0\n",
        b"1 2 0\nd 1 2 0\n-3 0\n0",
        b"0\n",
        b"d 0\n0\n",
        b"1  2   0\n0\n",
        b"2147483647 0\n0\n",
    ],
)
def test_the_quick_reader_reads_what_the_reader_reads(proof: bytes):
    flat = drat._flat_text(proof)
    assert flat is not None and _as_steps(flat) == drat.parse_proof(proof)


@pytest.mark.parametrize(
    "proof",
    [
        b"1 0 2\n3 0\n",  # a zero inside a line
        b"1 - 0\n0\n",  # a minus sign alone (numpy would skip it)
        b"1 -0 2 0\n",
        b"c a comment\n1 0\n0\n",
        b"1 0\n\n0\n",  # a blank line: line numbers would shift
        b" 1 0\n0\n",
        b"1 2\n",
        b"1 d 0\n",
        b"d\n0\n",
        b"2147483648 0\n0\n",  # past the largest variable
        b"99999999999999999999 0\n",
        b"1 0\r\n0\n",
        b"1--2 0\n",
        b"",
    ],
)
def test_the_quick_reader_leaves_anything_unusual_to_the_reader(proof: bytes):
    assert drat._flat_text(proof) is None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([b"1", b"-2", b"0", b"d", b" ", b"\n", b"-", b"10", b"c"]),
                max_size=24))  # fmt: skip
def test_the_quick_reader_never_reads_otherwise(parts: list[bytes]):
    proof = b"".join(parts)
    flat = drat._flat_text(proof)
    if flat is None:
        return
    assert _as_steps(flat) == drat.parse_proof(proof)  # and parse_proof accepts it


def test_a_large_text_proof_is_read_quickly_and_checked_alike():
    index = json.loads((PROOFS / "index.json").read_text("utf-8"))["certificates"]
    rec = index[0]
    cnf = drat.read_bytes(PROOFS / rec["cnf"], text=True)
    proof = drat.read_proof(PROOFS / rec["proof"])
    assert drat._flat_text(proof) is not None  # CaDiCaL's text proofs take the quick way
    reference = drat.check(cnf, proof, lrat=True, compiled=False)
    compiled = drat.check(cnf, proof, lrat=True, compiled=True)
    assert compiled.engine == "compiled" and compiled.lrat == reference.lrat
    assert compiled.to_dict() == {**reference.to_dict(), "engine": "compiled"}
    assert compiled.core_steps == reference.core_steps


def test_without_the_compiled_module_the_reference_checks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """A package built with no C compiler has no minttt.proof.kernels: the default engine is the
    reference, however large the proof, and asking for the compiled one is bad input (exit 2,
    one line)."""
    import minttt.proof

    want = drat.check(PHP32, PHP32_PROOF, lrat=True, compiled=False)
    monkeypatch.setitem(sys.modules, "minttt.proof.kernels", None)  # import fails
    monkeypatch.delattr(minttt.proof, "kernels", raising=False)
    monkeypatch.setattr(drat, "COMPILED_FROM", 1)
    result = drat.check(PHP32, PHP32_PROOF, lrat=True)
    assert result.valid and result.engine == "reference" and result.lrat == want.lrat
    nvars, clauses = drat.parse_cnf(PHP32)
    assert drat.check_parsed(nvars, clauses, drat.parse_proof(PHP32_PROOF)).engine == "reference"
    for proof in (PHP32_PROOF, b"a\x03\x00a\x07\x00d\x03\x0b\x00a\x00"):  # text, binary
        with pytest.raises(InputError, match="compiled DRAT checker was not built"):
            drat.check(PHP32, proof, compiled=True)
    cnf, proof_file = tmp_path / "f.cnf", tmp_path / "p.drat"
    cnf.write_bytes(PHP32)
    proof_file.write_bytes(PHP32_PROOF)
    out = runner.invoke(app, ["check-proof", str(cnf), str(proof_file), "--engine", "compiled"])
    assert out.exit_code == 2 and "was not built" in out.output and "Traceback" not in out.output
    out = runner.invoke(app, ["check-proof", str(cnf), str(proof_file), "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["engine"] == "reference"


@pytest.mark.parametrize(
    "arrays",
    [
        ([0, 1], [3], [], [0], []),  # a literal past the variables
        ([0, 1], [0], [], [0], []),  # a literal 0
        ([0, 2], [1], [], [0], []),  # offsets past the literals
        ([0, 1, 0], [1], [], [0], []),  # decreasing offsets
        ([0, 1], [1], [2], [0, 0], []),  # a kind neither lemma nor deletion
        ([0, 1], [1], [0], [0], []),  # one offset short
        ([], [], [], [0], []),  # no offsets at all
    ],
)
def test_the_kernel_refuses_arrays_it_cannot_index(arrays: tuple[list[int], ...]):
    """drat_new checks its arrays before any index is read (the Python side never passes such
    arrays; a caller that does gets a ValueError, not a read past an array's end)."""
    from array import array

    from minttt.proof import kernels

    f_start, f_lits, kinds, s_start, s_lits = arrays
    with pytest.raises(ValueError):
        kernels.drat_new(
            2, array("q", f_start), array("q", f_lits), array("b", kinds), array("q", s_start),
            array("q", s_lits), False,
        )  # fmt: skip


@pytest.mark.slow
def test_the_kernel_reads_no_array_past_its_end(tmp_path: Path) -> None:
    """C checks no index, so a read past an array's end goes unseen until the array ends at the
    edge of a page (a segmentation fault on the largest proofs only). Here the hand-made cases
    and random ones (deletions, failures, LRAT) run through the compiled checker built with
    AddressSanitizer, in a process of its own, where such a read or write ends the process with
    a report."""
    import os
    import shutil
    import subprocess
    import sysconfig

    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler on PATH")
    asan = subprocess.run(
        [compiler, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not os.path.isabs(asan):
        pytest.skip(f"{compiler} has no AddressSanitizer")
    proof_dir = Path(drat.__file__).parent
    sources = [str(proof_dir / f) for f in ("kernels.c", "drat_kernel.c", "lrat_kernel.c")]
    built = tmp_path / "kernels.abi3.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-O1", "-g", "-fsanitize=address",
         "-fno-omit-frame-pointer", "-DPy_LIMITED_API=0x030B0000",
         f"-I{sysconfig.get_paths()['include']}", *sources, "-o", str(built)],
        check=True, capture_output=True,
    )  # fmt: skip
    cases = [(cnf, proof) for cnf, proof in CASES]
    cases += [(cnf, proof) for cnf, _, proof in random_drat_cases(7, 40)]
    script = (
        "import json, sys\n"
        "import minttt.proof\n"
        f"minttt.proof.__path__.insert(0, {str(tmp_path)!r})\n"
        "from minttt.proof import drat, kernels\n"
        f"assert kernels.__file__ == {str(built)!r}, kernels.__file__\n"
        "for cnf, proof in json.load(sys.stdin):\n"
        "    drat.check(bytes.fromhex(cnf), bytes.fromhex(proof), lrat=True, compiled=True)\n"
        "print('ok')\n"
    )
    env = {**os.environ, "LD_PRELOAD": asan, "ASAN_OPTIONS": "detect_leaks=0"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps([[cnf.hex(), proof.hex()] for cnf, proof in cases]),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
