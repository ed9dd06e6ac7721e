"""The checkers' fast paths: the LRAT checker's RUP pass (lrat._rup) judges as
_Checker.implied alone does, on random proofs and their corruptions; the DRAT text reader's
bound on literals (checked by max and min, not per literal)."""

from __future__ import annotations

import random

import pytest
from proof_helpers import random_drat_cases

from minttt.proof import drat, lrat


def _lrat_verdict(cnf: bytes, proof: bytes) -> tuple[bool, str, list[int], int]:
    r = lrat.check(cnf, proof)
    return r.valid, r.message, r.core_formula, r.rat_lemmas


def _corruptions(proof: bytes, rng: random.Random) -> list[bytes]:
    """Each line of ``proof`` changed in one way: a hint dropped, repeated, two swapped, a hint
    renamed, a negative hint put in, one added after the conflict, a literal flipped, repeated
    or its negation added (a tautology)."""
    lines = proof.decode().splitlines()
    out = []
    for i, line in enumerate(lines):
        nums = line.split()
        if nums[1] == "d":
            continue
        zero = nums.index("0", 1)
        lits, hints = nums[1:zero], nums[zero + 1 : -1]
        changed = []
        if hints:
            k = rng.randrange(len(hints))
            changed.append(lits + ["0"] + hints[:k] + hints[k + 1 :])
            changed.append(lits + ["0"] + hints[:k] + [str(rng.randint(1, 40))] + hints[k + 1 :])
            changed.append(lits + ["0"] + hints[:k] + [f"-{rng.randint(1, 12)}"] + hints[k:])
            changed.append(lits + ["0"] + hints[: k + 1] + hints[k:])  # then satisfied
            changed.append(lits + ["0"] + hints + [str(rng.randint(1, 12))])  # after the conflict
        if len(hints) > 1:
            a, b = rng.sample(range(len(hints)), 2)
            swapped = list(hints)
            swapped[a], swapped[b] = swapped[b], swapped[a]
            changed.append(lits + ["0"] + swapped)
        if lits:
            k = rng.randrange(len(lits))
            flipped = lits[:k] + [str(-int(lits[k]))] + lits[k + 1 :]
            changed.append(flipped + ["0"] + hints)
            changed.append(lits + [str(-int(lits[k]))] + ["0"] + hints)  # a tautology
            changed.append(lits + [lits[k]] + ["0"] + hints)
        for words in changed:
            new = " ".join([nums[0], *words, "0"])
            out.append("\n".join([*lines[:i], new, *lines[i + 1 :]]).encode() + b"\n")
    return out


def test_the_lrat_fast_pass_judges_as_the_reference(monkeypatch: pytest.MonkeyPatch):
    rng = random.Random(20261126)
    cases = valid = 0
    for cnf, _, proof in random_drat_cases(20261126, 2000):
        r = drat.check(cnf, proof, lrat=True)
        if not (r.valid and r.lrat):
            continue
        for candidate in [r.lrat, *_corruptions(r.lrat, rng)]:
            fast = _lrat_verdict(cnf, candidate)
            with monkeypatch.context() as m:
                m.setattr(lrat, "_rup", lambda db, lits, hints: 0)  # the reference path alone
                reference = _lrat_verdict(cnf, candidate)
            assert fast == reference, candidate
            cases += 1
            valid += fast[0]
    assert cases > 1000 and 200 < valid < cases - 500, (cases, valid)  # both verdicts, often


def test_a_tautology_uses_none_of_its_hints():
    cnf = b"p cnf 3 5\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n-3 0\n"
    r = lrat.check(cnf, b"6 3 -3 0 5 5 0\n7 2 0 1 2 0\n8 0 7 3 4 0\n")
    assert r.message == "valid: 3 lemmas checked"
    assert r.core_formula == [0, 1, 2, 3]  # not clause 5, the tautology's (needless) hint


@pytest.mark.parametrize(
    "line, past",
    [(b"1 2147483648 0", True), (b"-2147483648 1 0", True), (b"-2147483647 1 0", False)],
)
def test_a_text_proof_literal_past_the_largest_variable_is_refused(line: bytes, past: bool):
    if past:
        with pytest.raises(drat.ProofFormatError, match="beyond the largest variable"):
            drat.parse_proof(line + b"\n0\n")
    else:
        assert drat.parse_proof(line + b"\n0\n")[0].lits == (-2147483647, 1)
