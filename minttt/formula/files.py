"""Write a :class:`~minttt.formula.encode.Formula` for other solvers: WCNF and SMT-LIB 2.

WCNF follows the MaxSAT Evaluation format (2022 and later): ``h`` before a hard clause, the weight
before a soft clause, ``c`` comment lines. Each objective variable ``v`` is a soft clause
``1 -v 0``; the optimum is the minimal total weight of falsified soft clauses. ``c var N NAME``
comments name every variable.

SMT-LIB 2 declares one Bool per variable, asserts the clauses, and states the objective with
``(minimize (+ (ite v 1 0) ...))`` (the OMT extension read by Z3 and OptiMathSAT).

Both begin with a comment naming the variant, the variable counts and the optimum (or the bounds).
The bytes depend only on the formula and the figures passed in: no dates, no timings.

>>> from minttt.game.graph import build_graph
>>> from minttt.formula.encode import Variant, encode
>>> f = encode(build_graph(), Variant("first", "center", "lookup", "entries"))
>>> print(to_wcnf(f, optimum=22).splitlines()[1])
c variant: first-center-lookup-entries (game 3x3, criterion optimal)
"""

from __future__ import annotations

from pathlib import Path

from minttt.errors import InputError
from minttt.fileio import write_texts_atomic
from minttt.formula.encode import Formula

FORMATS = ("wcnf", "smt2")


def _header(formula: Formula, optimum: int | None, bounds: tuple[int, int] | None) -> list[str]:
    v = formula.variant
    counts = formula.counts()
    what = "positions (terminal included)" if v.objective == "positions" else "entries (lookups)"
    if optimum is not None:
        opt = f"optimum: {optimum} {what}"
    elif bounds is not None:
        opt = f"optimum: unknown, proven bounds {bounds[0]}..{bounds[1]} {what}"
    else:
        opt = "optimum: not computed"
    return [
        "minttt minimal tic-tac-toe table formula",
        f"variant: {v.name} (game {v.game}, criterion {v.criterion})",
        f"encoding: {v.encoding}; objective: minimise the number of {what}",
        f"variables: {formula.num_vars} ({counts['positions']} positions, {counts['edges']} edges,"
        f" {formula.num_vars - counts['positions'] - counts['edges']} auxiliary); "
        f"hard clauses: {len(formula.clauses)}; objective literals: {len(formula.objective)}",
        opt,
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H; "
        "x_/o_ = X/O part; u_H = H in either part",
    ]


def to_wcnf(
    formula: Formula, optimum: int | None = None, bounds: tuple[int, int] | None = None
) -> str:
    """The formula as WCNF text (MaxSAT Evaluation 2022+ format)."""
    lines = ["c " + h for h in _header(formula, optimum, bounds)]
    lines += [f"c var {i} {name}" for i, name in enumerate(formula.names, start=1)]
    lines += ["h " + " ".join(map(str, c)) + " 0" for c in formula.clauses]
    lines += [f"1 {-v} 0" for v in formula.objective]
    return "\n".join(lines) + "\n"


def to_smt2(
    formula: Formula, optimum: int | None = None, bounds: tuple[int, int] | None = None
) -> str:
    """The formula as SMT-LIB 2 with an OMT ``minimize`` objective."""
    names = formula.names

    def lit(x: int) -> str:
        return names[x - 1] if x > 0 else f"(not {names[-x - 1]})"

    lines = ["; " + h for h in _header(formula, optimum, bounds)]
    lines.append("(set-logic QF_LIA)")
    lines += [f"(declare-const {n} Bool)" for n in names]
    for c in formula.clauses:
        body = lit(c[0]) if len(c) == 1 else "(or " + " ".join(lit(x) for x in c) + ")"
        lines.append(f"(assert {body})")
    terms = " ".join(f"(ite {names[v - 1]} 1 0)" for v in formula.objective)
    lines.append(f"(minimize (+ 0 {terms}))")
    lines.append("(check-sat)")
    lines.append("(get-objectives)")
    return "\n".join(lines) + "\n"


def render(
    formula: Formula, fmt: str, optimum: int | None = None, bounds: tuple[int, int] | None = None
) -> str:
    if fmt == "wcnf":
        return to_wcnf(formula, optimum, bounds)
    if fmt == "smt2":
        return to_smt2(formula, optimum, bounds)

    raise InputError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


def write_encodings(
    out_dir: str | Path = "encodings", variants: list | None = None, *, final: bool = False
) -> list[Path]:
    """Write every standard variant as ``<variant>.wcnf`` and ``<variant>.smt2`` with its optimum.

    Each optimum is proven by RC2 and checked against Z3's Optimize before it is written.
    Returns the paths written (sorted); the bytes are deterministic.
    """
    from minttt.formula.encode import encode
    from minttt.game.graph import build_graph
    from minttt.solvers.api import cross_check, solve, standard_variants

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: is a file; --all writes into a folder")
    graph = build_graph()
    texts: dict[Path, str] = {}
    for variant in variants or standard_variants():
        formula = encode(graph, variant)
        sol = cross_check(formula, solve(formula, solver="rc2"))
        opt = sol.size if sol.optimal else None
        bounds = (sol.lower_bound, sol.size or 0)
        for fmt in FORMATS:
            texts[out / f"{variant.name}.{fmt}"] = render(formula, fmt, opt, bounds)
    return sorted(write_texts_atomic(texts, final=final))  # every file or none
