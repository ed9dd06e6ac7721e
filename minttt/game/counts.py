"""Every count of the source documents, computed from the game graph.

The full tree (549,946 nodes) is counted with multiplicities over the 5,478-position hashed graph:
the number of move sequences reaching a position is the sum over its parents. :func:`walk_full_tree`
is the plain one-node-at-a-time walk kept as a test oracle.

>>> c = count_all()
>>> c["full_tree"]["nodes"], c["hashed"]["positions"], c["symmetric"]["positions"]
(549946, 5478, 765)
"""

from __future__ import annotations

from typing import Any

from minttt.errors import InputError
from minttt.game.graph import Graph, build_graph, graph_for
from minttt.game.rules import EMPTY, TIC_TAC_TOE, O, Rules, X


def full_tree_counts(hashed: Graph) -> dict[str, Any]:
    """Nodes, leaves by outcome and nodes per depth of the full game tree, by path multiplicities.

    ``hashed`` must be the non-symmetric graph (each node a real board).
    """
    if hashed.symmetric:
        raise ValueError("full_tree_counts needs the hashed (non-symmetric) graph")
    paths = {h: 0 for h in hashed.boards}
    paths[hashed.root] = 1
    by_depth = [0] * (hashed.rules.cells + 1)
    outcomes = {X: 0, O: 0, EMPTY: 0}
    for h in sorted(hashed.boards, key=hashed.depth):
        n = paths[h]
        by_depth[hashed.depth(h)] += n
        kids = hashed.children[h]
        if not kids:
            outcomes[hashed.winner(h)] += n
        for _, c in kids:
            paths[c] += n
    return _tree_summary(by_depth, outcomes)


def _tree_summary(by_depth: list[int], outcomes: dict[int, int]) -> dict[str, Any]:
    while len(by_depth) > 1 and by_depth[-1] == 0:
        by_depth.pop()
    return {
        "nodes": sum(by_depth),
        "leaves": sum(outcomes.values()),
        "x_wins": outcomes[X],
        "o_wins": outcomes[O],
        "draws": outcomes[EMPTY],
        "by_depth": by_depth,
    }


def walk_full_tree(rules: Rules = TIC_TAC_TOE) -> dict[str, Any]:
    """003's first recursion, literally: visit every node of the full tree (slow; a test oracle)."""
    by_depth = [0] * (rules.cells + 1)
    outcomes = {X: 0, O: 0, EMPTY: 0}
    cells = [EMPTY] * rules.cells

    def recurse(depth: int) -> None:
        by_depth[depth] += 1
        board = tuple(cells)
        maker = rules.line_winner(board)
        if maker or depth == rules.cells:
            outcomes[rules.winner(board)] += 1
            return
        mover = X if depth % 2 == 0 else O
        for m in range(rules.cells):
            if cells[m] == EMPTY:
                cells[m] = mover
                recurse(depth + 1)
                cells[m] = EMPTY

    recurse(0)
    return _tree_summary(by_depth, outcomes)


def terminal_classes(symmetric: Graph) -> dict[str, int]:
    """Terminal positions up to symmetry, by outcome (138 = 91 + 44 + 3 for tic-tac-toe)."""
    out = {"x_wins": 0, "o_wins": 0, "draws": 0}
    for h in symmetric.boards:
        if symmetric.is_terminal(h):
            w = symmetric.winner(h)
            out["x_wins" if w == X else "o_wins" if w == O else "draws"] += 1
    return out


def decision_positions(symmetric: Graph) -> dict[str, int]:
    """Non-terminal positions up to symmetry, by the side to move (338 + 289)."""
    out = {"x_to_move": 0, "o_to_move": 0}
    for h in symmetric.boards:
        if not symmetric.is_terminal(h):
            out["x_to_move" if symmetric.to_move(h) == X else "o_to_move"] += 1
    return out


def games_up_to_symmetry(symmetric: Graph) -> int:
    """Games when, at each position, moves that a symmetry of the position maps onto each other
    count once (the usual 26,830)."""
    rules = symmetric.rules
    memo: dict[int, int] = {}
    for h in sorted(symmetric.boards, key=symmetric.depth, reverse=True):
        kids = symmetric.children[h]
        if not kids:
            memo[h] = 1
            continue
        cells = symmetric.boards[h]
        stab = [t for t in range(len(rules.symmetries)) if rules.transform(cells, t) == cells]
        seen: set[int] = set()
        total = 0
        for m, c in kids:
            if m in seen:
                continue
            seen.update(rules.symmetries[t][m] for t in stab)
            total += memo[c]
        memo[h] = total
    return memo[symmetric.root]


def sequence_orbits(rules: Rules = TIC_TAC_TOE) -> int:
    """Orbits of whole games (move sequences) under the board's symmetries, by Burnside's lemma.

    A game is fixed by a symmetry when every cell it plays is a fixed cell of that symmetry.
    """
    total = 0
    for perm in rules.symmetries:
        fixed = [i for i in range(rules.cells) if perm[i] == i]
        total += _games_on_cells(rules, fixed)
    return total // len(rules.symmetries)


def _games_on_cells(rules: Rules, allowed: list[int]) -> int:
    """Number of complete games whose every move lies in ``allowed`` (memoised on the position)."""
    memo: dict[tuple[int, ...], int] = {}

    def count(board: tuple[int, ...], depth: int) -> int:
        if board in memo:
            return memo[board]
        if rules.line_winner(board) or depth == rules.cells:
            return 1
        mover = X if depth % 2 == 0 else O
        total = 0
        for m in allowed:
            if board[m] == EMPTY:
                total += count(board[:m] + (mover,) + board[m + 1 :], depth + 1)
        memo[board] = total
        return total

    return count((EMPTY,) * rules.cells, 0)


#: 000: "an individual for this population maintains a mapping for each of the 827 situations".
SITUATIONS_000 = 827


def situations_827(rules: Rules = TIC_TAC_TOE) -> dict[str, Any]:
    """What 000's 827 "situations" count: boards up to symmetry, out of all 3^9, whose piece counts
    are plausible (x = o or x = o + 1) and that are not full.

    That is 000's own recipe ("exhaustively constructing all possible situations (3^9) and reducing
    the valid ones to their base cases"), with "valid" read as plausible counts only: it keeps 200
    boards that already have a line (finished, or impossible), which no strategy is asked about.
    """
    import numpy as np

    n = rules.cells
    codes = np.arange(3**n, dtype=np.int64)
    digits = (codes[:, None] // np.array(rules.powers, dtype=np.int64)[None, :]) % 3
    powers = np.array(rules.powers, dtype=np.int64)
    # canonical hash of every board: the minimum over the symmetries (piece on i moves to perm[i])
    canon = np.min(
        np.stack(
            [
                digits[:, list(rules.inverse_symmetries[t])] @ powers
                for t in range(len(rules.symmetries))
            ]
        ),
        axis=0,
    )
    xs, os = (digits == X).sum(axis=1), (digits == O).sum(axis=1)
    has_line = np.zeros(len(codes), dtype=bool)
    for line in rules.lines:
        first = digits[:, line[0]]
        has_line |= (first != EMPTY) & np.all(digits[:, list(line)] == first[:, None], axis=1)
    base = (canon == codes) & ((xs - os == 0) | (xs - os == 1))
    not_full = (digits == EMPTY).any(axis=1)
    orbits = {
        "plausible": int(base.sum()),
        "plausible_not_full": int((base & not_full).sum()),
        "with_line": int((base & not_full & has_line).sum()),
        "reachable_decisions": int((base & not_full & ~has_line).sum()),
    }
    value, asked, lined = (
        orbits["plausible_not_full"],
        orbits["reachable_decisions"],
        orbits["with_line"],
    )
    return {
        "value": value,
        "counts": "boards up to symmetry with x = o or x = o + 1 that are not full",
        "reproduced": value == SITUATIONS_000,
        "plausible_boards": orbits["plausible"],
        "decision_positions": asked,
        "with_a_line": lined,
        "note": (
            f"{value} = {asked} positions where a move is really asked for + {lined} boards that "
            f"already hold a line (finished or impossible); a genome needs only the {asked}"
        ),
    }


FULL_COUNT_MAX_CELLS = 12


def count_all(rules: Rules = TIC_TAC_TOE, *, full: bool | None = None) -> dict[str, Any]:
    """Every count in the ``minttt count --json`` shape.

    Parameters
    ----------
    rules
        The game (default: tic-tac-toe).
    full
        Add what needs the non-symmetric graph or every board state: the full tree, the hashed
        recursion and the game counts. Default: for boards of at most 12 cells. Larger boards get
        the symmetric graph from the numpy builder, and those keys are ``None``.

    Returns
    -------
    dict[str, Any]
        Count name -> value, as ``minttt count --json`` prints it (JSON-ready).
    """
    if full is None:
        full = rules.cells <= FULL_COUNT_MAX_CELLS
    symmetric = (
        build_graph(rules, symmetric=True)
        if rules.cells <= FULL_COUNT_MAX_CELLS
        else graph_for(rules)  # the numpy builder's object view
    )
    result: dict[str, Any] = {
        "game": rules.name,
        "full_tree": None,
        "hashed": None,
        "symmetric": {
            "examined": symmetric.examined,
            "positions": len(symmetric),
            "max_hash": symmetric.max_hash,
        },
        "terminal_classes": terminal_classes(symmetric),
        "games_up_to_symmetry": None,
        "sequence_orbits": None,
        "decision_positions": decision_positions(symmetric),
        "value": symmetric.value(symmetric.root),
    }
    if full:
        hashed = build_graph(rules, symmetric=False)
        result["full_tree"] = full_tree_counts(hashed)
        result["hashed"] = {
            "examined": hashed.examined,
            "positions": len(hashed),
            "max_hash": hashed.max_hash,
        }
        result["games_up_to_symmetry"] = games_up_to_symmetry(symmetric)
        result["sequence_orbits"] = sequence_orbits(rules)
    if rules == Rules(3, 3, 3, rules.misere) and not rules.misere:
        result["situations_827"] = situations_827(rules)
    return result


def raw_counts(rules: Rules) -> dict[str, Any]:
    """The raw graph (``--symmetry none``): positions, decision positions by side, terminals."""
    if rules.cells > 12:
        raise InputError("--symmetry none: boards up to 12 cells")
    g = build_graph(rules, symmetric=False)
    decision = [h for h in g if not g.is_terminal(h)]
    x_to_move = sum(1 for h in decision if g.to_move(h) == 1)
    return {
        "game": rules.name,
        "symmetry": "none",
        "examined": g.examined,
        "positions": len(g),
        "max_hash": g.max_hash,
        "terminal": len(g) - len(decision),
        "decision_positions": {"x_to_move": x_to_move, "o_to_move": len(decision) - x_to_move},
        "value": g.value(g.root),
    }


__all__ = [
    "FULL_COUNT_MAX_CELLS",
    "SITUATIONS_000",
    "count_all",
    "decision_positions",
    "full_tree_counts",
    "raw_counts",
    "games_up_to_symmetry",
    "sequence_orbits",
    "situations_827",
    "terminal_classes",
    "walk_full_tree",
]
