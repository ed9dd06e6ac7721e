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
>>> from minttt.formula.encode import encode
>>> from minttt.formula.variants import Variant
>>> f = encode(build_graph(), Variant("first", "center", "lookup", "entries"))
>>> print(to_wcnf(f, optimum=22).splitlines()[1])
c variant: first-center-lookup-entries (game 3x3, criterion optimal)
"""

from __future__ import annotations

from minttt.errors import InputError
from minttt.formula.encode import Formula
from minttt.vocabulary import Objective

FORMATS = ("wcnf", "smt2")


def _header(formula: Formula, optimum: int | None, bounds: tuple[int, int] | None) -> list[str]:
    v = formula.variant
    counts = formula.counts()
    what = (
        "positions (terminal included)"
        if v.objective is Objective.POSITIONS
        else "entries (lookups)"
    )
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
    """The formula as WCNF text (MaxSAT Evaluation 2022+ format): comments, hard, then soft.

    Written here rather than by PySAT's ``WCNF.to_fp``: that writer (python-sat 1.8/1.9, format
    ``mse22``) puts every soft clause *before* the hard clauses (for tools such as LBX that miscount
    them otherwise), so it cannot give these bytes, and the shipped ``encodings/*.wcnf`` keep the
    hard clauses first, in the order the encoding builds them. The lines are the same: PySAT's
    ``WCNF(from_string=...)`` reads this text back to the formula's clauses (tested).
    """
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
    """The formula in one of :data:`FORMATS` (InputError for another)."""
    if fmt == "wcnf":
        return to_wcnf(formula, optimum, bounds)
    if fmt == "smt2":
        return to_smt2(formula, optimum, bounds)
    raise InputError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


__all__ = [
    "FORMATS",
    "render",
    "to_smt2",
    "to_wcnf",
]
