"""Every minimal table of a variant, counted exactly and up to the symmetries a position keeps.

A *table* is a moves dict (canonical hash -> move on the canonical board) holding exactly the
positions its own play reaches. The formula of :mod:`minttt.formula.encode` describes tables only
through position (and edge) variables, and one set of true positions can hold several tables (two
allowed moves into positions that are both true anyway), so we add a *decision* layer on top of it:

* for every table position ``h`` and every *choice* at ``h`` -- an orbit of allowed moves under the
  stabiliser of ``h``'s canonical board (moves a symmetry of the position maps onto each other are
  the same choice) -- one variable ``d``; ``d -> h``, ``h -> OR d``, at most one ``d`` per ``h``;
* ``d -> child`` (tree encoding) or ``d -> edge(h, representative move)`` (lookup encoding);
* the objective literals at most ``size`` (the proven minimum), by a totalizer.

With the bound at the minimum, the positions reached by a model's decisions already form a valid
table of minimum size, so every model names one minimal table class, and every minimal table class
is some model. After each model we add a *blocking clause over the decisions of the positions the
table reaches* (never over auxiliary variables), which removes exactly that class and nothing
else: a table that agrees with it at every position it reaches reaches the same positions. The
loop runs in one incremental PySAT solver until UNSAT.

Each class expands into ``prod |orbit|`` tables (one move picked from every chosen orbit); the count
of tables is that sum, the count up to symmetry the number of classes.

>>> from minttt.game.graph import build_graph
>>> from minttt.formula.encode import encode
>>> from minttt.formula.variants import Variant
>>> g = build_graph()
>>> v = Variant("first", "center", "lookup", "positions")
>>> r = enumerate_minimal_tables(g, v, encode(g, v), 22)
>>> r.count >= r.count_up_to_symmetry >= 1, r.truncated
(True, False)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from minttt.errors import DefectError, InputError
from minttt.formula.encode import Formula, Part
from minttt.formula.variants import Variant
from minttt.game.graph import table_moves, walk_own_play
from minttt.game.rules import EMPTY
from minttt.vocabulary import Encoding

if TYPE_CHECKING:
    from minttt.game.graph import Graph

DEFAULT_LIMIT = 10_000
ENUMERATION_SAT = "cadical153"


@dataclass(frozen=True)
class EnumerationResult:
    """The minimal tables found (each a canonical moves dict) and how many there are.

    ``count`` counts distinct tables, ``count_up_to_symmetry`` the classes where moves a symmetry of
    the position maps onto each other are one choice. With ``truncated`` the enumeration stopped at
    ``limit`` tables and both counts are lower bounds.
    """

    variant: Variant
    size: int
    tables: list[dict[int, int]]
    count: int
    count_up_to_symmetry: int
    truncated: bool
    limit: int
    calls: int = 0
    class_sizes: list[int] = field(default_factory=list)
    representatives: list[dict[int, int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """The counts as JSON-ready data."""
        return {
            "variant": self.variant.name,
            "size": self.size,
            "count": self.count,
            "count_up_to_symmetry": self.count_up_to_symmetry,
            "truncated": self.truncated,
            "limit": self.limit,
            "solver_calls": self.calls,
        }


def move_orbits(graph: Graph, h: int, moves: Sequence[int]) -> list[tuple[int, ...]]:
    """Group ``moves`` at position ``h`` into orbits of the stabiliser of its board (sorted).

    >>> from minttt.game.graph import build_graph
    >>> g = build_graph()
    >>> move_orbits(g, g.root, range(9))    # the empty board: corners, edges, center
    [(0, 2, 6, 8), (1, 3, 5, 7), (4,)]
    """
    rules = graph.rules
    cells = graph.boards[h]
    stab = [
        rules.symmetries[t]
        for t in range(len(rules.symmetries))
        if rules.transform(cells, t) == cells
    ]
    wanted = set(moves)
    seen: set[int] = set()
    orbits: list[tuple[int, ...]] = []
    for m in sorted(wanted):
        if m in seen:
            continue
        orbit = tuple(sorted({p[m] for p in stab} & wanted))
        seen.update(orbit)
        orbits.append(orbit)
    return orbits


@dataclass
class _Choice:
    var: int
    part: int
    position: int
    orbit: tuple[int, ...]
    child: int


class _DecisionLayer:
    """Decision variables over a formula's parts, and the walk that reads a table off a model."""

    def __init__(self, formula: Formula) -> None:
        graph = formula.graph
        if graph is None:
            raise InputError(
                "the formula carries no game graph; build it with minttt.formula.encode.encode"
            )
        self.graph = graph
        self.formula = formula
        self.crit = formula.variant.criterion
        self.tree = formula.variant.encoding is Encoding.TREE
        self.top = formula.num_vars
        self.clauses: list[list[int]] = []
        # per part: position -> list of choices
        self.choices: list[dict[int, list[_Choice]]] = []
        for index, part in enumerate(formula.parts):
            self.choices.append(self._part_layer(index, part))

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _part_layer(self, index: int, part: Part) -> dict[int, list[_Choice]]:
        graph = self.graph
        allowed = table_moves(graph, self.crit, part.opening)
        out: dict[int, list[_Choice]] = {}
        for h, pv in part.positions.items():
            if graph.is_terminal(h) or graph.to_move(h) != part.side:
                continue
            child_of = dict(graph.children[h])
            choices = []
            for orbit in move_orbits(graph, h, allowed(h)):
                rep = orbit[0]
                d = self._new()
                choices.append(_Choice(d, index, h, orbit, child_of[rep]))
                self.clauses.append([-d, pv])
                if self.tree:
                    self.clauses.append([-d, part.positions[child_of[rep]]])
                else:
                    self.clauses.append([-d, part.edges[(h, rep)]])
            self.clauses.append([-pv, *(c.var for c in choices)])
            for a, b in itertools.combinations(choices, 2):
                self.clauses.append([-a.var, -b.var])
            out[h] = choices
        return out

    def read(self, true: set[int]) -> tuple[list[_Choice], int]:
        """The choices of the table a model describes (positions its play reaches), and its
        number of distinct tables (the product of the chosen orbits' sizes)."""
        picked: list[_Choice] = []
        for index, part in enumerate(self.formula.parts):
            table = self.choices[index]

            def decide(h: int, table: dict[int, list[_Choice]] = table) -> tuple[int]:
                choice = next((c for c in table.get(h, ()) if c.var in true), None)
                if choice is None:  # pragma: no cover - the clauses forbid it
                    raise DefectError(f"model makes no decision at reached position {h}")
                picked.append(choice)
                return (choice.orbit[0],)

            for _ in walk_own_play(self.graph, part.side, decide):
                pass
        multiplicity = 1
        for c in picked:
            multiplicity *= len(c.orbit)
        return picked, multiplicity


def _expand(picked: list[_Choice], limit: int) -> list[dict[int, int]]:
    """Up to ``limit`` tables of one class: every way of picking a move from each chosen orbit."""
    ordered = sorted(picked, key=lambda c: c.position)
    positions = [c.position for c in ordered]
    out = []
    for moves in itertools.islice(itertools.product(*(c.orbit for c in ordered)), limit):
        out.append(dict(zip(positions, moves, strict=True)))
    return out


def _classes(
    formula: Formula, size: int, solver: str
) -> Iterator[tuple[_DecisionLayer, list[_Choice], int]]:
    """Yield every minimal table class once: its chosen orbits and how many tables it holds."""
    layer = _DecisionLayer(formula)
    card = CardEnc.atmost(
        lits=list(formula.objective), bound=size, top_id=layer.top, encoding=EncType.kmtotalizer
    )
    with Solver(name=solver, bootstrap_with=[list(c) for c in formula.clauses]) as sat:
        sat.append_formula(layer.clauses)
        sat.append_formula(card.clauses)
        while sat.solve():
            true = {lit for lit in sat.get_model() if lit > 0}
            picked, multiplicity = layer.read(true)
            yield layer, picked, multiplicity
            if not picked:  # a table without a single decision is the only one
                return
            sat.add_clause([-c.var for c in picked])


def _check_args(graph: Graph, formula: Formula, size: int, limit: int) -> None:
    if limit < 1:
        raise InputError(f"--limit must be at least 1, got {limit}")
    if size < 0:
        raise InputError(f"size must be non-negative, got {size}")
    if (
        formula.graph is not None
        and formula.graph is not graph
        and len(formula.graph) != len(graph)
    ):
        raise InputError("the formula was built over another game graph")


def enumerate_minimal_tables(
    graph: Graph,
    variant: Variant,
    formula: Formula,
    size: int,
    *,
    limit: int = DEFAULT_LIMIT,
    solver: str = ENUMERATION_SAT,
) -> EnumerationResult:
    """Every table of ``formula`` whose objective is at most ``size`` (pass the proven minimum).

    Stops after ``limit`` tables (``truncated``; the counts are then lower bounds). Tables are
    listed class by class in the order the solver finds the classes; each is a dict canonical
    hash -> canonical move. ``representatives`` holds the first table of every class seen. The
    formula must be ``encode(graph, variant)``.
    """
    _check_args(graph, formula, size, limit)
    tables: list[dict[int, int]] = []
    reps: list[dict[int, int]] = []
    class_sizes: list[int] = []
    count = 0
    truncated = False
    for _, picked, multiplicity in _classes(formula, size, solver):
        room = limit - count
        if room == 0:  # the limit was reached exactly and another class exists
            truncated = True
            break
        class_sizes.append(multiplicity)
        members = _expand(picked, room)
        reps.append(members[0])
        tables.extend(members)
        if multiplicity > room:
            count, truncated = limit, True
            break
        count += multiplicity
    return EnumerationResult(
        variant=variant,
        size=size,
        tables=tables,
        count=count,
        count_up_to_symmetry=len(class_sizes),
        truncated=truncated,
        limit=limit,
        calls=len(class_sizes) + (0 if truncated else 1),
        class_sizes=class_sizes,
        representatives=reps,
    )


def count_minimal_tables(
    graph: Graph,
    variant: Variant,
    formula: Formula,
    size: int,
    *,
    class_limit: int = DEFAULT_LIMIT,
    solver: str = ENUMERATION_SAT,
) -> EnumerationResult:
    """Count every minimal table exactly by enumerating classes only (up to ``class_limit``).

    ``tables`` is empty; ``representatives`` holds one table per class (all tables of a class
    play the same canonical positions, so they have the same odds). ``count`` is the exact sum of
    the class sizes unless ``truncated``.
    """
    _check_args(graph, formula, size, class_limit)
    reps: list[dict[int, int]] = []
    class_sizes: list[int] = []
    truncated = False
    for _, picked, multiplicity in _classes(formula, size, solver):
        if len(class_sizes) == class_limit:
            truncated = True
            break
        class_sizes.append(multiplicity)
        reps.append(_expand(picked, 1)[0])
    return EnumerationResult(
        variant=variant,
        size=size,
        tables=[],
        count=sum(class_sizes),
        count_up_to_symmetry=len(class_sizes),
        truncated=truncated,
        limit=class_limit,
        calls=len(class_sizes) + 1,
        class_sizes=class_sizes,
        representatives=reps,
    )


# ---------------------------------------------------------------------------------------------
# exact odds of a canonical moves dict against a uniformly random opponent


def win_draw_loss(
    graph: Graph, moves: Mapping[int, int], side: int
) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (win, draw, loss) for the table playing ``side`` (1 = X, 2 = O) against an opponent
    that picks each legal move uniformly, on the canonical graph.

    The table answers at positions where ``side`` is to move; a missing entry raises KeyError.
    Exact integer arithmetic: a position at depth ``d`` holds its odds as numerators over
    ``L**(cells - d)`` with ``L = lcm(1..cells)``.

    >>> from minttt.game.graph import build_graph
    >>> g = build_graph()
    >>> o_moves = {}   # an empty O table fails at O's first turn
    >>> try:
    ...     win_draw_loss(g, o_moves, 2)
    ... except KeyError as e:
    ...     print("no entry for", e)
    no entry for 1
    """
    n = graph.rules.cells
    big = math.lcm(*range(1, n + 1))
    memo: dict[int, tuple[int, int]] = {}
    children, boards, winner = graph.children, graph.boards, graph.winner
    # what is left below a finished game at depth d, and each fan-out's share
    rest = [big ** (n - d) for d in range(n + 1)]
    share = [big // k if k else 0 for k in range(n + 1)]

    def go(h: int, own: bool) -> tuple[int, int]:
        got = memo.get(h)
        if got is not None:
            return got
        kids = children[h]
        if not kids:
            w = winner(h)
            left = rest[n - boards[h].count(EMPTY)] if w else 0
            out = (left, 0) if w == side else (0, left)
        elif own:
            cw, cl = go(graph.child(h, moves[h]), False)
            out = (cw * big, cl * big)
        else:
            sw = sl = 0
            for _, c in kids:
                cw, cl = go(c, True)
                sw += cw
                sl += cl
            weight = share[len(kids)]
            out = (sw * weight, sl * weight)
        memo[h] = out
        return out

    w, lo = go(graph.root, graph.to_move(graph.root) == side)
    total = big**n
    return Fraction(w, total), Fraction(total - w - lo, total), Fraction(lo, total)


def sides_of(variant: Variant) -> tuple[int, ...]:
    """The sides a variant's table plays: (X,), (O,) or (X, O)."""
    return variant.role.sides


def pick_max_wins(graph: Graph, variant: Variant, moves_list: Sequence[Mapping[int, int]]) -> int:
    """Index of the table that wins most often against a uniformly random opponent.

    Exact fractions; for ``both`` the win probabilities as X and as O are added. Ties go to the
    fewest losses, then to the table whose sorted ``(hash, move)`` items come first, then to the
    lowest index: the same list always gives the same answer.
    """
    if not moves_list:
        raise InputError("no tables to choose from")
    sides = sides_of(variant)

    def key(i: int) -> tuple[Fraction, Fraction, tuple[tuple[int, int], ...], int]:
        odds = [win_draw_loss(graph, moves_list[i], s) for s in sides]
        wins = sum((o[0] for o in odds), Fraction(0))
        losses = sum((o[2] for o in odds), Fraction(0))
        return (-wins, losses, tuple(sorted(moves_list[i].items())), i)

    return min(range(len(moves_list)), key=key)


__all__ = [
    "DEFAULT_LIMIT",
    "EnumerationResult",
    "ENUMERATION_SAT",
    "count_minimal_tables",
    "enumerate_minimal_tables",
    "move_orbits",
    "pick_max_wins",
    "sides_of",
    "win_draw_loss",
]
