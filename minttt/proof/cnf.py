"""The certificate formula: "a table of size at most k-1 exists" as DIMACS CNF with comments.

The hard clauses of the variant's formula come first, in the encoder's order, then
``sum(bound literals) <= k - 1`` as PySAT's ``CardEnc.atmost`` (:data:`CARD_ENCODING`). Comment
lines state the claim, the variant, every variable's name and the bounded literals (``c
objective ...`` lines, the last ending in ``0``). Every comment line is at most
:data:`MAX_COMMENT` bytes: drat-trim's ``lrat-check`` stops reading a CNF at a longer one (and
still says the proof checks), so a certificate must not rely on it. The bytes depend only on the
variant and k.

The bound literals (:func:`bound_literals`) are the objective's, except in two reductions, each
stated in the CNF's ``reduction`` comment:

* an object formula of :data:`BOUND_DEPTH` bounds only its positions at most that many plies deep
  (a subset: a table with at most k-1 positions has at most k-1 such positions);
* an array formula (:mod:`minttt.formula.arrays`) with the entries objective bounds the table
  positions that have a lookup clause instead of the edges (a model with at most k-1 true edges
  has at most k-1 true such positions, each needing an edge of its own): 108,850 literals on
  4x4 k=3 instead of 343,688.

>>> from minttt.formula.encode import encode
>>> from minttt.formula.variants import Variant
>>> from minttt.game.graph import build_graph
>>> text = cnf_text(encode(build_graph(), Variant.parse("first-center-lookup-entries")), 22)
>>> text.splitlines()[3]
'c claim: a table with at most 21 entries (lookups) exists (minimum 22 minus 1)'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from pysat.card import CardEnc, EncType

from minttt.errors import InputError
from minttt.formula.arrays import ArrayFormula, Clauses
from minttt.formula.encode import Formula
from minttt.game.arrays import ArrayGraph
from minttt.game.graph import Graph
from minttt.proof.totalizer import Totalizers, apply
from minttt.vocabulary import Objective

MAX_COMMENT = 1000  # bytes of one comment line, newline excluded (lrat-check reads 1,024)
CARD_ENCODING = "kmtotalizer"  # smallest proofs and fastest checks of PySAT's encodings (bench)
# Variants whose certificate bounds only the positions at most this many plies deep: a subset of
# the objective literals, so a table with at most k-1 positions satisfies the bound too. The full
# bound (243,345 literals on 4x4) is out of CaDiCaL's reach; at depth 7 (32,580) it is refuted.
BOUND_DEPTH = {"first-any-tree-positions@mnk:4,4,3": 7}


def objective_lines(lits: list[int]) -> list[str]:
    """The bounded literals as ``c objective`` comment lines of at most :data:`MAX_COMMENT` bytes,
    the last ending in ``0``.

    >>> objective_lines([1, -2, 3])
    ['c objective 1 -2 3 0']
    >>> max(map(len, objective_lines(list(range(1, 2000))))) <= MAX_COMMENT
    True
    """
    lines, line = [], "c objective"
    for word in [*map(str, lits), "0"]:
        if len(line) + 1 + len(word) > MAX_COMMENT:
            lines.append(line)
            line = "c objective"
        line += " " + word
    return [*lines, line]


def bound_literals(formula: Formula | ArrayFormula) -> list[int]:
    """The literals the certificate bounds: the objective's, or one of the two reductions of the
    module docstring (a depth subset of :data:`BOUND_DEPTH`; an array formula's positions with a
    lookup clause)."""
    if isinstance(formula, ArrayFormula):
        return [int(v) for v in formula.soft()[0].tolist()]
    depth = BOUND_DEPTH.get(formula.variant.name)
    if depth is None:
        return list(formula.objective)
    if (
        formula.graph is None
        or len(formula.parts) != 1
        or formula.variant.objective is not Objective.POSITIONS
    ):
        raise InputError(f"{formula.variant.name}: a depth bound needs one part's positions")
    graph = formula.graph
    deep = {v for h, v in formula.parts[0].positions.items() if graph.depth(h) > depth}
    return [v for v in formula.objective if v not in deep]


def _cardinality(lits: list[int], bound: int, top: int) -> tuple[int, list[list[int]]]:
    """``(variables, clauses)`` of ``sum(lits) <= bound`` above variable ``top``."""
    if bound < 0:
        raise InputError(f"bound must be >= 0, got {bound}")
    card = CardEnc.atmost(lits, bound=bound, top_id=top, encoding=getattr(EncType, CARD_ENCODING))
    return max(top, card.nv), [list(c) for c in card.clauses]


def bound_clauses(formula: Formula, bound: int) -> tuple[int, list[list[int]]]:
    """``(variables, clauses)`` of an object formula's hard clauses plus the bound."""
    nvars, card = _cardinality(bound_literals(formula), bound, formula.num_vars)
    return nvars, [list(c) for c in formula.clauses] + card


def _cardinality_lines(formula: Formula, bound: int, card: int, nvars: int) -> list[str]:
    """The header lines that state the bound (and the reduction, for a subset of literals)."""
    literals = bound_literals(formula)
    aux = f"auxiliary variables {formula.num_vars + 1}..{nvars}"
    how = f"python-sat CardEnc.atmost(encoding={CARD_ENCODING}), {card} clauses, {aux}"
    depth = BOUND_DEPTH.get(formula.variant.name)
    if depth is None:
        return [
            f"cardinality: at most {bound} of the {len(formula.objective)} objective literals "
            f"true, {how}"
        ]
    return [
        f"cardinality: at most {bound} of the {len(literals)} objective literals of positions at "
        f"most {depth} plies deep (of {len(formula.objective)}) true, {how}",
        f"reduction: a table with at most {bound} positions has at most {bound} positions at "
        f"most {depth} plies deep, so UNSAT here refutes the positions bound too",
    ]


def cnf_text(formula: Formula, minimum: int) -> str:
    """The certificate formula of an object ``formula`` at ``minimum - 1`` as DIMACS text."""
    v = formula.variant
    bound = minimum - 1
    nvars, clauses = bound_clauses(formula, bound)
    what = "positions (terminal included)" if v.objective == "positions" else "entries (lookups)"
    counts = formula.counts()
    lines = [
        "minttt certificate formula: UNSATISFIABLE means no table of the variant has fewer than "
        f"{minimum} {what}",
        f"variant: {v.name} (game {v.game}, criterion {v.criterion}, role {v.role.word}, "
        f"opening {v.opening or 'none (O answers X)'})",
        f"encoding: {v.encoding}; objective: the number of {what}",
        f"claim: a table with at most {bound} {what} exists (minimum {minimum} minus 1)",
        f"hard clauses: {len(formula.clauses)} over variables 1..{formula.num_vars} "
        f"({counts['positions']} positions, {counts['edges']} edges, "
        f"{formula.num_vars - counts['positions'] - counts['edges']} shared-position)",
        *_cardinality_lines(formula, bound, len(clauses) - len(formula.clauses), nvars),
        "produced by: minttt certify (minttt.encode.encode + python-sat CardEnc.atmost); the "
        "hard clauses come first, in encode's order",
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H; "
        "x_/o_ = X/O part; u_H = H in either part",
    ]
    out = ["c " + h for h in lines]
    out += [f"c var {i} {name}" for i, name in enumerate(formula.names, start=1)]
    out += objective_lines(bound_literals(formula))
    out.append(f"p cnf {nvars} {len(clauses)}")
    out += [" ".join(map(str, c)) + " 0" for c in clauses]
    return "\n".join(out) + "\n"


def _array_names(
    graph: ArrayGraph, formula: ArrayFormula, used: np.ndarray | None = None
) -> Iterator[str]:
    """``c var`` comment lines: ``v_H`` per position variable, ``e_H_M`` per edge variable
    (only the variables of ``used``, a bool array indexed by variable, when given: a cut
    formula names the ones its clauses hold)."""
    for i, node in enumerate(formula.pos_node.tolist(), start=1):
        if used is None or used[i]:
            yield f"c var {i} v_{int(graph.hash[node])}"
    parents = graph.parent[formula.edge_id].tolist()
    moves = graph.move[formula.edge_id].tolist()
    base = formula.positions + 1
    for j, (p, m) in enumerate(zip(parents, moves, strict=True)):
        if used is None or used[base + j]:
            yield f"c var {base + j} e_{int(graph.hash[p])}_{m}"


def _array_header(
    formula: ArrayFormula, minimum: int, bounded: int, card: int, nvars: int
) -> list[str]:
    """The comment lines that state the claim of an array formula's certificate."""
    v = formula.variant
    bound = minimum - 1
    return [
        "minttt certificate formula: UNSATISFIABLE means no table of the variant has fewer than "
        f"{minimum} entries (lookups)",
        f"variant: {v.name} (game {v.game}, criterion {v.criterion}, role {v.role.word}, "
        f"opening {v.opening or 'none (O answers X)'})",
        "encoding: lookup (array form, minttt.formula.arrays.encode_arrays); objective: the "
        "number of entries (lookups)",
        f"claim: a table with at most {bound} entries exists (minimum {minimum} minus 1)",
        f"hard clauses: {formula.num_clauses} over variables 1..{formula.num_vars} "
        f"({formula.positions} positions, {formula.edges} edges)",
        f"cardinality: at most {bound} of the {bounded} table positions that have a lookup clause "
        f"true (the negated heads of the -p OR e.. clauses), python-sat "
        f"CardEnc.atmost(encoding=kmtotalizer), {card} clauses, auxiliary variables "
        f"{formula.num_vars + 1}..{nvars}",
        "reduction: a model with at most k-1 true edges has at most k-1 true positions with a "
        "lookup clause (each needs a true edge of its own), so UNSAT here refutes the entries "
        "bound too",
        "produced by: minttt certify (minttt.proof.cnf.array_cnf: encode_arrays + python-sat "
        "CardEnc.atmost); the hard clauses come first: units, -e OR p, -p OR e..",
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H",
    ]


def _dimacs(lines: list[str], clauses: Clauses) -> bytes:
    """``lines`` (comments and the ``p cnf`` line), then the clauses, as DIMACS bytes."""
    return b"".join([("\n".join(lines) + "\n").encode("ascii"), *clauses.dimacs()])


def array_cnf(graph: ArrayGraph, formula: ArrayFormula, minimum: int) -> tuple[bytes, Clauses]:
    """The certificate formula of an array ``formula`` at ``minimum - 1`` (DIMACS with comments),
    and its clauses (hard clauses first, then the cardinality encoding)."""
    if minimum < 1:
        raise InputError(f"minimum must be >= 1, got {minimum}")
    lits = bound_literals(formula)
    nvars, card = _cardinality(lits, minimum - 1, formula.num_vars)
    clauses = formula.clauses(card)
    head = _array_header(formula, minimum, len(lits), len(card), nvars)
    out = ["c " + h for h in head]
    out += _array_names(graph, formula)
    out += objective_lines(lits)
    out.append(f"p cnf {nvars} {len(clauses)}")
    return _dimacs(out, clauses), clauses


def level_literals(
    graph: ArrayGraph, formula: ArrayFormula, depths: Sequence[int] | None
) -> tuple[ArrayFormula, list[int]]:
    """The formula a lower bound at ``depths`` (table depths; ``None``: every level) refutes
    below, and the literals it bounds: the formula cut below the deepest of them
    (:meth:`~minttt.formula.arrays.ArrayFormula.cut`: every table satisfies it) and the table
    positions with a lookup clause at those depths (a table's entries there)."""
    heads = formula.heads()
    if depths is None:
        return formula, [int(v) for v in np.sort(heads).tolist()]
    at = np.isin(formula.head_depths(graph), np.asarray(list(depths), dtype=np.int64))
    return formula.cut(graph, max(depths)), [int(v) for v in np.sort(heads[at]).tolist()]


def lower_cnf(
    graph: ArrayGraph, formula: ArrayFormula, lower: int, depths: Sequence[int] | None = None
) -> tuple[bytes, int, Clauses]:
    """The certificate formula of a lower bound: "a table with at most ``lower - 1`` entries
    (at ``depths``; ``None``: in all) exists", as ``(DIMACS text with comments, variables,
    clauses)``. Unsatisfiable means every table has at least ``lower`` entries there: a table's
    own assignment satisfies the cut formula (:func:`level_literals`), and its true literals
    there are its entries at those depths. The sum of such bounds over disjoint sets of depths
    bounds a whole table."""
    if lower < 1:
        raise InputError(f"a lower bound must be >= 1, got {lower}")
    cut, lits = level_literals(graph, formula, depths)
    nvars, card = _cardinality(lits, lower - 1, cut.num_vars)
    clauses = cut.clauses(card)
    where = "in all" if depths is None else "at depths " + ",".join(map(str, depths))
    head = [
        "minttt lower-bound formula: UNSATISFIABLE means every table of the variant has at least "
        f"{lower} entries (lookups) {where}",
        _variant_line(formula),
        f"claim: a table with at most {lower - 1} entries {where} exists",
        _hard_line(cut, depths),
        f"cardinality: at most {lower - 1} of the {len(lits)} table positions with a lookup "
        f"clause {where} true, python-sat CardEnc.atmost(encoding={CARD_ENCODING}), "
        f"{len(card)} clauses, auxiliary variables {cut.num_vars + 1}..{nvars}",
        "produced by: minttt.proof.cnf.lower_cnf; the hard clauses come first: units, -e OR p, "
        "-p OR e..",
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H",
    ]
    return _lower_text(graph, cut, lits, head, nvars, clauses), nvars, clauses


def _variant_line(formula: ArrayFormula) -> str:
    """A lower-bound formula's header line naming its variant."""
    v = formula.variant
    return (
        f"variant: {v.name} (game {v.game}, criterion {v.criterion}, role {v.role.word}, "
        f"opening {v.opening or 'none (O answers X)'})"
    )


def _hard_line(cut: ArrayFormula, depths: Sequence[int] | None) -> str:
    """A lower-bound formula's header line on its hard clauses (the formula, cut)."""
    where = (
        ")"
        if depths is None
        else f", cut below depth {max(depths)}: what every table satisfies above it)"
    )
    return (
        f"hard clauses: {cut.num_clauses} over variables 1..{cut.num_vars} (the lookup formula, "
        "array form" + where
    )


def _lower_text(
    graph: ArrayGraph,
    cut: ArrayFormula,
    lits: list[int],
    head: list[str],
    nvars: int,
    clauses: Clauses,
) -> bytes:
    """A lower-bound formula as DIMACS text: ``head`` and the names as comments, then clauses."""
    used = np.zeros(cut.num_vars + 1, dtype=bool)
    used[np.abs(cut.clauses_csr()[0])] = True
    out = ["c " + h for h in head]
    out += _array_names(graph, cut, used)
    out += objective_lines(lits)
    out.append(f"p cnf {nvars} {len(clauses)}")
    return _dimacs(out, clauses)


def cores_cnf(
    graph: ArrayGraph,
    formula: ArrayFormula,
    cores: Sequence[Sequence[int]],
    depths: Sequence[int] | None = None,
) -> tuple[bytes, int, Clauses]:
    """The certificate formula of a lower bound by disjoint cores: "a table hits at most
    ``len(cores) - 1`` of these disjoint groups of table positions" (at ``depths``), as
    ``(DIMACS text with comments, variables, clauses)``. Group ``i`` gets a variable ``g_i``
    implied by each of its positions (``-p OR g_i``), and at most ``len(cores) - 1`` of the
    ``g_i`` are true. A table with fewer entries than groups hits fewer groups (they are
    disjoint; ``g_i`` true exactly where it hits group ``i``) and satisfies the formula, so
    unsatisfiable means every table has at least ``len(cores)`` entries there. Each group is a
    *core* (every table holds one of its positions), which the proof shows one by one: the
    formula, no cardinality, refutes "none of them"."""
    cut, lits = level_literals(graph, formula, depths)
    allowed = set(lits)
    seen: set[int] = set()
    for core in cores:
        if not core or not set(core) <= allowed or seen & set(core):
            raise InputError("cores must be non-empty, disjoint sets of bounded table positions")
        seen |= set(core)
    k, top = len(cores), cut.num_vars
    groups = list(range(top + 1, top + k + 1))
    implied = [[-p, g] for g, core in zip(groups, cores, strict=True) for p in sorted(core)]
    nvars, card = _cardinality(groups, k - 1, top + k)
    clauses = cut.clauses([*implied, *card])
    where = "in all" if depths is None else "at depths " + ",".join(map(str, depths))
    head = [
        "minttt lower-bound formula, by disjoint cores: UNSATISFIABLE means every table of the "
        f"variant has at least {k} entries (lookups) {where}",
        _variant_line(formula),
        f"claim: a table hits at most {k - 1} of {k} disjoint groups of table positions {where}",
        _hard_line(cut, depths),
        f"groups: variables {top + 1}..{top + k}, group i implied by each of its table positions "
        f"(-p OR g_i, {len(implied)} clauses; every position in one group at most)",
        f"cardinality: at most {k - 1} of the {k} group variables true, python-sat "
        f"CardEnc.atmost(encoding={CARD_ENCODING}), {len(card)} clauses, auxiliary variables "
        f"{top + k + 1}..{nvars}",
        "soundness: a table with at most "
        f"{k - 1} entries {where} hits at most {k - 1} groups; g_i = it hits group i satisfies all",
        "produced by: minttt.proof.cnf.cores_cnf; the hard clauses come first: units, -e OR p, "
        "-p OR e..",
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H",
    ]
    return _lower_text(graph, cut, lits, head, nvars, clauses), nvars, clauses


def relaxation_clauses(
    log: Sequence[Sequence[Any]], bounded: Sequence[int], allowed: set[int], top: int
) -> tuple[int, list[list[int]]]:
    """``(variables, clauses)`` of the totalizers of ``log`` made again from variable ``top + 1``
    on (:func:`minttt.proof.totalizer.apply`, in order), checked as a sound relaxation of the
    table positions ``allowed`` (InputError otherwise): each totalizer's inputs are positions or
    outputs of earlier totalizers' roots, every literal is input to one totalizer at most, and
    the ``bounded`` literals are distinct positions or root outputs that are input to none.
    Then a table's entries there are at least the number of its true bounded literals
    (:func:`relaxed_cnf`)."""
    tot = Totalizers(top)
    clauses: list[list[int]] = []
    roots: set[int] = set()
    used: set[int] = set()
    for op in log:
        index, made = apply(tot, op)  # refuses an operation that is not one
        if op[0] == "new":
            inputs = set(op[2:])
            if not inputs <= allowed | roots or used & inputs:
                raise InputError(
                    "a totalizer's inputs must be table positions or earlier roots' outputs, "
                    "each input to one totalizer at most"
                )
            used |= inputs
        clauses += made
        roots.update(tot.outputs(index))
    lits = [int(x) for x in bounded]
    if not lits or len(set(lits)) != len(lits) or not set(lits) <= allowed | roots:
        raise InputError("the bounded literals must be distinct table positions or root outputs")
    if used & set(lits):
        raise InputError("a bounded literal must not be a totalizer's input")
    return tot.top, clauses


def relaxed_cnf(
    graph: ArrayGraph,
    formula: ArrayFormula,
    log: Sequence[Sequence[Any]],
    bounded: Sequence[int],
    depths: Sequence[int] | None = None,
) -> tuple[bytes, int, Clauses]:
    """The certificate formula of a lower bound by relaxed cores (a core-guided search's own
    bound, :func:`minttt.proof.lower.relaxed_cores`): the formula (cut, at ``depths``), the
    totalizers of ``log`` (:func:`relaxation_clauses`, checked) and the clause "one of the
    ``bounded`` literals is false", as ``(DIMACS text with comments, variables, clauses)``.

    Why unsatisfiable means every table has at least ``len(bounded)`` entries there: give each
    totalizer output its meaning (at least ``j`` of the node's inputs are true) and every
    totalizer clause holds. A totalizer's inputs then count as many as its root's outputs (the
    outputs above its bound are left out, which only lowers that count); every position and
    root output is input to one totalizer at most, so a table's entries there are at least its
    true positions and root outputs that are input to none, and so at least its true bounded
    literals. A table with fewer entries than bounded literals makes one of them false: it
    satisfies the formula. The disjoint cores of :func:`cores_cnf` are the case of totalizers
    with one output each."""
    cut, lits = level_literals(graph, formula, depths)
    top = cut.num_vars
    nvars, relax = relaxation_clauses(log, bounded, set(lits), top)
    last = [-int(x) for x in bounded]
    clauses = cut.clauses([*relax, last])
    k = len(last)
    where = "in all" if depths is None else "at depths " + ",".join(map(str, depths))
    made = sum(1 for op in log if op[0] == "new")
    head = [
        "minttt lower-bound formula, by relaxed cores: UNSATISFIABLE means every table of the "
        f"variant has at least {k} entries (lookups) {where}",
        _variant_line(formula),
        f"claim: a table makes at most {k - 1} of {k} bounded literals true {where}",
        _hard_line(cut, depths),
        f"totalizers: {made}, variables {top + 1}..{nvars}, {len(relax)} upward clauses "
        "(-a_i OR -b_k OR r_(i+k), minttt.proof.totalizer), made by the operations of the "
        "certificate's cores file; each input is a table position or an earlier root's output, "
        "each input to one totalizer at most",
        f"bounded literals: {k} table positions or root outputs, input to no totalizer; the last "
        "clause says one of them is false",
        "soundness: set every totalizer output to its meaning (at least j of its inputs true); "
        "each totalizer's inputs count at least its root outputs, every literal is counted once, "
        f"so a table with at most {k - 1} entries {where} makes at most {k - 1} bounded literals "
        "true and satisfies all",
        "produced by: minttt.proof.cnf.relaxed_cnf; the hard clauses come first: units, -e OR p, "
        "-p OR e..",
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H",
    ]
    return _lower_text(graph, cut, lits, head, nvars, clauses), nvars, clauses


def certificate_cnf(
    graph: Graph | ArrayGraph, formula: Formula | ArrayFormula, minimum: int
) -> tuple[bytes, int, Clauses | list[list[int]]]:
    """The certificate formula of either form at ``minimum - 1``: ``(DIMACS text with
    comments, variables, clauses)``."""
    if isinstance(formula, ArrayFormula):
        if not isinstance(graph, ArrayGraph):
            raise InputError("an array formula needs its array graph")
        cnf, clauses = array_cnf(graph, formula, minimum)
        nvars = int(cnf.split(b"\np cnf ", 1)[1].split(b" ", 1)[0])
        return cnf, nvars, clauses
    nvars, listed = bound_clauses(formula, minimum - 1)
    return cnf_text(formula, minimum).encode("ascii"), nvars, listed


__all__ = [
    "BOUND_DEPTH",
    "CARD_ENCODING",
    "array_cnf",
    "bound_clauses",
    "bound_literals",
    "cores_cnf",
    "relaxation_clauses",
    "relaxed_cnf",
    "level_literals",
    "lower_cnf",
    "certificate_cnf",
    "cnf_text",
    "MAX_COMMENT",
    "objective_lines",
]
