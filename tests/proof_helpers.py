"""Hand-made and random formulas with DRAT proofs, shared by the DRAT and LRAT checkers' tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

# pigeonhole 3 -> 2: p(i, j) = pigeon i in hole j is variable 2 * (i - 1) + j
PHP32 = b"""c pigeonhole 3 -> 2
p cnf 6 9
1 2 0
3 4 0
5 6 0
-1 -3 0
-1 -5 0
-3 -5 0
-2 -4 0
-2 -6 0
-4 -6 0
"""
# -1: pigeon 1 in hole 1 sends 2 and 3 to hole 2. -3: then pigeon 1 in hole 2, 3 too. Then 2, 4.
PHP32_PROOF = b"-1 0\n-3 0\nd -1 -5 0\n0\n"


def random_drat_cases(
    seed: int, count: int, n: int = 7
) -> Iterator[tuple[bytes, list[tuple[int, ...]], bytes]]:
    """``count`` cases ``(cnf, clauses, proof)`` over ``n`` variables: 3-12 clauses, mostly units
    and binary ones; 1-7 proof steps (units, binary and ternary lemmas, deletions of present
    clauses), then the empty clause. Most proofs are invalid; enough are accepted to matter."""
    rng = random.Random(seed)

    def clause(size: int) -> tuple[int, ...]:
        return tuple(v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), size))

    for _ in range(count):
        clauses = [clause(rng.choice((1, 2, 2, 2, 3, 3))) for _ in range(rng.randint(3, 12))]
        lines, added = [], list(clauses)
        for _ in range(rng.randint(1, 7)):
            if rng.random() < 0.2:
                lines.append("d " + " ".join(map(str, rng.choice(added))) + " 0\n")
            else:
                lemma = clause(rng.choice((1, 2, 2, 3)))
                added.append(lemma)
                lines.append(" ".join(map(str, lemma)) + " 0\n")
        cnf = f"p cnf {n} {len(clauses)}\n" + "".join(
            " ".join(map(str, c)) + " 0\n" for c in clauses
        )
        yield cnf.encode(), clauses, ("".join(lines) + "0\n").encode()


def satisfiable(n: int, clauses: list[tuple[int, ...]]) -> bool:
    """Brute force over the 2^n assignments of variables 1..n."""
    for bits in range(1 << n):
        if all(any((x > 0) == bool(bits >> (abs(x) - 1) & 1) for x in c) for c in clauses):
            return True
    return False
