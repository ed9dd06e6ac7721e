"""The lookup encoding of :mod:`minttt.formula.encode` built as numpy arrays: the whole formula of
a variant, or the formula of a *region* of it (the part below some roots, with the rest of a
table paid for), by one encoder.

Same formula up to variable numbering (same variable counts, clause counts and optimum; tested
against :func:`minttt.formula.encode.encode`): position variables ``1..P`` for the start positions
and every grandchild reached through an allowed move (node order), then edge variables
``P+1..P+E`` for the allowed moves of every reached non-terminal table position (node order, moves
increasing).
Clauses: a unit per start; ``-p_h OR e_1 .. e_k`` per table position; ``-e OR p_g`` per edge and
distinct grandchild ``g``. :func:`hard_clauses` is the plain-list API for other tools (proofs).

:func:`encode_region` is the general form: the formula below ``roots`` (a unit per root) with
``paid`` positions and finished games left out, optionally cut a ``horizon`` of table levels below
the roots, where a move must land on one of the ``frontier`` positions (variables without a lookup
clause, weighted); :func:`encode_arrays` is its special case (the roots are the table's starts).

>>> from minttt.formula.variants import Variant
>>> from minttt.game.rules import Rules
>>> from minttt.game.arrays import build_array_graph
>>> f = encode_arrays(build_array_graph(Rules()), Variant("second", None, "lookup", "entries"))
>>> f.positions, f.edges, f.num_clauses
(158, 248, 658)
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from minttt.errors import InputError
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph, build_array_graph, csr_rows, distinct
from minttt.game.rules import Board
from minttt.vocabulary import Objective, Role


@dataclass(frozen=True)
class ArrayFormula:
    """Hard clauses as arrays, the objective, and what each variable stands for.

    The clause arrays are read here and by the solver that loads them (:meth:`chunks`); other
    stages ask the formula (:meth:`soft`, :meth:`heads`, :meth:`start_splits`, :meth:`cut`,
    :meth:`true_moves`, :meth:`assignment`, :meth:`clauses_csr`)."""

    variant: Variant
    side: int
    pos_node: np.ndarray  # node of position variable v = i + 1
    edge_id: np.ndarray  # graph edge of edge variable v = P + i + 1 (int64)
    units: np.ndarray  # (U,) positive literals
    binary: np.ndarray  # (B, 2) int32 clauses -e OR p_g
    long_lits: np.ndarray  # flat int32 literals of the -p_h OR e.. clauses
    long_ptr: np.ndarray  # int64 offsets into long_lits
    #: per position variable, its weight in a weighted position objective (a region cut at a
    #: horizon: each frontier position weighs what only it leads to); ``None``: the variant's
    weights: np.ndarray | None = None

    @property
    def positions(self) -> int:
        """Position variables (1..positions)."""
        return len(self.pos_node)

    @property
    def edges(self) -> int:
        """Edge variables (positions+1..num_vars)."""
        return len(self.edge_id)

    @property
    def num_vars(self) -> int:
        """All variables: positions, then edges."""
        return self.positions + self.edges

    @property
    def num_clauses(self) -> int:
        """Hard clauses: units, binary and long ones."""
        return len(self.units) + len(self.binary) + len(self.long_ptr) - 1

    @property
    def objective(self) -> np.ndarray:
        """Objective literals (minimise how many are true): edges or positions."""
        if self.variant.objective == Objective.ENTRIES:
            return np.arange(self.positions + 1, self.num_vars + 1, dtype=np.int64)
        return np.arange(1, self.positions + 1, dtype=np.int64)

    def heads(self) -> np.ndarray:
        """The position variable of each lookup clause (``-p OR e..``), in clause order: the
        table positions the formula asks an answer of (int64)."""
        return -self.long_lits[self.long_ptr[:-1]].astype(np.int64)

    def soft(self) -> tuple[np.ndarray, np.ndarray | None]:
        """What a MaxSAT solver minimises: ``(variables, weights)``, weights ``None`` when each is
        1. For ``entries``, the positions with a lookup clause instead of the edges: the same
        optimum with 6-7x fewer soft literals (a model with ``n`` true edges walks to a table of
        at most ``n`` entries, one per true table position it reaches, and every true position
        with a lookup clause has a true edge of its own: min #positions = min #edges). A weighted
        formula minimises its positions, weighted."""
        if self.weights is not None:
            return np.arange(1, self.positions + 1, dtype=np.int64), self.weights
        if self.variant.objective != Objective.ENTRIES:
            return self.objective, None
        return np.sort(self.heads()), None

    def head_depths(self, graph: ArrayGraph) -> np.ndarray:
        """The depth of each lookup clause's position (int64, clause order)."""
        return graph.depth[self.pos_node[self.heads() - 1]].astype(np.int64)

    def cut(self, graph: ArrayGraph, depth: int) -> ArrayFormula:
        """This formula without the lookup clauses of positions at ``depth`` or below and without
        the move clauses that lead below ``depth`` (variables keep their numbers): what any table
        satisfies above ``depth`` (:mod:`minttt.bounds.levels`)."""
        keep = np.flatnonzero(self.head_depths(graph) < depth)
        _row, idx = csr_rows(self.long_ptr, keep)
        ptr = np.zeros(len(keep) + 1, dtype=np.int64)
        np.cumsum(np.diff(self.long_ptr)[keep], out=ptr[1:])
        target = graph.depth[self.pos_node[self.binary[:, 1].astype(np.int64) - 1]]
        return replace(
            self, binary=self.binary[target <= depth], long_lits=self.long_lits[idx], long_ptr=ptr
        )

    def start_splits(self) -> list[list[int]]:
        """The edge literals of each start position's lookup clause (each unit-forced: a table
        answers there), in clause order, moves increasing: the splits of cube and conquer."""
        units = set(self.units.tolist())
        out = []
        for i, head in enumerate(self.heads().tolist()):
            if head in units:
                a, b = int(self.long_ptr[i]) + 1, int(self.long_ptr[i + 1])
                out.append(self.long_lits[a:b].tolist())
        return out

    def true_moves(self, graph: ArrayGraph, true: np.ndarray) -> dict[int, int]:
        """``position node -> edge``: the lowest true move of each position that has one, in a
        model given as a bool array indexed by variable."""
        edges = self.edge_id[np.flatnonzero(true[self.positions + 1 : self.num_vars + 1])]
        out: dict[int, int] = {}
        for node, edge in zip(graph.parent[edges].tolist(), edges.tolist(), strict=True):
            out.setdefault(node, edge)  # edges are increasing: the first is the lowest
        return out

    def assignment(self, graph: ArrayGraph, table: Mapping[int, int]) -> np.ndarray:
        """The variables true for a table (``node -> edge``, a table of this formula's variant):
        the moves of its own play and every position it reaches (bool array indexed by
        variable)."""
        true = np.zeros(self.num_vars + 1, dtype=bool)
        edge_var = np.zeros(graph.edges, dtype=np.int64)
        edge_var[self.edge_id] = np.arange(self.positions + 1, self.num_vars + 1)
        pos_var = np.zeros(graph.size, dtype=np.int64)
        pos_var[self.pos_node] = np.arange(1, self.positions + 1)
        played = graph.walk_table(self.side, table)
        true[pos_var[graph.table_positions(self.side, played)]] = True
        true[edge_var[np.fromiter(played.values(), dtype=np.int64, count=len(played))]] = True
        true[0] = False
        return true

    def chunks(self, size: int = 200_000) -> Iterator[list[list[int]]]:
        """The hard clauses as lists of int lists, ``size`` at a time (for ``append_formula``)."""
        yield [[int(u)] for u in self.units]
        for a in range(0, len(self.binary), size):
            yield self.binary[a : a + size].tolist()
        flat, ptr = self.long_lits.tolist(), self.long_ptr.tolist()
        for a in range(0, len(ptr) - 1, size):
            b = min(a + size, len(ptr) - 1)
            yield [flat[ptr[i] : ptr[i + 1]] for i in range(a, b)]

    def clauses(self, extra: Sequence[Sequence[int]] = ()) -> Clauses:
        """The hard clauses, then ``extra``, as a :class:`Clauses` view (no list of them all)."""
        return Clauses(self, tuple(extra))

    def clauses_csr(self) -> tuple[np.ndarray, np.ndarray]:
        """Every hard clause as one CSR pair ``(literals, starts)`` (int64): units, binary, then
        lookup clauses (for a program over the clauses, e.g. the LP relaxation)."""
        lits = np.concatenate(
            [
                self.units.astype(np.int64),
                self.binary.astype(np.int64).ravel(),
                self.long_lits.astype(np.int64),
            ]
        )
        sizes = np.concatenate(
            [
                np.ones(len(self.units), dtype=np.int64),
                np.full(len(self.binary), 2, dtype=np.int64),
                np.diff(self.long_ptr),
            ]
        )
        starts = np.zeros(len(sizes) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        return lits, starts

    def nbytes(self) -> int:
        """Bytes held by the formula's arrays."""
        arrays = (self.pos_node, self.edge_id, self.units, self.binary, self.long_lits)
        return sum(a.nbytes for a in arrays) + self.long_ptr.nbytes


@dataclass(frozen=True)
class Clauses:
    """A formula's hard clauses, then ``extra`` clauses (a bound's), without a Python list of
    them all: sized, iterable as often as wanted (a chunk of lists at a time, from the arrays),
    and written as DIMACS lines a chunk at a time. As one list of lists, 2x8 k=5's 34.9 million
    clauses took 5.3 GB, and each formula text made from it another 5 GB.

    >>> from minttt.formula.variants import Variant
    >>> from minttt.game.rules import Rules
    >>> from minttt.game.arrays import build_array_graph
    >>> f = encode_arrays(build_array_graph(Rules()), Variant.parse("second-lookup-entries"))
    >>> view = f.clauses([[-1, -2]])
    >>> len(view), len(view) == len(list(view)), list(view)[-1]
    (659, True, [-1, -2])
    >>> b"".join(view.dimacs()).count(b"\\n") == len(view)
    True
    """

    formula: ArrayFormula
    extra: tuple[Sequence[int], ...] = ()

    def __len__(self) -> int:
        return self.formula.num_clauses + len(self.extra)

    def __iter__(self) -> Iterator[list[int]]:
        for chunk in self.formula.chunks():
            yield from chunk
        for clause in self.extra:
            yield [int(x) for x in clause]

    def dimacs(self, size: int = 200_000) -> Iterator[bytes]:
        """The clauses as DIMACS lines (``... 0\\n``), up to ``size`` of them per ``bytes``: one
        %-format over each chunk's flat literals (4x faster than joining clause by clause)."""
        f = self.formula
        yield _lines(f.units.reshape(-1, 1))
        for a in range(0, len(f.binary), size):
            yield _lines(f.binary[a : a + size])
        ptr = f.long_ptr
        for a in range(0, len(ptr) - 1, size):
            b = min(a + size, len(ptr) - 1)
            flat = f.long_lits[ptr[a] : ptr[b]].tolist()
            yield _format(np.diff(ptr[a : b + 1]).tolist(), flat)
        yield _format([len(c) for c in self.extra], [int(x) for c in self.extra for x in c])

    def then(self, more: Sequence[Sequence[int]]) -> Clauses:
        """These clauses, then ``more`` (say a cube's units): another view, nothing copied."""
        return Clauses(self.formula, (*self.extra, *(tuple(c) for c in more)))

    def csr(self) -> tuple[np.ndarray, np.ndarray]:
        """Every clause, in order, as one CSR pair ``(literals, starts)`` (int64), made from the
        arrays (no list of lists on the way).

        >>> from minttt.formula.variants import Variant
        >>> from minttt.game.rules import Rules
        >>> from minttt.game.arrays import build_array_graph
        >>> f = encode_arrays(build_array_graph(Rules()), Variant.parse("second-lookup-entries"))
        >>> lits, starts = f.clauses([[-1, -2]]).csr()
        >>> len(starts) - 1, lits[starts[-2] :].tolist()
        (659, [-1, -2])
        """
        lits, starts = self.formula.clauses_csr()
        if not self.extra:
            return lits, starts
        sizes = np.array([len(c) for c in self.extra], dtype=np.int64)
        more = np.array([int(x) for c in self.extra for x in c], dtype=np.int64)
        tail = starts[-1] + np.cumsum(sizes)
        return np.concatenate([lits, more]), np.concatenate([starts, tail])


def _lines(rows: np.ndarray) -> bytes:
    """Equal-length clauses (one per row) as DIMACS lines."""
    return ((("%d " * rows.shape[1]) + "0\n") * len(rows) % tuple(rows.ravel().tolist())).encode()


def _format(sizes: list[int], flat: list[int]) -> bytes:
    """Clauses of ``sizes`` literals, read in turn from ``flat``, as DIMACS lines."""
    shapes: dict[int, str] = {}
    for k in set(sizes):
        shapes[k] = "%d " * k + "0\n"
    return ("".join([shapes[k] for k in sizes]) % tuple(flat)).encode()


def table_edge_mask(graph: ArrayGraph, variant: Variant) -> np.ndarray:
    """Boolean per edge: a move the table may make (the criterion's allowed moves; only the
    opening at the root when ``variant`` fixes one, only the table's reply where it fixes one:
    O's after X's opening, X's after its opening and O's reply). The array form of
    :func:`minttt.game.graph.table_moves`."""
    allowed = graph.allowed_mask(variant.criterion)
    opening = variant.opening_cell(graph.rules)
    root_edges = slice(int(graph.ptr[0]), int(graph.ptr[1]))
    if opening is not None:
        at = np.flatnonzero(graph.move[root_edges] == opening)
        if not len(at) or not allowed[root_edges][at[0]]:
            raise InputError(f"opening cell {opening} is not an allowed first move")
        allowed[root_edges] = False
        allowed[int(graph.ptr[0]) + int(at[0])] = True
    for theirs, ours in variant.replies():
        start, cell_map = _reply_start(graph, variant, theirs)
        _fix_reply(graph, allowed, start, cell_map[ours], ours)
    return allowed


def _reply_start(graph: ArrayGraph, variant: Variant, move: int) -> tuple[int, tuple[int, ...]]:
    """The node where ``variant``'s table answers the opponent's ``move``: after X's opening
    ``move`` (O's table), or after X's opening cell and O's reply ``move`` (X's); and where each
    cell of the board as played is on the board the graph stores there (the identity, or the
    lowest symmetry that maps one to the other: an answer is named as played). X's opening
    must be the board the graph stores (InputError naming the symmetric copy to use)."""
    node, played = 0, []
    if variant.role is Role.X:
        opening = variant.opening_cell(graph.rules)
        assert opening is not None  # replies() gives X's answers only after an opening cell
        node, played = _child(graph, 0, opening, "X's opening"), [opening]
    start = _child(graph, node, move, "O's reply" if played else "X's opening")
    board = tuple(graph.board(start))
    expected = Board.empty(graph.rules)
    for cell in (*played, move):
        expected = expected.play(cell)
    symmetries = graph.rules.symmetries
    if not played and board != expected.cells:
        stored = board.index(1)
        raise InputError(
            f"X's opening {move} is stored as its symmetric copy {stored}: give O's reply on "
            f"that board ({stored}:CELL)"
        )
    for t in range(len(symmetries)):  # 0, the identity, first
        if graph.rules.transform(expected.cells, t) == board:
            return start, symmetries[t]
    raise AssertionError(f"the graph's board {board} is no symmetric copy of {expected}")


def _child(graph: ArrayGraph, node: int, move: int, what: str) -> int:
    """The node after ``move`` at ``node`` (InputError when it is not a legal move there)."""
    lo, hi = int(graph.ptr[node]), int(graph.ptr[node + 1])
    at = np.flatnonzero(graph.move[lo:hi] == move)
    if not len(at):
        raise InputError(f"{what} {move} is not a legal move there")
    return int(graph.child[lo + int(at[0])])


def _fix_reply(graph: ArrayGraph, allowed: np.ndarray, start: int, cell: int, named: int) -> None:
    """Leave the table only ``cell`` (``named`` as played) at the node ``start``
    (:func:`_reply_start`; in place, InputError when it is not an allowed move there)."""
    lo, hi = int(graph.ptr[start]), int(graph.ptr[start + 1])
    at = np.flatnonzero(graph.move[lo:hi] == cell)
    if not len(at) or not allowed[lo + int(at[0])]:
        board = "".join(".XO"[c] for c in graph.board(start))
        where = f"the board {board}" if cell == named else f"its symmetric copy {board} ({cell})"
        raise InputError(f"{named} is not an allowed reply on {where}")
    allowed[lo:hi] = False
    allowed[lo + int(at[0])] = True


def split_variants(graph: ArrayGraph, variant: Variant, move: int | None = None) -> list[Variant]:
    """The variants ``variant``'s tables split into by one move, one per allowed move up to
    symmetry (the lowest cell of each distinct position): X's openings (``variant`` opens
    ``any``, no ``move``), O's replies to X's opening ``move`` (a cell of its board as the graph
    stores it), or X's answers to O's reply ``move`` to X's opening (``variant`` opens at a
    cell). A part of an earlier split (``variant`` with replies fixed) splits again by another
    ``move``. Every table of ``variant`` is a table of one of them, so the least of their minima
    (or of their lower bounds) bounds ``variant``'s.

    >>> g = build_array_graph(Variant.parse("second-lookup-entries").rules)
    >>> [v.name for v in split_variants(g, Variant.parse("second-lookup-entries"), 4)]
    ['second-4:0-lookup-entries']
    >>> [v.opening for v in split_variants(g, Variant.parse("first-any-lookup-entries"))]
    ['0', '1', '4']
    >>> [v.opening for v in split_variants(g, Variant.parse("second-1:4-lookup-entries"), 0)]
    ['1:4+0:4']
    >>> [v.opening for v in split_variants(g, Variant.parse("first-4-lookup-entries"), 0)]
    ['4+0:1', '4+0:2', '4+0:5', '4+0:8']
    """
    allowed = table_edge_mask(graph, variant)
    fixed = {a for a, _ in variant.replies()}
    cell_map: tuple[int, ...] = tuple(range(graph.rules.cells))
    if variant.role is Role.X and variant.opening == "any" and move is None:
        node, prefix = 0, ""
    elif (
        variant.role is not Role.BOTH
        and move is not None
        and move not in fixed
        and (variant.role is Role.O or variant.opening_cell(graph.rules) not in (None, move))
    ):
        node, cell_map = _reply_start(graph, variant, move)
        prefix = f"{variant.opening}+{move}:" if variant.opening else f"{move}:"
    else:
        raise InputError(
            f"{variant.name}: split X's tables by opening (opening any) or by X's answer to one "
            "of O's replies (opening a cell), O's by its reply to one of X's openings (not one "
            "fixed already)"
        )
    played = {stored: cell for cell, stored in enumerate(cell_map)}  # the answers as played
    lowest: dict[int, int] = {}
    for e in range(int(graph.ptr[node]), int(graph.ptr[node + 1])):
        child, cell = int(graph.child[e]), played[int(graph.move[e])]
        if allowed[e] and cell < lowest.get(child, graph.rules.cells):
            lowest[child] = cell
    return [variant.replace(opening=f"{prefix}{cell}") for cell in sorted(lowest.values())]


def split_moves(graph: ArrayGraph, variant: Variant) -> list[int]:
    """The opponent's moves :func:`split_variants` can split a part ``variant`` by, the lowest
    of each distinct position not fixed already: O's replies to X's opening cell (X's tables),
    or X's openings as the graph stores them (O's). Empty where every one is fixed.

    >>> g = build_array_graph(Variant.parse("first-4-lookup-entries").rules)
    >>> split_moves(g, Variant.parse("first-4-lookup-entries"))
    [0, 1]
    >>> split_moves(g, Variant.parse("first-4+0:1+1:0-lookup-entries"))
    []
    >>> split_moves(g, Variant.parse("first-0-lookup-entries"))   # 3 is 1's copy: as played
    [1, 2, 4, 5, 8]
    """
    opening = variant.opening_cell(graph.rules)
    if variant.role is Role.BOTH or (variant.role is Role.X and opening is None):
        return []
    seen = {_reply_start(graph, variant, a)[0] for a, _ in variant.replies()}
    moves = []
    for move in range(graph.rules.cells):
        try:
            node, _cells = _reply_start(graph, variant, move)
        except InputError:  # taken, not legal, or (O's) X's opening stored as another
            continue
        if node not in seen:
            seen.add(node)
            moves.append(move)
    return moves


def _check_variant(graph: ArrayGraph, variant: Variant) -> None:
    if variant.encoding != "lookup" or variant.role == "both":
        raise InputError("the array pipeline encodes lookup variants for role first or second")
    if graph.rules.name != variant.rules.name:
        raise InputError(f"variant is for {variant.game!r}, the graph for {graph.rules.name!r}")


def encode_arrays(graph: ArrayGraph, variant: Variant) -> ArrayFormula:
    """The lookup formula of ``variant`` (role first or second) over ``graph``: the region below
    the table's starts, finished games included (:func:`encode_region`)."""
    _check_variant(graph, variant)
    formula = encode_region(graph, variant)
    assert formula is not None  # no variable budget
    return formula


@dataclass
class _Levels:
    """What :func:`encode_region` collects level by level (node and edge ids, in order)."""

    long_nodes: list[np.ndarray]
    long_counts: list[np.ndarray]
    edges: list[np.ndarray]
    pair_edge: list[np.ndarray]  # edge variable index of each -e OR p_g clause
    pair_node: list[np.ndarray]  # its grandchild


def encode_region(
    graph: ArrayGraph,
    variant: Variant,
    *,
    allowed: np.ndarray | None = None,
    roots: Sequence[int] | None = None,
    paid: Collection[int] = (),
    horizon: int | None = None,
    frontier: Mapping[int, int] | None = None,
    max_vars: int | None = None,
) -> ArrayFormula | None:
    """The lookup formula of the region below ``roots`` (table positions of one level; default:
    the table's starts, the whole formula of :func:`encode_arrays`).

    ``allowed`` (default: :func:`table_edge_mask`) says which moves a table may play. With
    ``roots``, the region's positions are the unfinished ones reached through allowed moves that
    are not ``paid`` (a table's positions kept as they are); the whole formula (no ``roots``)
    also has a variable for each finished game, 003's count of positions. With a ``horizon``
    the region stops that many table levels below the roots: a move must lead there only to
    positions of ``frontier`` (``node -> weight``), which become position variables without a
    lookup clause, each weighing its weight (:attr:`ArrayFormula.weights`). ``None`` once the
    variables pass ``max_vars``.

    Numbering as :func:`encode_arrays`: positions in node order, then edges in edge order.
    """
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant) if allowed is None else allowed
    whole = roots is None
    current = distinct(np.asarray(graph.table_starts(side) if whole else roots, dtype=np.int64))
    stop = np.zeros(graph.size, dtype=bool)  # not a position variable: paid (or finished)
    if not whole:
        stop[graph.terminal] = True
    if paid:
        stop[np.fromiter(paid, dtype=np.int64, count=len(paid))] = True
    kept = np.zeros(graph.size, dtype=bool)
    if frontier:
        kept[np.fromiter(frontier, dtype=np.int64, count=len(frontier))] = True
    reached = np.zeros(graph.size, dtype=bool)
    reached[current] = True
    levels = _Levels([], [], [], [], [])
    count, moves, level = len(current), 0, 0
    edge_parent_rows = graph.ptr
    uptr, uchild = graph.unique_children
    frontier_nodes = np.zeros(0, dtype=np.int64)
    while len(current):
        level += 1
        nodes = current[~graph.terminal[current]]
        row, edge = csr_rows(edge_parent_rows, nodes)
        ok = allowed[edge]
        row, edge = row[ok], edge[ok]
        mrow, item = csr_rows(uptr, graph.child[edge])
        grand = uchild[item].astype(np.int64)
        live = ~stop[grand]
        mrow, grand = mrow[live], grand[live]
        at_horizon = horizon is not None and level == horizon
        if at_horizon:  # a move may land only on frontier positions
            ok = np.ones(len(edge), dtype=bool)
            ok[mrow[~kept[grand]]] = False
            renumber = np.cumsum(ok) - 1
            row, edge = row[ok], edge[ok]
            live = ok[mrow]
            mrow, grand = renumber[mrow[live]], grand[live]
        new = distinct(grand[~reached[grand]])
        reached[new] = True
        levels.long_nodes.append(nodes)
        levels.long_counts.append(np.bincount(row, minlength=len(nodes)))
        levels.edges.append(edge)
        levels.pair_edge.append(moves + mrow)
        levels.pair_node.append(grand)
        count, moves = count + len(new), moves + len(edge)
        if max_vars is not None and count + moves > max_vars:
            return None
        if at_horizon:
            frontier_nodes = new
            break
        current = new
    return _assemble(graph, variant, side, reached, levels, frontier_nodes, frontier, roots)


def _cat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)


def _assemble(
    graph: ArrayGraph,
    variant: Variant,
    side: int,
    reached: np.ndarray,
    levels: _Levels,
    frontier_nodes: np.ndarray,
    frontier: Mapping[int, int] | None,
    roots: Sequence[int] | None,
) -> ArrayFormula:
    """The formula's arrays from what :func:`encode_region` collected."""
    pos_node = np.flatnonzero(reached)
    n_pos = len(pos_node)
    pvar = np.zeros(graph.size, dtype=np.int64)
    pvar[pos_node] = np.arange(1, n_pos + 1)
    edge_id = _cat(levels.edges)
    evar = np.arange(n_pos + 1, n_pos + len(edge_id) + 1, dtype=np.int64)
    binary = np.stack([-evar[_cat(levels.pair_edge)], pvar[_cat(levels.pair_node)]], axis=1)
    par, cnt = _cat(levels.long_nodes), _cat(levels.long_counts)
    long_ptr = np.zeros(len(par) + 1, dtype=np.int64)
    np.cumsum(cnt + 1, out=long_ptr[1:])
    long_lits = np.empty(int(long_ptr[-1]), dtype=np.int32)
    heads = long_ptr[:-1]
    long_lits[heads] = -pvar[par]
    body = np.ones(len(long_lits), dtype=bool)
    body[heads] = False
    long_lits[body] = evar  # edges are in the same node order as the clauses
    starts = graph.table_starts(side) if roots is None else sorted(set(roots))
    weights = None
    if frontier:
        weights = np.ones(n_pos, dtype=np.int64)
        weights[pvar[frontier_nodes] - 1] = [frontier[int(h)] for h in frontier_nodes.tolist()]
    return ArrayFormula(
        variant=variant,
        side=side,
        pos_node=pos_node,
        edge_id=edge_id,
        units=pvar[np.asarray(starts, dtype=np.int64)].astype(np.int32),
        binary=binary.astype(np.int32),
        long_lits=long_lits,
        long_ptr=long_ptr,
        weights=weights,
    )


def hard_clauses(
    variant: Variant, graph: ArrayGraph | None = None
) -> tuple[list[list[int]], list[int]]:
    """``variant`` -> (hard clauses as DIMACS int lists, objective literals): the formula whose
    minimum the array pipeline proves (for certificates: SAT at the optimum, UNSAT below)."""
    g = graph if graph is not None else build_array_graph(variant.rules)
    f = encode_arrays(g, variant)
    clauses = [c for chunk in f.chunks() for c in chunk]
    return clauses, f.objective.tolist()


__all__ = [
    "ArrayFormula",
    "Clauses",
    "encode_arrays",
    "encode_region",
    "hard_clauses",
    "table_edge_mask",
]
