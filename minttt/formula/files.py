"""Write a formula for other solvers: WCNF and SMT-LIB 2, from either form (a
:class:`~minttt.formula.encode.Formula`, or an :class:`~minttt.formula.arrays.ArrayFormula` with
its graph, for the boards beyond 3x3 the array form encodes in a fraction of the time).

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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from minttt.errors import InputError
from minttt.formula.encode import Formula
from minttt.formula.variants import Variant
from minttt.vocabulary import Objective

if TYPE_CHECKING:
    from minttt.formula.arrays import ArrayFormula
    from minttt.game.arrays import ArrayGraph

FORMATS = ("wcnf", "smt2")


@dataclass(frozen=True)
class _Text:
    """What the writers need of a formula of either form."""

    variant: Variant
    num_vars: int
    counts: dict[str, int]
    names: Sequence[str]
    clauses: Iterable[Sequence[int]]
    n_clauses: int
    objective: Sequence[int]


def _text(formula: Formula | ArrayFormula, graph: ArrayGraph | None) -> _Text:
    """``formula`` as the writers read it; an array formula's variables are named from its
    ``graph`` as the object form names them (``v_H``, ``e_H_M``)."""
    if isinstance(formula, Formula):
        return _Text(
            formula.variant,
            formula.num_vars,
            formula.counts(),
            formula.names,
            formula.clauses,
            len(formula.clauses),
            formula.objective,
        )
    if graph is None:
        raise InputError("an array formula is written with its graph")
    hashes = graph.hash[formula.pos_node].tolist()
    parents = graph.hash[graph.parent[formula.edge_id]].tolist()
    moves = graph.move[formula.edge_id].tolist()
    names = [f"v_{h}" for h in hashes] + [f"e_{h}_{m}" for h, m in zip(parents, moves, strict=True)]
    clauses = (c for chunk in formula.chunks() for c in chunk)
    counts = {"positions": formula.positions, "edges": formula.edges}
    objective = formula.objective.tolist()
    return _Text(
        formula.variant, formula.num_vars, counts, names, clauses, formula.num_clauses, objective
    )


def _header(formula: _Text, optimum: int | None, bounds: tuple[int, int] | None) -> list[str]:
    v = formula.variant
    counts = formula.counts
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
        f"hard clauses: {formula.n_clauses}; objective literals: {len(formula.objective)}",
        opt,
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H; "
        "x_/o_ = X/O part; u_H = H in either part",
    ]


def to_wcnf(
    formula: Formula | ArrayFormula,
    optimum: int | None = None,
    bounds: tuple[int, int] | None = None,
    graph: ArrayGraph | None = None,
) -> str:
    """The formula as WCNF text (MaxSAT Evaluation 2022+ format): comments, hard, then soft.

    Written here rather than by PySAT's ``WCNF.to_fp``: that writer (python-sat 1.8/1.9, format
    ``mse22``) puts every soft clause *before* the hard clauses (for tools such as LBX that miscount
    them otherwise), so it cannot give these bytes, and the shipped ``encodings/*.wcnf`` keep the
    hard clauses first, in the order the encoding builds them. The lines are the same: PySAT's
    ``WCNF(from_string=...)`` reads this text back to the formula's clauses (tested). An array
    formula needs its ``graph`` (the variables' names).
    """
    text = _text(formula, graph)
    lines = ["c " + h for h in _header(text, optimum, bounds)]
    lines += [f"c var {i} {name}" for i, name in enumerate(text.names, start=1)]
    lines += ["h " + " ".join(map(str, c)) + " 0" for c in text.clauses]
    lines += [f"1 {-v} 0" for v in text.objective]
    return "\n".join(lines) + "\n"


def to_smt2(
    formula: Formula | ArrayFormula,
    optimum: int | None = None,
    bounds: tuple[int, int] | None = None,
    graph: ArrayGraph | None = None,
) -> str:
    """The formula as SMT-LIB 2 with an OMT ``minimize`` objective (an array formula with its
    ``graph``)."""
    text = _text(formula, graph)
    names = text.names

    def lit(x: int) -> str:
        return names[x - 1] if x > 0 else f"(not {names[-x - 1]})"

    lines = ["; " + h for h in _header(text, optimum, bounds)]
    lines.append("(set-logic QF_LIA)")
    lines += [f"(declare-const {n} Bool)" for n in names]
    for c in text.clauses:
        body = lit(c[0]) if len(c) == 1 else "(or " + " ".join(lit(x) for x in c) + ")"
        lines.append(f"(assert {body})")
    terms = " ".join(f"(ite {names[v - 1]} 1 0)" for v in text.objective)
    lines.append(f"(minimize (+ 0 {terms}))")
    lines.append("(check-sat)")
    lines.append("(get-objectives)")
    return "\n".join(lines) + "\n"


def render(
    formula: Formula | ArrayFormula,
    fmt: str,
    optimum: int | None = None,
    bounds: tuple[int, int] | None = None,
    graph: ArrayGraph | None = None,
) -> str:
    """The formula in one of :data:`FORMATS` (InputError for another; an array formula with its
    ``graph``)."""
    if fmt == "wcnf":
        return to_wcnf(formula, optimum, bounds, graph)
    if fmt == "smt2":
        return to_smt2(formula, optimum, bounds, graph)
    raise InputError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


__all__ = [
    "FORMATS",
    "render",
    "to_smt2",
    "to_wcnf",
]
