"""The reference encoder: the lookup and tree formulas of any m,n,k variant, and the CNF of every
certificate the project ships, written from the definitions alone (:mod:`minttt.trust.game`;
nothing of :mod:`minttt.game`, :mod:`minttt.formula` or :mod:`minttt.solvers`).

**The lookup formula** of a table playing one side: a variable per *table position* (the
table's starts: the empty board for X, each of X's openings for O; then every position two
plies after a table position through a move the table may play, finished games included) and
per *edge* (a move the table may play at a table position that is not finished). Clauses: each
start is true; a true table position has a true edge (``-p OR e_1 .. e_k``); a true edge makes
every position the opponent can reach after it true (``-e OR p_g``). The moves a table may play
are the criterion's (``optimal``: keep the value; ``never-lose``), only the fixed opening at the
start, only the fixed reply where a part fixes one. A table of ``n`` entries is a model with
``n`` true edges; the entries objective counts the table positions that need an edge (each true
one needs its own), the positions objective every true table position.

**The tree formula** (positions objective only): a variable per position the table's side can
reach playing only allowed moves while the opponent plays anything; the start is true, a true
position of the table's side has a true allowed child, a true opponent position makes all its
children true. Role ``both`` joins an X part and an O part; a position in both gets a variable
``u`` (``x -> u``, ``o -> u``) counted once.

**Numbering.** Two forms give the same formula numbered two ways, as the shipped files are:
the *walk* form (3x3 and the object certificates) numbers variables in the order a breadth-first
walk of the table's play first meets them; the *level* form (the array certificates and every
lower-bound part) numbers the table positions by position (depth, then hash), then the edges
level by level. Clauses come in the pipeline's order, so the DIMACS text from the ``p cnf`` line
on is the pipeline's byte for byte (:meth:`Cnf.text`).

**Certificates.** A minimum ``m``: the formula and "at most ``m - 1`` of the bounded literals"
by python-sat's ``CardEnc.atmost`` (kmtotalizer), the one piece taken from a library. A relaxed
cores part: the level formula cut below its deepest depth counted, the totalizers of its cores
log (made here again, each input a table position or an earlier root's output, used once), and
the clause "one of the bounded literals is false"; its lower bound is the number of bounded
literals.

>>> cnf = certificate_cnf(VariantSpec.parse("second-lookup-entries"), 72, form="walk")
>>> cnf.nvars, len(cnf)   # results/proofs/second-lookup-entries.cnf.xz's
(1514, 4918)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minttt.errors import InputError
from minttt.trust.game import Game, GameGraph, build_graph

#: the certificate that bounds only the positions at most this many plies deep (the full bound
#: is out of CaDiCaL's reach): a table with at most m-1 positions has at most m-1 such ones
DEPTH_BOUNDED = {"first-any-tree-positions@mnk:4,4,3": 7}
CHUNK = 100_000  # clauses per piece of DIMACS text


@dataclass(frozen=True)
class VariantSpec:
    """Who the table plays (``first``, ``second``, ``both``), its opening (``center``,
    ``corner``, ``edge``, ``any`` or a cell, then ``+B:C`` X's fixed answers; O's fixed replies
    ``A:B+..``), ``tree`` or ``lookup``, ``positions`` or ``entries``, criterion and game."""

    role: str
    opening: str | None
    encoding: str
    objective: str
    criterion: str
    game: str

    @classmethod
    def parse(cls, name: str) -> VariantSpec:
        """``role[-opening]-encoding-objective[-never-lose][@game]``."""
        text, _, game = name.strip().partition("@")
        criterion = "optimal"
        if text.endswith("-never-lose"):
            criterion, text = "never-lose", text.removesuffix("-never-lose")
        bits = text.split("-")
        if len(bits) not in (3, 4) or bits[0] not in ("first", "second", "both"):
            raise InputError(f"variant {name!r}: expected role[-opening]-encoding-objective")
        opening = bits[1] if len(bits) == 4 else None
        if bits[0] != "second" and opening is None:
            opening = "center"
        if (bits[-2], bits[-1]) not in (
            ("tree", "positions"),
            ("lookup", "positions"),
            ("lookup", "entries"),
        ):
            raise InputError(f"variant {name!r}: tree-positions, lookup-positions or -entries")
        variant = cls(bits[0], opening, bits[-2], bits[-1], criterion, game or "3x3")
        variant.replies()  # checks them
        return variant

    @property
    def name(self) -> str:
        """The variant's name, as :meth:`parse` reads it."""
        bits = [
            self.role,
            *([self.opening] if self.opening else []),
            self.encoding,
            self.objective,
            *(["never-lose"] if self.criterion == "never-lose" else []),
        ]
        text = "-".join(bits)
        return text if self.game == "3x3" else f"{text}@{self.game}"

    @property
    def sides(self) -> tuple[int, ...]:
        """The sides the table plays: 1 (X), 2 (O)."""
        return {"first": (1,), "second": (2,), "both": (1, 2)}[self.role]

    def opening_cell(self, game: Game) -> int | None:
        """X's fixed first move (None: any, or the second player)."""
        head = (self.opening or "any").partition("+")[0]
        if self.role == "second" or head == "any":
            return None
        if head.isdigit() and int(head) < game.cells:
            return int(head)
        if head == "corner":
            return 0
        if head == "center" and game.rows % 2 and game.cols % 2:
            return (game.rows // 2) * game.cols + game.cols // 2
        if head == "edge" and (game.rows, game.cols) == (3, 3):
            return 1
        raise InputError(f"opening {self.opening!r} is not a cell of {self.game}")

    def replies(self) -> list[tuple[int, int]]:
        """The fixed ``(opponent's cell, table's cell)`` pairs: O's replies ``A:B`` to X's
        opening, or X's answers ``+B:C`` to O's reply after X's opening cell."""
        if self.opening is None:
            return []
        texts = self.opening.split("+")
        texts = texts if self.role == "second" else texts[1:]
        out = []
        for text in texts:
            a, sep, b = text.partition(":")
            if not (sep and a.isdigit() and b.isdigit()):
                raise InputError(f"opening {self.opening!r}: expected A:B fixed replies")
            out.append((int(a), int(b)))
        return out


@dataclass
class Cnf:
    """A CNF: ``nvars`` and its clauses as blocks, each ``(flat literals, clause sizes)``."""

    nvars: int
    blocks: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def add(self, clauses: Sequence[Sequence[int]]) -> None:
        """Append clauses given as lists of literals."""
        if len(clauses):
            flat = np.fromiter((x for c in clauses for x in c), dtype=np.int64)
            self.blocks.append((flat, np.array([len(c) for c in clauses], dtype=np.int64)))

    def __len__(self) -> int:
        return sum(len(sizes) for _, sizes in self.blocks)

    def dimacs(self) -> Iterator[bytes]:
        """The ``p cnf`` line, then every clause as a DIMACS line, a piece at a time."""
        yield f"p cnf {self.nvars} {len(self)}\n".encode()
        for flat, sizes in self.blocks:
            ends = np.cumsum(sizes)
            for a in range(0, len(sizes), CHUNK):
                b = min(a + CHUNK, len(sizes))
                lo, hi = int(ends[a] - sizes[a]), int(ends[b - 1])
                shape = "".join(["%d " * k + "0\n" for k in sizes[a:b].tolist()])
                yield (shape % tuple(flat[lo:hi].tolist())).encode()

    def text(self) -> bytes:
        """The whole DIMACS text (a shipped CNF's from its ``p cnf`` line on)."""
        return b"".join(self.dimacs())


def cnf_body(text: bytes) -> bytes:
    """A DIMACS text without its comment lines: the ``p cnf`` line on."""
    at = 0 if text.startswith(b"p cnf") else text.find(b"\np cnf") + 1
    if at <= 0 and not text.startswith(b"p cnf"):
        raise InputError("not a DIMACS CNF: no 'p cnf' line")
    return text[at:]


# ---------------------------------------------------------------- the walk form (objects)


class _Numbers:
    """Variables numbered 1, 2, ... as they are made, and the clauses."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[tuple[int, ...]] = []

    def new(self) -> int:
        self.top += 1
        return self.top


def _own_moves(graph: GameGraph, criterion: str, opening: int | None) -> list[list[int]]:
    """Per position, the cells a table may play there (only the opening at the start)."""
    ok = graph.allowed(criterion).tolist()
    moves, ptr = graph.move.tolist(), graph.ptr.tolist()
    out = [[moves[e] for e in range(ptr[n], ptr[n + 1]) if ok[e]] for n in range(graph.size)]
    if opening is not None:
        if opening not in out[0]:
            raise InputError(f"opening cell {opening} is not an allowed first move")
        out[0] = [opening]
    return out


def _walk(graph: GameGraph, side: int, own_moves: list[list[int]]) -> Iterator[tuple[Any, ...]]:
    """Breadth first from the empty board: ``(position, own, finished, followed moves)``; the
    table's side follows its allowed moves, the opponent every move; each position once."""
    seen, queue = {0}, deque([(0, side == 1)])
    while queue:
        node, own = queue.popleft()
        here = graph.moves(node)
        if not here:
            yield node, own, True, []
            continue
        kids = dict(here)
        followed = [(m, kids[m]) for m in own_moves[node]] if own else here
        yield node, own, False, followed
        for _, c in followed:
            if c not in seen:
                seen.add(c)
                queue.append((c, not own))


def _distinct(items: Any) -> list[int]:
    return list(dict.fromkeys(items))


def _tree_part(graph: GameGraph, b: _Numbers, side: int, moves: list[list[int]]) -> dict[int, int]:
    walk = list(_walk(graph, side, moves))
    pos = {node: b.top + i for i, (node, *_) in enumerate(walk, start=1)}
    b.top += len(pos)
    b.clauses.append((pos[0],))
    for node, own, finished, followed in walk:
        if finished:
            continue
        kids = _distinct(c for _, c in followed)
        if own:
            b.clauses.append((-pos[node], *[pos[c] for c in kids]))
        else:
            b.clauses += [(-pos[node], pos[c]) for c in kids]
    return pos


def _lookup_part(
    graph: GameGraph, b: _Numbers, side: int, moves: list[list[int]]
) -> tuple[dict[int, int], list[int]]:
    pos: dict[int, int] = {}

    def var(node: int) -> int:
        if node not in pos:
            pos[node] = b.new()
        return pos[node]

    starts = [0] if side == 1 else _distinct(c for _, c in graph.moves(0))
    b.clauses += [(var(s),) for s in starts]
    edges: list[int] = []
    for node, own, finished, followed in _walk(graph, side, moves):
        if own and not finished:
            ors = []
            for _, c in followed:
                e = b.new()
                edges.append(e)
                ors.append(e)
                b.clauses += [(-e, var(g)) for g in _distinct(x for _, x in graph.moves(c))]
            b.clauses.append((-var(node), *ors))
    return pos, edges


def walk_formula(graph: GameGraph, variant: VariantSpec) -> tuple[Cnf, list[int]]:
    """The walk form of ``variant``'s formula and its objective literals (one or two parts)."""
    b = _Numbers()
    opening = variant.opening_cell(graph.game)
    parts: list[tuple[dict[int, int], list[int]]] = []
    for side in variant.sides:
        moves = _own_moves(graph, variant.criterion, opening if side == 1 else None)
        if variant.encoding == "tree":
            parts.append((_tree_part(graph, b, side, moves), []))
        else:
            parts.append(_lookup_part(graph, b, side, moves))
    if variant.objective == "entries":
        objective = [e for _, edges in parts for e in edges]
    elif len(parts) == 1:
        objective = list(parts[0][0].values())
    else:
        (px, _), (po, _) = parts
        objective = []
        for node, v in px.items():
            if node in po:
                u = b.new()
                b.clauses += [(-v, u), (-po[node], u)]
            objective.append(u if node in po else v)
        objective += [v for node, v in po.items() if node not in px]
    depth = DEPTH_BOUNDED.get(variant.name)
    if depth is not None:
        deep = {v for node, v in parts[0][0].items() if graph.depth[node] > depth}
        objective = [v for v in objective if v not in deep]
    cnf = Cnf(b.top)
    cnf.add(b.clauses)
    return cnf, objective


# ---------------------------------------------------------------- the level form (arrays)


def _rows(ptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The items of CSR rows ``rows``: (index of each item's row in ``rows``, item)."""
    first, count = ptr[rows], ptr[rows + 1] - ptr[rows]
    row = np.repeat(np.arange(len(rows)), count)
    before = np.repeat(np.cumsum(count) - count, count)
    return row, np.repeat(first, count) + np.arange(int(count.sum())) - before


def _reply_node(graph: GameGraph, variant: VariantSpec, theirs: int) -> tuple[int, tuple[int, ...]]:
    """Where the table answers the opponent's cell ``theirs`` and how the cells as played map
    onto that position's canonical board (the lowest symmetry that does)."""
    game, node, played = graph.game, 0, []
    if variant.role == "first":
        opening = variant.opening_cell(game)
        if opening is None:
            raise InputError(f"{variant.name}: X's fixed answers follow an opening cell")
        node, played = graph.child_at(0, opening), [opening]
    at = graph.child_at(node, theirs)
    board, expected = graph.board(at), [0] * game.cells
    for i, cell in enumerate([*played, theirs]):
        expected[cell] = 1 + i % 2
    if not played and tuple(expected) != board:
        raise InputError(f"X's opening {theirs} is stored as a symmetric copy: name that one")
    for t in range(len(game.symmetries)):
        if game.transform(tuple(expected), t) == board:
            return at, game.symmetries[t]
    raise InputError(f"{variant.name}: the board after {theirs} is no copy of the one played")


def table_moves(graph: GameGraph, variant: VariantSpec) -> np.ndarray:
    """Per move: may ``variant``'s table play it (criterion, opening, fixed replies)?"""
    ok = graph.allowed(variant.criterion)
    fixed = [(0, variant.opening_cell(graph.game))] if variant.role == "first" else []
    fixed += [
        (at, cells[ours])
        for at, cells, ours in ((*_reply_node(graph, variant, a), b) for a, b in variant.replies())
    ]
    for node, cell in fixed:
        if cell is None:
            continue
        lo, hi = int(graph.ptr[node]), int(graph.ptr[node + 1])
        hit = [e for e in range(lo, hi) if graph.move[e] == cell and ok[e]]
        if not hit:
            raise InputError(f"{variant.name}: cell {cell} is not an allowed move there")
        ok[lo:hi] = False
        ok[hit[0]] = True
    return ok


@dataclass
class LevelFormula:
    """The level form: position variables ``1..P`` (reached positions by depth, then hash),
    edges ``P+1..P+E`` (level by level, position by position, cells increasing); the lookup
    clauses' heads (position variables) and their depths; the clauses by kind."""

    positions: int
    edges: int
    units: np.ndarray
    pair: np.ndarray  # (B, 2): -e OR p_g
    pair_depth: np.ndarray  # depth of each pair's p_g
    heads: np.ndarray  # the position variable of each -p OR e.. clause
    head_depth: np.ndarray
    counts: np.ndarray  # edges of each lookup clause

    def cnf(self, below: int | None = None) -> Cnf:
        """The clauses (units, pairs, lookup clauses), cut below depth ``below`` if given: no
        lookup clause at or below it, no pair leading below it."""
        keep_pair = np.ones(len(self.pair), bool) if below is None else self.pair_depth <= below
        keep_head = np.ones(len(self.heads), bool) if below is None else self.head_depth < below
        first = np.cumsum(self.counts) - self.counts + self.positions + 1  # each one's 1st edge
        counts = self.counts[keep_head]
        offset = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        bodies = np.repeat(first[keep_head], counts) + offset
        sizes = counts + 1
        flat = np.empty(int(sizes.sum()), dtype=np.int64)
        starts = np.cumsum(sizes) - sizes
        flat[starts] = -self.heads[keep_head]
        body = np.ones(len(flat), bool)
        body[starts] = False
        flat[body] = bodies
        cnf = Cnf(self.positions + self.edges)
        cnf.blocks.append((self.units, np.ones(len(self.units), dtype=np.int64)))
        pairs = self.pair[keep_pair]
        cnf.blocks.append((pairs.ravel(), np.full(len(pairs), 2, dtype=np.int64)))
        cnf.blocks.append((flat, sizes))
        return cnf


def level_formula(graph: GameGraph, variant: VariantSpec) -> LevelFormula:
    """The lookup formula of one side's table in the level form."""
    if variant.encoding != "lookup" or variant.role == "both":
        raise InputError("the level form is of lookup formulas of one side")
    ok = table_moves(graph, variant)
    key = np.unique(graph.parent * graph.size + graph.child)  # each position's distinct children
    kid = key % graph.size
    kptr = np.concatenate([[0], np.cumsum(np.bincount(key // graph.size, minlength=graph.size))])
    starts = np.array([0]) if variant.sides == (1,) else kid[kptr[0] : kptr[1]]
    reached = np.zeros(graph.size, bool)
    reached[starts] = True
    current, made = starts, 0
    heads, counts, edge_parts, pair_e, pair_g = [], [], [], [], []
    while len(current):
        nodes = current[~graph.terminal[current]]
        row, edge = _rows(graph.ptr, nodes)
        row, edge = row[ok[edge]], edge[ok[edge]]
        grow, item = _rows(kptr, graph.child[edge])
        grand = kid[item]
        heads.append(nodes)
        counts.append(np.bincount(row, minlength=len(nodes)))
        edge_parts.append(edge)
        pair_e.append(made + grow)
        pair_g.append(grand)
        made += len(edge)
        current = np.unique(grand[~reached[grand]])
        reached[current] = True
    pos_node = np.flatnonzero(reached)
    pvar = np.zeros(graph.size, dtype=np.int64)
    pvar[pos_node] = np.arange(1, len(pos_node) + 1)
    head_nodes, grand = np.concatenate(heads), np.concatenate(pair_g)
    evar = len(pos_node) + 1 + np.concatenate(pair_e)
    return LevelFormula(
        positions=len(pos_node),
        edges=made,
        units=pvar[starts],
        pair=np.stack([-evar, pvar[grand]], axis=1),
        pair_depth=graph.depth[grand],
        heads=pvar[head_nodes],
        head_depth=graph.depth[head_nodes],
        counts=np.concatenate(counts),
    )


# ---------------------------------------------------------------- bounds and certificates


def at_most(cnf: Cnf, literals: Sequence[int], bound: int) -> None:
    """Add "at most ``bound`` of ``literals`` are true" (python-sat's kmtotalizer)."""
    from pysat.card import CardEnc, EncType

    card = CardEnc.atmost(
        list(literals), bound=bound, top_id=cnf.nvars, encoding=EncType.kmtotalizer
    )
    cnf.nvars = max(cnf.nvars, card.nv)
    cnf.add(card.clauses)


def certificate_cnf(variant: VariantSpec, minimum: int, *, form: str) -> Cnf:
    """The CNF of a certificate of ``minimum``: the formula (``form`` ``walk`` or ``level``)
    and at most ``minimum - 1`` of its bounded literals."""
    if minimum < 1:
        raise InputError(f"minimum must be >= 1, got {minimum}")
    graph = build_graph(Game.from_name(variant.game))
    if form == "walk":
        cnf, bounded = walk_formula(graph, variant)
    elif form == "level":
        formula = level_formula(graph, variant)
        cnf = formula.cnf()
        every = np.arange(1, formula.positions + 1)
        bounded = (np.sort(formula.heads) if variant.objective == "entries" else every).tolist()
    else:
        raise InputError(f"unknown form {form!r}: walk or level")
    at_most(cnf, bounded, minimum - 1)
    return cnf


def _tree(inputs: list[int]) -> Any:
    """A totalizer tree over ``inputs`` (left half first), no outputs yet but a leaf's (its
    input): ``[size, outputs, left, right]``."""
    if len(inputs) == 1:
        return [1, [inputs[0]], None, None]
    half = len(inputs) // 2
    return [len(inputs), [], _tree(inputs[:half]), _tree(inputs[half:])]


def _grow(node: Any, bound: int, top: int, out: list[list[int]]) -> int:
    """Outputs of ``node`` up to ``min(bound, size)`` (children first), with the upward
    clauses ``-a_i OR -b_k OR r_(i+k)``: the new top variable."""
    size, outputs, left, right = node
    want, have = min(bound, size), len(outputs)
    if left is None or want <= have:
        return top
    top = _grow(left, want, top, out)
    top = _grow(right, want, top, out)
    outputs += range(top + 1, top + 1 + want - have)
    top += want - have
    for j in range(have + 1, want + 1):
        for i in range(max(0, j - right[0]), min(j, left[0]) + 1):
            clause = ([-left[1][i - 1]] if i else []) + ([-right[1][j - i - 1]] if j - i else [])
            out.append([*clause, outputs[j - 1]])
    return top


def relaxation(
    log: Sequence[Sequence[Any]], bounded: Sequence[int], allowed: set[int], top: int
) -> tuple[int, list[list[int]]]:
    """The totalizers of a cores ``log`` (``["new", bound, *inputs]``, ``["grow", index,
    bound]``) from variable ``top + 1`` on, checked sound: inputs are ``allowed`` positions or
    earlier roots' outputs, each used once; the ``bounded`` literals distinct, of those, used
    by none. Returns the top variable and the clauses."""
    roots: list[Any] = []
    outputs: set[int] = set()
    used: set[int] = set()
    clauses: list[list[int]] = []
    for op in log:
        ints = [x for x in op[1:] if isinstance(x, int) and not isinstance(x, bool)]
        if not op or len(ints) != len(op) - 1 or op[0] not in ("new", "grow"):
            raise InputError(f"not a totalizer operation: {list(op)[:4]}")
        if op[0] == "new":
            inputs = ints[1:]
            if len(inputs) < 2 or len(set(inputs)) < len(inputs) or ints[0] < 1:
                raise InputError("a totalizer needs two or more distinct inputs, bound >= 1")
            if not set(inputs) <= allowed | outputs or used & set(inputs):
                raise InputError(
                    "a totalizer's inputs: table positions or earlier roots' "
                    "outputs, each input to one totalizer at most"
                )
            used |= set(inputs)
            roots.append(_tree(inputs))
        elif len(ints) != 2 or not 0 <= ints[0] < len(roots) or ints[1] < 1:
            raise InputError(f"no totalizer {ints[:1]} to grow")
        root, bound = (roots[-1], ints[0]) if op[0] == "new" else (roots[ints[0]], ints[1])
        top = _grow(root, bound, top, clauses)
        outputs |= set(root[1])
    lits = list(bounded)
    if not lits or len(set(lits)) != len(lits) or not set(lits) <= allowed | outputs:
        raise InputError("the bounded literals must be distinct table positions or root outputs")
    if used & set(lits):
        raise InputError("a bounded literal must not be a totalizer's input")
    return top, clauses


def relaxed_cnf(
    variant: VariantSpec,
    log: Sequence[Sequence[Any]],
    bounded: Sequence[int],
    depths: Sequence[int],
    graph: GameGraph | None = None,
) -> Cnf:
    """The CNF of a relaxed cores part at ``depths``: unsatisfiable means every table of
    ``variant`` has at least ``len(bounded)`` entries there."""
    if not depths or any(not isinstance(d, int) or d < 0 for d in depths):
        raise InputError(f"depths must be table depths, got {depths!r}")
    graph = graph or build_graph(Game.from_name(variant.game))
    formula = level_formula(graph, variant)
    cnf = formula.cnf(below=max(depths))
    counted = formula.heads[np.isin(formula.head_depth, list(depths))]
    top, clauses = relaxation(log, bounded, set(counted.tolist()), cnf.nvars)
    cnf.nvars = top
    cnf.add([*clauses, [-int(x) for x in bounded]])
    return cnf


__all__ = [
    "Cnf",
    "LevelFormula",
    "VariantSpec",
    "at_most",
    "certificate_cnf",
    "cnf_body",
    "level_formula",
    "relaxation",
    "relaxed_cnf",
    "table_moves",
    "walk_formula",
]
