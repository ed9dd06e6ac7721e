"""The DRAT checker against a naive one, and the readers' checks, each tested directly.

The checker works backward and keeps the top-level closure of unit propagation incrementally: it
ignores the deletion of a clause that is the reason of a top-level literal, and when it takes a
lemma away it unassigns that lemma's wave of propagation without propagating again (as drat-trim
does). Those are shortcuts; here a plain forward checker (every lemma RUP against the clauses
present, propagation from scratch each time) is the reference, on random proofs it accepts.
"""

from __future__ import annotations

import gzip
import lzma
import random
from pathlib import Path

import pytest
from proof_helpers import PHP32, PHP32_PROOF, satisfiable

from minttt.proof import drat, lrat


def _conflicts(clauses: list[tuple[int, ...]], assumed: set[int]) -> bool:
    """Does unit propagation from ``assumed`` over ``clauses`` (from scratch) reach a conflict?"""
    true = set(assumed)
    changed = True
    while changed:
        changed = False
        for c in clauses:
            if any(x in true for x in c):
                continue
            free = [x for x in c if -x not in true]
            if not free:
                return True
            if len(free) == 1:
                true.add(free[0])
                changed = True
    return False


def _naive_rup(clauses: list[tuple[int, ...]], lemma: tuple[int, ...]) -> bool:
    assumed = {-x for x in lemma}
    return any(-x in assumed for x in assumed) or _conflicts(clauses, assumed)


def _valid_forward_proof(rng: random.Random, n: int) -> tuple[bytes, list[str]] | None:
    """A random 3-CNF over ``n`` variables and a proof the naive forward checker accepts: RUP
    lemmas (random clauses of 1-3 literals, kept when RUP), deletions of present clauses
    (lemmas more often: units and reasons among them), then the empty clause once it is RUP.
    None when the formula is satisfiable or the walk stalls."""
    clauses = [_clause(rng, n, 3) for _ in range(6 * n)]
    if satisfiable(n, clauses):
        return None
    kept, lemmas, lines = list(clauses), [], []
    for _ in range(100):
        present = kept + lemmas
        if _conflicts(present, set()):
            cnf = f"p cnf {n} {len(clauses)}\n" + "".join(
                " ".join(map(str, c)) + " 0\n" for c in clauses
            )
            return cnf.encode(), [*lines, "0"]
        if rng.random() < 0.25:
            pool = lemmas if lemmas and rng.random() < 0.7 else kept
            gone = pool.pop(rng.randrange(len(pool)))
            lines.append("d " + " ".join(map(str, gone)) + " 0")
            continue
        lemma = _clause(rng, n, rng.choice((1, 1, 2, 2, 3)))
        if _naive_rup(present, lemma):
            lemmas.append(lemma)
            lines.append(" ".join(map(str, lemma)) + " 0")
    return None


def _clause(rng: random.Random, n: int, size: int) -> tuple[int, ...]:
    return tuple(v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), size))


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_every_proof_a_naive_forward_checker_accepts_is_accepted():
    """Completeness of the shortcuts: 400 random UNSAT 3-CNFs (9 variables) with random proofs
    a plain forward RUP checker accepts, deletions of reasons and units among them; the
    backward checker accepts each, and so does minttt.lrat the LRAT it writes."""
    rng = random.Random(20261126)
    checked = ignored = 0
    while checked < 400:
        case = _valid_forward_proof(rng, 9)
        if case is None:
            continue
        cnf, lines = case
        proof = ("\n".join(lines) + "\n").encode()
        r = drat.check(cnf, proof, lrat=True)
        assert r.valid, (cnf, proof, r.message)
        assert r.lrat is not None and lrat.check(cnf, r.lrat).valid
        checked += 1
        ignored += r.ignored_deletions
    assert ignored > 30  # deletions of reasons were met, and ignored


# ----------------------------------------------------------------------------- the readers


def test_a_binary_proof_must_start_with_a_record(tmp_path: Path):
    """read_proof refuses a binary proof whose first byte is not 'a' or 'd', from the first
    piece read; a binary proof starting with 'd' is read whole."""
    bad = tmp_path / "bad.drat"
    bad.write_bytes(b"\x01\x03\x00")
    with pytest.raises(drat.ProofFormatError, match="byte 0: expected 'a' or 'd'"):
        drat.read_proof(bad)
    good = tmp_path / "good.drat"
    good.write_bytes(b"d\x03\x0b\x00a\x03\x00")
    assert drat.read_proof(good) == b"d\x03\x0b\x00a\x03\x00"
    text = tmp_path / "text.drat"
    text.write_bytes(PHP32_PROOF)
    assert drat.read_proof(text) == PHP32_PROOF


def test_gzip_members_and_their_ends(tmp_path: Path):
    """Every gzip member is read; a stream cut short is refused, not read as shorter."""
    whole = gzip.compress(PHP32_PROOF[:7], mtime=0) + gzip.compress(PHP32_PROOF[7:], mtime=0)
    path = tmp_path / "two.drat.gz"
    path.write_bytes(whole)
    assert drat.read_bytes(path) == PHP32_PROOF
    one = gzip.compress(PHP32_PROOF, mtime=0)
    path.write_bytes(one)
    assert drat.read_bytes(path) == PHP32_PROOF
    path.write_bytes(one[:-4])  # the size field of the trailer cut off
    with pytest.raises(drat.ProofFormatError, match="corrupt compressed"):
        drat.read_bytes(path)
    path.write_bytes(one[: len(one) // 2])
    with pytest.raises(drat.ProofFormatError, match="gzip stream ends early"):
        drat.read_bytes(path)


def test_xz_cut_short_is_refused(tmp_path: Path):
    data = lzma.compress(PHP32)
    path = tmp_path / "php.cnf.xz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(drat.ProofFormatError, match="corrupt compressed|ends early"):
        drat.read_bytes(path, text=True)


def test_a_bomb_is_refused_once_past_64_mib(tmp_path: Path):
    """80 MiB of zeros in about 80 kB: past 64 MiB it inflates more than 200 times."""
    bomb = tmp_path / "bomb.drat.gz"
    bomb.write_bytes(gzip.compress(bytes(80 << 20), 1))
    with pytest.raises(drat.ProofFormatError, match="refused as a bomb"):
        drat.read_bytes(bomb)
