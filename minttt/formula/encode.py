"""003's two encodings as plain CNF: a :class:`~minttt.formula.variants.Variant` and a game graph
in, a :class:`~minttt.formula.encode.Formula` out.

``tree`` (per node, 003's ``MakeGraphExpressionAll``): one variable per canonical position reached
from the start when the table side plays only allowed moves and the opponent plays anything. The
start is required; a table position implies the OR of its allowed children (with a fixed opening,
only that child); an opponent position implies every child. Objective: true position variables.

``lookup`` (even-depth grandchild, 003's ``MakeGraphExpressionSkips``): variables for the table's
positions (the start positions and every grandchild reached through an allowed move) and for its
edges ``(position, move)``, one per allowed move of every table position. A position implies the OR
of its edges; an edge implies every grandchild reached through it. Objective: positions, or entries
(edges).

Variable convention that reproduces 003's counts (tree 352/408/201/282, lookup 195+344, 226+400,
95+201, 158+248): positions are canonical hashes, edges are ``(canonical parent hash, move on the
canonical board)`` (two moves to the same canonical child are two edges), only the closure from the
start under the criterion's allowed moves gets variables, terminal positions included. For the
second player the lookup start positions are X's three canonical openings.

``role="both"`` joins an X part (with X's opening) and an O part. Each part keeps its own variables;
a position present in both parts gets one more variable ``u`` (``x -> u``, ``o -> u``) so that a
shared position is counted once. With the lookup encoding the parts are disjoint by parity (X
answers at even depth, O at odd depth), so the objective is the plain sum.

>>> from minttt.game.graph import build_graph
>>> g = build_graph()
>>> f = encode(g, Variant("first", "center", "tree", "positions"))
>>> f.counts()
{'positions': 201, 'edges': 0}
>>> f = encode(g, Variant("second", None, "lookup", "entries"))
>>> f.counts()
{'positions': 158, 'edges': 248}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cached_property

from minttt.errors import InputError
from minttt.formula.variants import Variant
from minttt.game.graph import Graph
from minttt.game.rules import X
from minttt.record import Record
from minttt.vocabulary import Encoding, Objective


class Part(Record):
    """The variables of one side's table inside a formula.

    ``side`` is 1 (X) or 2 (O); ``starts`` the required start positions; ``positions`` maps a
    canonical hash to its variable; ``edges`` maps ``(hash, move)`` to its variable (lookup only);
    ``opening`` is X's forced first move, if any.
    """

    FIELDS = ("side", "starts", "opening", "positions", "edges")
    side: int
    starts: tuple[int, ...]
    opening: int | None
    positions: Mapping[int, int]
    edges: Mapping[tuple[int, int], int]

    def __init__(
        self,
        side: int,
        starts: tuple[int, ...],
        opening: int | None,
        positions: Mapping[int, int],
        edges: Mapping[tuple[int, int], int],
    ) -> None:
        self._fill(side, starts, opening, positions, edges)


class Formula(Record):
    """Hard clauses (lists of non-zero ints, DIMACS style), objective literals, variable names.

    Minimise the number of true objective literals subject to every clause. Built by
    :func:`encode`.

    Parameters
    ----------
    variant
        The problem the formula states.
    num_vars
        Variables are ``1 .. num_vars``.
    clauses
        The hard clauses, each a tuple of non-zero literals (``-v`` is "not ``v``").
    objective
        The literals whose true count is minimised (each a soft unit clause of weight 1).
    names
        ``names[v - 1]`` names variable ``v`` (``None``: :func:`encode`'s own names, made on
        first use from ``parts`` and ``shared``: ``v_H``, ``e_H_M``, ``u_H``, with ``x_``/``o_``
        in front when the formula has both sides' parts).
    parts
        The clauses grouped by what they say (for the certificate's comments).
    shared
        The ``u`` variable of each position present in both parts (``role="both"``), so a
        shared position is counted once.
    graph
        Kept (not compared) so a model can be read back as a table.
    """

    FIELDS = ("variant", "num_vars", "clauses", "objective", "names", "parts", "shared", "graph")
    COMPARED = FIELDS[:-1]
    variant: Variant
    num_vars: int
    clauses: tuple[tuple[int, ...], ...]
    objective: tuple[int, ...]
    parts: tuple[Part, ...]
    shared: Mapping[int, int]
    graph: Graph | None

    def __init__(
        self,
        variant: Variant,
        num_vars: int,
        clauses: tuple[tuple[int, ...], ...],
        objective: tuple[int, ...],
        names: tuple[str, ...] | None,
        parts: tuple[Part, ...],
        shared: Mapping[int, int] | None = None,
        graph: Graph | None = None,
    ) -> None:
        vars(self).update(
            variant=variant,
            num_vars=num_vars,
            clauses=clauses,
            objective=objective,
            parts=parts,
            shared={} if shared is None else shared,
            graph=graph,
        )
        if names is not None:
            vars(self)["names"] = names

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Every variable's name, by number (see ``names`` above)."""
        return _variable_names(self.num_vars, self.parts, self.shared)

    def counts(self) -> dict[str, int]:
        """Position and edge variables (003's "verts" and "edges"), summed over parts.

        >>> from minttt.game.graph import build_graph
        >>> from minttt.formula.variants import Variant
        >>> encode(build_graph(), Variant("first", "center", "lookup", "entries")).counts()
        {'positions': 95, 'edges': 201}

        Returns
        -------
        dict[str, int]
            ``positions``: the position variables, ``edges``: the edge variables (0 for the tree
            encoding, which has none).
        """
        return {
            "positions": sum(len(p.positions) for p in self.parts),
            "edges": sum(len(p.edges) for p in self.parts),
        }

    def cost(self, true_vars: frozenset[int] | set[int]) -> int:
        """The objective value of an assignment given as its set of true variables.

        Parameters
        ----------
        true_vars
            The variables set true (the positive literals of a model).

        Returns
        -------
        int
            How many objective literals are true: the size of the table the model stands for.
        """
        return sum(1 for v in self.objective if v in true_vars)


def _variable_names(
    num_vars: int, parts: tuple[Part, ...], shared: Mapping[int, int]
) -> tuple[str, ...]:
    """The names of :func:`encode`'s variables, by number: each part's positions ``v_H`` and
    edges ``e_H_M`` (``x_``/``o_`` in front when there are two parts), the shared ``u_H``."""
    names = [""] * num_vars
    for part in parts:
        prefix = ("x_" if part.side == X else "o_") if len(parts) == 2 else ""
        for h, v in part.positions.items():
            names[v - 1] = f"{prefix}v_{h}"
        for (h, m), e in part.edges.items():
            names[e - 1] = f"{prefix}e_{h}_{m}"
    for h, u in shared.items():
        names[u - 1] = f"u_{h}"
    return tuple(names)


class _Builder:
    """Clauses, and the variables numbered 1, 2, 3, ... in the order they are made (their names
    are made only when asked for: :func:`_variable_names`, which ``minttt solve`` never asks)."""

    def __init__(self) -> None:
        self.count = 0
        self.clauses: list[tuple[int, ...]] = []

    def var(self) -> int:
        """A new variable."""
        self.count += 1
        return self.count


def _distinct(items: Iterable[int]) -> list[int]:
    return list(dict.fromkeys(items))


def _position_vars(b: _Builder) -> tuple[dict[int, int], Callable[[int], int]]:
    """A position -> variable map (in numbering order) and the function that fills it."""
    pos: dict[int, int] = {}

    def pvar(h: int) -> int:
        if h not in pos:
            pos[h] = b.var()
        return pos[h]

    return pos, pvar


def _tree_part(graph: Graph, b: _Builder, side: int, opening: int | None, criterion: str) -> Part:
    """Every position the walk reaches gets a variable, in the walk's order (the order the
    clauses below first name them: the walk is breadth first, children in move order)."""
    walk = graph.allowed_walk(side, criterion, opening)
    pos = {visit.position: b.count + i for i, visit in enumerate(walk, start=1)}
    b.count += len(pos)
    root = graph.root
    clauses, successors = b.clauses, graph.successors
    clauses.append((pos[root],))
    for visit in walk:
        if visit.terminal:
            continue
        v = -pos[visit.position]
        if visit.own:
            clauses.append((v, *[pos[c] for c in visit.children]))
        else:  # the opponent's every move: all the position's children
            clauses += [(v, pos[c]) for c in successors[visit.position]]
    return Part(side, (root,), opening if side == X else None, pos, {})


def _lookup_part(graph: Graph, b: _Builder, side: int, opening: int | None, criterion: str) -> Part:
    """The table's positions are the walk's own positions: the starts, then every grandchild
    through an allowed move, in the walk's order (the opponent's positions get no variable)."""
    pos, pvar = _position_vars(b)
    edges: dict[tuple[int, int], int] = {}
    root = graph.root
    starts = [root] if side == X else _distinct(c for _, c in graph.children[root])
    for s in starts:
        b.clauses.append((pvar(s),))
    successors, clauses = graph.successors, b.clauses
    # the hot loop of every lookup encoding, numbering inline (``top``, the last variable): each
    # edge is new (the walk yields a position once), a grandchild is numbered when first reached
    for visit in graph.allowed_walk(side, criterion, opening):
        if not visit.own or visit.terminal:
            continue
        h = visit.position
        ors = []
        top = b.count
        for m, c in visit.moves:
            top += 1
            e = edges[(h, m)] = top
            ors.append(e)
            for g in successors[c]:
                v = pos.get(g)
                if v is None:
                    top += 1
                    v = pos[g] = top
                clauses.append((-e, v))
        b.count = top
        clauses.append((-pvar(h), *ors))
    return Part(side, tuple(starts), opening if side == X else None, pos, edges)


def _opening(graph: Graph, variant: Variant) -> int | None:
    """The variant's fixed opening on ``graph``, checked legal and allowed (InputError if not)."""
    opening = variant.opening_cell(graph.rules)
    if opening is None:
        return None
    legal = [m for m, _ in graph.children[graph.root]]
    if opening not in legal:
        raise InputError(f"opening cell {opening} is not a legal first move")
    if opening not in graph.allowed(graph.root, variant.criterion):
        raise InputError(
            f"opening cell {opening} is not an allowed first move under criterion "
            f"{variant.criterion!r} in {graph.rules.name}"
        )
    return opening


def _objective(
    b: _Builder, parts: tuple[Part, ...], objective: Objective
) -> tuple[list[int], dict[int, int]]:
    """The objective literals, and the ``u`` variable of each position shared by two parts."""
    if objective is Objective.ENTRIES:
        return [v for p in parts for v in p.edges.values()], {}
    if len(parts) == 1:
        return list(parts[0].positions.values()), {}
    px, po = parts
    literals: list[int] = []
    shared: dict[int, int] = {}
    for h, v in px.positions.items():
        if h in po.positions:
            u = b.var()
            shared[h] = u
            b.clauses.append((-v, u))
            b.clauses.append((-po.positions[h], u))
            literals.append(u)
        else:
            literals.append(v)
    literals += [v for h, v in po.positions.items() if h not in shared]
    return literals, shared


def encode(graph: Graph, variant: Variant) -> Formula:
    """Build the CNF of ``variant`` over ``graph`` (any rules; symmetric or not).

    Parameters
    ----------
    graph
        The game graph (:func:`~minttt.game.graph.build_graph` or
        :func:`~minttt.game.graph.graph_for`) of the variant's game.
    variant
        What to minimise: role, opening, encoding, objective and criterion.

    Returns
    -------
    Formula
        Hard clauses and objective: a model of least cost is a smallest table.

    Raises
    ------
    InputError
        If the graph's game differs from the variant's, or a fixed opening is not an allowed move
        under the criterion.
    """
    if graph.rules.name != variant.rules.name:
        raise InputError(
            f"variant is for game {variant.game!r} but the graph is for {graph.rules.name!r}"
        )
    opening = _opening(graph, variant)
    build = _tree_part if variant.encoding is Encoding.TREE else _lookup_part
    b = _Builder()
    parts = tuple(build(graph, b, side, opening, variant.criterion) for side in variant.role.sides)
    objective, shared = _objective(b, parts, variant.objective)
    return Formula(
        variant=variant,
        num_vars=b.count,
        clauses=tuple(b.clauses),
        objective=tuple(objective),
        names=None,
        parts=parts,
        shared=shared,
        graph=graph,
    )


__all__ = [
    "Formula",
    "Part",
    "Variant",
    "encode",
]
