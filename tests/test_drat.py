"""The DRAT checker on hand-made formulas and proofs, independent of any solver."""

from __future__ import annotations

import gzip
import lzma

import pytest
from proof_helpers import PHP32, PHP32_PROOF, random_drat_cases, satisfiable
from typer.testing import CliRunner

from minttt.cli import app
from minttt.proof import drat

runner = CliRunner()

#: mutants of minttt/proof/drat.py no test can tell from it (scripts/mutation.py), and why
EQUIVALENT_MUTANTS = {
    'elif line and line[:1] not in (b"c", b"%"):  # 1 -> 2': "the one-sweep CNF reader then "
    "gives up on a comment line, and the line-by-line reader returns the same",
    "if line[:1] == b\"p\":  # line[:1] == b'p' -> line[:1] != b'p'": "the one-sweep reader "
    "then gives up, and the line-by-line reader returns the same",
    "if nums and (max(nums) > nvars or min(nums) < -nvars):  # max(nums) > nvars -> "
    "max(nums) >= nvars": "the one-sweep reader gives up on the largest variable, and the "
    "line-by-line reader returns the same",
    'body = data[start:] if header is not None and end >= 0 else b""  # 0 -> -1': "with no "
    "line after the header the body is the header line, which the one-sweep reader refuses: "
    "the line-by-line reader returns the same",
    "return tuple(index[x] if x > 0 else -index[-x] for x in lits)  # 0 -> -1": "no literal is 0",
    "self.seen = bytearray(top + 1)  # 1 -> 2": "one more mark, never read",
    "self.reason = [-1] * (top + 1)  # -1 -> 1": "a reason is read only for an assigned "
    "variable, and every assignment writes it",
    "found.append((local[v] if v in local else tpos[v] if in_top[v] else -1, r))  # 1 -> 0": (
        "every variable of a refutation is the lemma's (local) or top-level"
    ),
    "return -1  # 1 -> 2": "callers only ask whether a conflict id is negative",
    "return False  # False -> True": "unreachable: an empty lemma never reaches the backward "
    "pass (the forward pass stops at the first empty clause)",
    "return  # return -> pass": "unreachable: only present clauses are marked (reasons, "
    "conflicts, RAT candidates)",
}

XOR2 = b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"


def test_pigeonhole_valid_proof():
    r = drat.check(PHP32, PHP32_PROOF)
    assert r.valid, r.message
    assert (r.lemmas, r.deletions, r.rat_lemmas) == (3, 1, 0)
    assert r.core_clauses > 0


def test_pigeonhole_invalid_proofs_name_the_failing_lemma():
    r = drat.check(PHP32, b"0\n")  # no unit propagates: the empty clause is not RUP
    assert not r.valid and r.failed_index == 1 and "lemma 1 " in r.message
    # a deletion is honoured: without (-1 -3), -1 is no longer RUP (1 -> -5 -> 6 -> -2, -4 -> 3)
    r = drat.check(PHP32, b"d -1 -3 0\n-1 0\n-3 0\n0\n")
    assert not r.valid and r.failed_index == 1 and "'-1 0'" in r.message
    assert r.failed is not None and r.failed.line == 2


def test_removed_binary_reason_is_unassigned():
    # SAT formula; (3 4) is not implied, but once added it propagates 4 (as its second literal).
    # Checking backward, removing (3 4) must also remove 4 from the top-level units.
    cnf = b"p cnf 9 5\n-3 0\n-4 -9 8 0\n-4 -9 -8 0\n9 1 0\n9 -1 0\n"
    r = drat.check(cnf, b"3 4 0\n-9 0\n0\n")
    assert not r.valid and r.failed_index == 1 and "'3 4 0'" in r.message
    # the same with 4 propagated through a longer chain of binary lemmas
    r = drat.check(cnf, b"3 4 0\n-4 5 0\n-5 4 0\n-9 0\n0\n")
    assert not r.valid and r.failed_index == 1


def test_proof_without_empty_clause_is_invalid():
    r = drat.check(PHP32, b"-1 0\n-3 0\n")
    assert not r.valid and "empty clause" in r.message


# UNSAT, and 4 is RAT on 4 (each resolvent with a clause holding -4 is RUP) but not RUP
RAT_CNF = b"p cnf 4 8\n1 -2 0\n-2 -1 0\n1 2 0\n-4 -2 0\n3 4 2 0\n-1 2 0\n3 2 -1 0\n-1 -2 -4 0\n"


def test_needed_rat_lemma_is_accepted():
    r = drat.check(RAT_CNF, b"4 0\n0\n")
    assert r.valid and r.rat_lemmas == 1 and r.core_lemmas == 1
    assert not drat.check(RAT_CNF, b"-4 0\n0\n").valid


def test_lemma_neither_rup_nor_rat_is_rejected():
    # 3 is implied, so -3 is neither RUP nor RAT (its resolvent with (1 3) is (-3 1): not RUP)
    r = drat.check(b"p cnf 3 2\n1 3 0\n-1 3 0\n", b"-3 0\n0\n")
    assert not r.valid and r.failed_index == 1 and "neither RUP nor RAT" in r.message


def test_unneeded_lemmas_are_not_checked():
    r = drat.check(XOR2, b"3 0\n2 0\n0\n")  # 3 (fresh, unused) is not in the core
    assert r.valid and r.lemmas == 3 and r.core_lemmas == 1


def test_binary_proof_format():
    # 'a' records: literal l encoded as 2|l| + (l < 0), 0 ends a record; 'd' deletes
    binary = b"a\x03\x00a\x07\x00d\x03\x0b\x00a\x00"
    assert drat.is_binary(binary)
    r = drat.check(PHP32, binary)
    assert r.valid and (r.lemmas, r.deletions) == (3, 1)
    assert not drat.check(PHP32, b"a\x00").valid


def test_formula_conflict_needs_only_the_empty_clause():
    r = drat.check(b"p cnf 1 2\n1 0\n-1 0\n", b"0\n")
    assert r.valid and r.core_lemmas == 0


@pytest.mark.parametrize(
    "cnf, message",
    [
        (b"1 2 0\n", "before the 'p cnf' header"),
        (b"p cnf 2 1\n1 3 0\n", "beyond"),
        (b"p cnf 2 2\n1 2 0\n", "header says 2 clauses"),
        (b"p cnf 2 1\n1 x 0\n", "not a clause"),
        (b"p dnf 2 1\n1 0\n", "bad header"),
        (b"p cnf 2 1\n1 2\n", "not terminated"),
    ],
)
def test_bad_cnf(cnf: bytes, message: str):
    with pytest.raises(drat.ProofFormatError, match=message):
        drat.parse_cnf(cnf)


@pytest.mark.parametrize("proof", [b"1 2\n", b"1 x 0\n", b"1 0 2 0\n"])
def test_bad_text_proof(proof: bytes):
    with pytest.raises(drat.ProofFormatError, match="proof line 1"):
        drat.parse_proof(proof)


def test_bad_binary_proof():
    with pytest.raises(drat.ProofFormatError, match="truncated"):
        drat.parse_proof(b"a\x03")
    with pytest.raises(drat.ProofFormatError, match="expected 'a' or 'd'"):
        drat.parse_proof(b"a\x03\x00\x01\x00")


def _write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_cli_exit_codes(tmp_path):
    cnf = _write(tmp_path, "php.cnf.xz", lzma.compress(PHP32))
    good = _write(tmp_path, "good.drat.gz", gzip.compress(PHP32_PROOF, mtime=0))
    bad = _write(tmp_path, "bad.drat", b"0\n")
    r = runner.invoke(app, ["check-proof", cnf, good])
    assert r.exit_code == 0 and "valid" in r.output
    r = runner.invoke(app, ["check-proof", cnf, bad, "--json"])
    assert r.exit_code == 1 and '"failed_lemma": 1' in r.output
    r = runner.invoke(app, ["check-proof", cnf, bad])
    assert r.exit_code == 1 and "lemma 1" in r.output
    r = runner.invoke(app, ["check-proof", cnf, str(tmp_path / "missing.drat")])
    assert r.exit_code == 2 and "cannot read" in r.output
    garbage = _write(tmp_path, "garbage.drat", b"hello 0\n")
    r = runner.invoke(app, ["check-proof", cnf, garbage])
    assert r.exit_code == 2 and "proof line 1" in r.output
    broken = _write(tmp_path, "broken.cnf.xz", lzma.compress(PHP32)[:-9])
    r = runner.invoke(app, ["check-proof", broken, good])
    assert r.exit_code == 2 and "corrupt compressed" in r.output


def test_an_accepted_proof_means_unsatisfiable():
    """Soundness on 5,000 random formulas (7 variables, mostly units and binary clauses) with
    random proofs (units, binary and ternary lemmas, deletions of present clauses, then the
    empty clause): whenever the checker accepts, brute force finds no model. (This found the
    bug of a removed binary lemma left as the reason of a top-level literal.)"""
    accepted = 0
    for cnf, clauses, proof in random_drat_cases(20261123, 5000):
        r = drat.check(cnf, proof)
        if r.valid:
            accepted += 1
            assert not satisfiable(7, clauses), (cnf, proof)
    assert accepted > 100  # the test exercises accepted proofs, not only rejections


# ------------------------------------------------------------------- what the mutants showed


def test_binary_detection_looks_at_the_first_1024_bytes_only():
    assert not drat.is_binary(b"1 0\n" + b"\x7f 0\n")  # DEL is text, 0x80 is not
    assert drat.is_binary(b"1 0\n\x80")
    text = b"1 0\n" * 256  # 1,024 bytes of text
    assert not drat.is_binary(text + b"\x00")
    assert drat.is_binary(text[:-1] + b"\x00")


def test_binary_literals_decode_both_signs_and_refuse_code_1():
    assert drat.parse_proof(b"a\x04\x05\x00d\x82\x01\x00") == [
        drat.Step(drat.ADD, (2, -2), 1),
        drat.Step(drat.DELETE, (65,), 2),
    ]
    with pytest.raises(drat.ProofFormatError, match="invalid literal code 1"):
        drat.parse_proof(b"a\x01\x00")


def test_an_unreadable_line_is_quoted_in_the_error():
    with pytest.raises(drat.ProofFormatError, match="proof line 2: not a lemma: '1 x 0'"):
        drat.parse_proof(b"1 0\n1 x 0\n")
    long = b"1 " * 30 + b"y 0"
    with pytest.raises(drat.ProofFormatError, match=r"'(1 ){20}\.\.\.'"):
        drat.parse_proof(long)


def test_a_line_of_the_longest_length_is_read(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes(b"abc\n" + b"x" * 10)
    assert list(drat.read_lines(path, max_line=10)) == [b"abc", b"x" * 10]
    with pytest.raises(drat.ProofFormatError, match="longer than 9 bytes"):
        list(drat.read_lines(path, max_line=9))


def test_progress_is_reported_every_4096_steps():
    proof = b"3 0\n" * 5000 + b"0\n"
    calls = []
    drat.check(b"p cnf 3 1\n1 2 3 0\n", proof, progress=lambda p, d, t: calls.append((p, d)))
    assert [c for c in calls if c[0] == "forward"] == [("forward", 0), ("forward", 4096)]


def test_a_binary_formula_clause_falsified_while_loading_is_the_conflict():
    r = drat.check(b"p cnf 2 3\n1 0\n2 0\n-1 -2 0\n", b"0\n")
    assert r.valid and r.core_lemmas == 0 and r.core_clauses == 3
