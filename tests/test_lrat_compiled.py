"""The compiled LRAT checker (minttt.proof.kernels, lrat_*, C) against the reference (minttt.lrat):
every proof, valid or not, well formed or not, gets the same verdict, message, counts and core
(the kernel checks RUP lemmas and gives anything else back to the reference). Skipped, saying
so, where the package was built without a C compiler; failed where a compiler is at hand and the
kernel is missing (the build would have skipped it silently)."""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from proof_helpers import PHP32, PHP32_PROOF, random_drat_cases
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.proof import drat, lrat

runner = CliRunner()
PROOFS = Path(__file__).resolve().parent.parent / "results" / "proofs"
BUILT = importlib.util.find_spec("minttt.proof.kernels") is not None
needs_kernel = pytest.mark.skipif(
    not BUILT, reason="minttt.proof.kernels not built (no C compiler at install)"
)

XOR2 = b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
XOR2_LRAT = b"5 2 0 1 2 0\n6 0 5 3 4 0\n"
PHP32_LRAT = b"10 -1 0 4 5 2 3 9 0\n11 -3 0 4 6 1 3 8 0\n11 d 4 5 0\n12 0 10 11 1 2 7 0\n"
RAT_CNF = b"p cnf 5 4\n-1 2 0\n-2 4 0\n4 5 0\n-5 2 0\n"

#: (cnf, proof): valid, invalid, malformed and unusual proofs
CASES = [
    (XOR2, XOR2_LRAT),
    (XOR2, XOR2_LRAT.replace(b"\n", b"\r\n")),  # CR is white space
    (XOR2, XOR2_LRAT.replace(b" ", b"\t  ")),
    (XOR2, XOR2_LRAT.rstrip(b"\n")),  # no newline at the end
    (XOR2, b"c a comment\ncomment too\n\n   \n" + XOR2_LRAT),
    (XOR2, XOR2_LRAT + b"garbage after the empty clause\n"),  # never read
    (XOR2, b"4 d 1 2 0\n4 d 0\n" + XOR2_LRAT),  # hint 1 deleted
    (XOR2, b"4 d 0\n" + XOR2_LRAT),
    (XOR2, b"x d 77 88 0\n" + XOR2_LRAT),  # unknown ids; the first word is not read
    (XOR2, b"5 d -3 0\n" + XOR2_LRAT),
    (XOR2, b"5 d 3 0 4 0\n" + XOR2_LRAT),
    (XOR2, b"5 d\n" + XOR2_LRAT),
    (XOR2, b"5 2 0 1 2\n"),
    (XOR2, b"5\n"),
    (XOR2, b"d\n"),
    (XOR2, b"0 0 1 0\n"),
    (XOR2, b"-5 0 1 0\n"),
    (XOR2, b"5 2 0 1 0 2 0\n"),
    (XOR2, b"5 0 0\n"),  # the empty clause, no hints
    (XOR2, b"+5 2 0 1 2 0\n6 0 5 3 4 0\n"),  # '+5' and '1_0': not -?[0-9]+, refused by both
    (XOR2, b"5 2 0 1 2 0\n1_0 0 5 3 4 0\n"),
    (XOR2, b"5 2 0 1 2 0\n6 0 5 3 4 0 junk\n"),
    (XOR2, b"5 2 -2 0 0\n6 0 1 2 3 4 0\n"),  # a tautology
    (XOR2, b"5 2 2 0 1 2 0\n6 0 5 3 4 0\n"),  # a repeated literal
    (XOR2, b"5 2 0 2 1 0\n6 0 5 3 4 0\n"),  # hints out of order: not unit
    (XOR2, b"5 2 0 1 2 0\n5 0 5 3 4 0\n"),  # an id not above the last
    (XOR2, b"3 2 0 1 2 0\n6 0 3 3 4 0\n"),  # an id of the formula
    (XOR2, b"5 2 0 1 2 0\n6 0 5 -3 4 0\n"),  # a negative hint: RAT groups
    (XOR2, b"5 2 0 1 2 0 99 0\n6 0 5 3 4 0\n"),  # hints after the conflict are not read
    (XOR2, b"5 2 0 1 2 0\n6 0 5 3 0\n"),  # no conflict
    (XOR2, b"5 2147483647 2 0 1 2 0\n6 0 5 3 4 0\n"),  # a variable far past the formula's
    (XOR2, b"5 2147483648 2 0 1 2 0\n6 0 5 3 4 0\n"),  # past 32 bits
    (XOR2, b"5 2 0 1 2 0\n2147483646 0 5 3 4 0\n"),  # an id far past the others
    (XOR2, b"5 2 0 1 2 0\n268435455 0 5 3 4 0\n"),  # an id jump past the arrays' growth
    (XOR2, b"5 2 5000000 0 1 2 0\n6 0 5 3 4 0\n"),  # a variable jump
    (XOR2, b"5 2 0 1 2 0\n00000000006 0 5 3 4 0\n"),
    (XOR2, b"5 2 0 1 2 0\n6 0 5 3 4 0\x00\n"),
    (XOR2, b""),
    (XOR2, b"c only a comment\n"),
    (PHP32, PHP32_LRAT),
    (PHP32, PHP32_LRAT.replace(b"10 -1 0", b"10 1 0")),
    (PHP32, PHP32_LRAT.replace(b"11 d 4 5 0", b"11 d 4 7 0")),
    (PHP32, PHP32_LRAT.replace(b"12 0 10 11 1 2 7 0\n", b"")),
    (RAT_CNF, b"5 1 0 2 -1 4 3 0\n"),  # RAT, not RUP: the reference's
    (b"p cnf 1 0\n", b"1 0 0\n"),
    (b"p cnf 2 5\n1 0\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n", b"6 0 1 3 5 0\n"),
]
FIELDS = (
    "valid", "message", "lemmas", "deletions", "core_lemmas", "core_clauses", "rat_lemmas",
    "failed_index", "core_formula", "failed",
)  # fmt: skip


def _outcome(check: object) -> object:
    """A check's fields, or its error's type and message."""
    try:
        result = check()  # type: ignore[operator]
    except InputError as exc:
        return type(exc).__name__, str(exc)
    return {field: getattr(result, field) for field in FIELDS}, result.engine


def _same(cnf: bytes, proof: bytes) -> str:
    """Both engines on ``proof``: the same outcome; the engine that answered."""
    reference = _outcome(lambda: lrat.check(cnf, proof, compiled=False))
    compiled = _outcome(lambda: lrat.check(cnf, proof, compiled=True))
    if isinstance(reference[0], dict):
        assert reference[1] == "reference"
        assert compiled[0] == reference[0], proof
        return str(compiled[1])
    assert compiled == reference, proof
    return "error"


@needs_kernel
@pytest.mark.parametrize("cnf, proof", CASES)
def test_the_hand_made_cases_agree(cnf: bytes, proof: bytes):
    _same(cnf, proof)


@needs_kernel
def test_the_common_proof_is_checked_compiled_and_the_rest_given_back():
    assert _same(XOR2, XOR2_LRAT) == "compiled"
    assert _same(PHP32, PHP32_LRAT) == "compiled"
    assert _same(XOR2, XOR2_LRAT + b"garbage\n") == "compiled"  # after the empty clause
    assert _same(PHP32, PHP32_LRAT.replace(b"12 0 10 11 1 2 7 0\n", b"")) == "compiled"
    assert _same(RAT_CNF, b"5 1 0 2 -1 4 3 0\n") == "reference"  # RAT
    assert _same(PHP32, PHP32_LRAT.replace(b"10 -1 0", b"10 1 0")) == "reference"  # fails
    assert _same(XOR2, b"+5 2 0 1 2 0\n6 0 5 3 4 0\n") == "error"  # not -?[0-9]+: refused
    # a small file naming a huge id: the reference's (no array sized by a number it names)
    assert _same(XOR2, b"5 2 0 1 2 0\n268435455 0 5 3 4 0\n") == "reference"
    # a formula of many variables: the kernel's arrays cover them from the start
    wide = b"p cnf 3000000 4\n1 3000000 0\n-1 3000000 0\n1 -3000000 0\n-1 -3000000 0\n"
    assert _same(wide, b"5 3000000 0 1 2 0\n6 0 5 3 4 0\n") == "compiled"


def _mutants(proof: bytes, rng: random.Random) -> list[bytes]:
    """``proof`` with one change each: a number dropped, repeated, negated, changed or moved; a
    line dropped or repeated; a deletion of a clause in use; a word that is not a number."""
    lines = proof.splitlines(keepends=True)
    out = []
    for _ in range(6):
        i = rng.randrange(len(lines))
        words = lines[i].split()
        j = rng.randrange(len(words))
        choice = rng.randrange(9)
        if choice == 0:
            del words[j]
        elif choice == 1:
            words.insert(j, words[j])
        elif choice == 2:
            words[j] = b"-" + words[j] if words[j][:1] != b"-" else words[j][1:]
        elif choice == 3:
            words[j] = str(rng.randint(0, 30)).encode()
        elif choice == 4:
            words.insert(rng.randrange(len(words) + 1), words.pop(j))
        elif choice == 5:
            words = rng.choice((["d"], ["x"], ["-"], ["1_0"]))
            words = [w.encode() for w in words]
        elif choice == 6:
            out.append(b"".join(lines[:i] + lines[i + 1 :]))
            continue
        elif choice == 7:
            out.append(b"".join(lines[: i + 1] + lines[i:]))
            continue
        else:
            deletion = b"%d d %d 0\n" % (rng.randint(1, 30), rng.randint(1, 12))
            out.append(b"".join([*lines[:i], deletion, *lines[i:]]))
            continue
        out.append(b"".join([*lines[:i], b" ".join(words) + b"\n", *lines[i + 1 :]]))
    return out


@needs_kernel
def test_random_proofs_and_their_mutants_agree():
    """LRAT that minttt.drat writes for random accepted DRAT proofs, and six mutants of each:
    the two engines agree on every one; the compiled engine answers the valid ones itself."""
    rng = random.Random(7)
    answered = {"compiled": 0, "reference": 0, "error": 0}
    for cnf, _, proof in random_drat_cases(20261127, 1500):
        written = drat.check(cnf, proof, lrat=True).lrat
        if not written:
            continue
        answered[_same(cnf, written)] += 1
        for mutant in _mutants(written, rng):
            answered[_same(cnf, mutant)] += 1
    assert answered["compiled"] > 100 and answered["reference"] > 100 and answered["error"] > 10


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([b"1", b"2", b"-1", b"-2", b"0", b"5", b"6", b"d", b" ", b"\n", b"c"]),
        max_size=30,
    )
)
def test_token_soup_agrees(parts: list[bytes]):
    _same(XOR2, b"".join(parts) + b"\n" + XOR2_LRAT)


@needs_kernel
@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=len(PHP32_LRAT)), max_size=8))
def test_a_proof_read_in_any_pieces_is_checked_alike(cuts: list[int]):
    """Lines cut across the pieces a file is read in: the same result as read whole."""
    from minttt.proof import kernels

    bounds = [0, *sorted(cuts), len(PHP32_LRAT)]
    pieces = [PHP32_LRAT[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    result = lrat._check_compiled(kernels, PHP32, iter(pieces), None)
    assert result is not None and result.valid and result.lemmas == 3 and result.deletions == 2


CNF_PARTS = [
    b"p cnf 2 4\n", b"p cnf 2 2\n", b"p cnf 3 4\n", b"c x\n", b"%\n", b"1", b"-1", b"2", b"-2",
    b"3", b"0", b"-0", b" ", b"\t", b"\n", b"\r\n", b"-", b"+1", b"1_0", b"p", b"00",
]  # fmt: skip


@needs_kernel
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(CNF_PARTS), max_size=24))
def test_a_cnf_is_read_alike_or_given_to_the_reader(parts: list[bytes]):
    """The kernel reads a CNF only where drat.parse_cnf reads it in one sweep (else parse_cnf
    reads it, and refuses it naming the line); the check's outcome is the reference's."""
    from minttt.proof import kernels

    cnf = b"".join(parts)
    if kernels.lrat_from_cnf(cnf, lrat.MAX_LINE) is not None:
        assert drat._parse_cnf_numbers(cnf) is not None, cnf
    _same(cnf, XOR2_LRAT)
    _same(cnf + XOR2[len(b"p cnf 2 4\n") :], XOR2_LRAT)


@needs_kernel
@pytest.mark.parametrize(
    "cnf",
    [
        XOR2,
        b"c comment\n%\n\n  p cnf 2 4  \n1 2 0 -1 2 0\n1 -2 0 -1 -2 0",  # no newline at the end
        b"px cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",  # the header's first word unread
        b"p cnf 0002 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",
        b"p cnf 2 4\n1 2 -0\n-1 2 0\n1 -2 0\n-1 -2 0\n",
        b"p cnf 3000000000 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",  # past DIMACS's variables
        b"p cnf 2 4\nc late\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",  # a comment after the header
        b"p cnf 2 +4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",
        b"p cnf 1 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",  # a literal past the header's
        b"p cnf 2 5\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",  # fewer clauses than it says
        b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n2",  # a clause not ended
        b"1 2 0\n",  # no header
    ],
)
def test_unusual_cnfs_agree(cnf: bytes):
    _same(cnf, XOR2_LRAT)


def _shipped(names: list[str]) -> list[tuple[bytes, bytes]]:
    index = json.loads((PROOFS / "index.json").read_text("utf-8"))["certificates"]
    out = []
    for record in index:
        if record["variant"] in names:
            cnf = drat.read_bytes(PROOFS / record["cnf"], text=True)
            written = drat.check_files(PROOFS / record["cnf"], PROOFS / record["proof"], lrat=True)
            assert written.lrat is not None
            out.append((cnf, written.lrat))
    return out


@needs_kernel
def test_shipped_certificates_agree_through_files(tmp_path: Path):
    """Two shipped certificates' LRAT, from files (plain and xz): the same result, compiled."""
    pairs = _shipped(["first-corner-lookup-positions", "second-lookup-entries-never-lose"])
    assert len(pairs) == 2
    for n, (cnf, proof) in enumerate(pairs):
        assert _same(cnf, proof) == "compiled"
        _same_from_files(tmp_path / str(n), cnf, proof)


def _same_from_files(folder: Path, cnf: bytes, proof: bytes) -> None:
    import lzma

    folder.mkdir()
    (folder / "f.cnf").write_bytes(cnf)
    (folder / "p.lrat.xz").write_bytes(lzma.compress(proof))
    seen: list[tuple[str, int, int]] = []
    got = lrat.check_files(
        folder / "f.cnf", folder / "p.lrat.xz", progress=lambda *a: seen.append(a)
    )
    want = lrat.check_files(folder / "f.cnf", folder / "p.lrat.xz", compiled=False)
    assert got.engine == "compiled" and got.valid
    assert {f: getattr(got, f) for f in FIELDS} == {f: getattr(want, f) for f in FIELDS}
    assert seen[0] == ("lines", 0, 0) and seen[-1][1] >= got.lemmas


@needs_kernel
def test_check_proof_names_the_lrat_engine(tmp_path: Path):
    cnf, proof = tmp_path / "php.cnf", tmp_path / "php.lrat"
    cnf.write_bytes(PHP32)
    proof.write_bytes(PHP32_LRAT)
    for engine, want in (
        ("auto", "compiled"),
        ("compiled", "compiled"),
        ("reference", "reference"),
    ):
        r = runner.invoke(app, ["check-proof", str(cnf), str(proof), "--engine", engine, "--json"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["engine"] == want


def test_the_compiled_engine_asked_for_and_not_built_is_bad_input(monkeypatch):
    import minttt.proof

    monkeypatch.setitem(sys.modules, "minttt.proof.kernels", None)  # import fails
    monkeypatch.delattr(minttt.proof, "kernels", raising=False)
    with pytest.raises(InputError, match="compiled LRAT checker was not built"):
        lrat.check(XOR2, XOR2_LRAT, compiled=True)
    result = lrat.check(XOR2, XOR2_LRAT)  # auto: the reference
    assert result.valid and result.engine == "reference"


def test_the_kernel_is_built_where_a_compiler_is():
    """setup.py builds the kernel as optional: a failed build only warns. Where a C compiler is
    on PATH, a missing kernel means the build failed; say so."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler on PATH: the kernel is optional")
    assert BUILT, f"a C compiler is at {compiler} but minttt.proof.kernels was not built"


def test_php32_through_drat_then_lrat_both_engines():
    written = drat.check(PHP32, PHP32_PROOF, lrat=True).lrat
    assert written is not None
    assert lrat.check(PHP32, written, compiled=False).valid
    if BUILT:
        result = lrat.check(PHP32, written, compiled=True)
        assert result.valid and result.engine == "compiled"
