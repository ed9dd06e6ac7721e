"""Game-tree search with state counts: 004's minimax, 001's negamax and alpha-beta.

``search(board, algorithm, ordering)`` returns the chosen move, its value, the states explored and
the time taken. States count every position the search visits below the root (not the root
itself), like 001's C counter; add one for the root. Values are from X's side (+1 X wins, 0 draw,
-1 O wins), as everywhere in minttt.

>>> r = search(Board.empty(), "alphabeta")
>>> r.move, r.value, r.states          # 001: "about 18,000" states for the first move
(0, 0, 18296)
>>> search(Board.empty(), "alphabeta", ordering=True).states
2095
>>> search(Board.parse("........x"), "alphabeta").states     # 001's transcript prints 3956
3956
"""

from __future__ import annotations

import io
import os
import time
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from minttt.errors import InputError
from minttt.fileio import write_bytes_atomic
from minttt.game.graph import build_graph
from minttt.game.rules import TIC_TAC_TOE, Board, Rules
from minttt.play.players.bitboard import Outcome
from minttt.play.players.minimax import minimax
from minttt.play.players.negamax import negamax

ALGORITHMS: tuple[str, ...] = ("minimax", "negamax", "alphabeta")

#: 001's figures for the first move (from the empty board) and its transcript.
SOURCE_001 = {
    "minimax_states_first_move": 549_946,  # 001's Java tree; equals 003's full tree (root included)
    "alphabeta_states_first_move": 18_000,  # "reduced the numbers of states explored ... to 18,000"
    "alphabeta_seconds_first_move_c": 0.0009,  # "900 us" in C
    "minimax_seconds_first_move_c": 0.030,  # "30 ms for the first move" in C
    "transcript_states": {"........x": 3956, "..x.o...x": 4230},  # cumulative counter in 001
}


@dataclass(frozen=True)
class SearchResult:
    """The move (cell 0-8), its value (X's side), states explored (root not counted), time."""

    move: int
    value: int
    states: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The search as JSON-ready data."""
        return asdict(self)

    def lines(self, position: Board) -> list[str]:
        """001's console report of the search from ``position``: the board, the time, the states,
        the move and its value, the board after it."""
        value = {1: "X wins", 0: "draw", -1: "O wins"}[self.value]
        return [
            position.pretty(),
            duration(self.seconds),
            f"{self.states} states explored (root not counted).",
            f"I play cell {self.move}; value {self.value:+d} ({value} with best play).",
            position.play(self.move).pretty(),
        ]


def duration(seconds: float) -> str:
    """A short time: ``12 us``, ``3.4 ms`` or ``1.25 s``."""
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def check_board(board: Board) -> None:
    """InputError (one line) unless ``board`` is a position with a move to make."""
    if board.is_terminal:
        w = board.winner()
        how = "x has won" if w == 1 else "o has won" if w == 2 else "the board is full"
        raise InputError(f"board {board} is already finished ({how}); there is no move to search")


def _run(board: Board, algorithm: str, ordering: bool) -> Outcome:
    if algorithm == "minimax":
        if ordering:
            raise InputError("--ordering applies to negamax and alphabeta; 004's minimax has none")
        return minimax(board)
    if algorithm == "negamax":
        return negamax(board, prune=False, ordering=ordering)
    if algorithm == "alphabeta":
        return negamax(board, prune=True, ordering=ordering)
    raise InputError(f"unknown algorithm {algorithm!r}: expected one of {', '.join(ALGORITHMS)}")


def search(board: Board, algorithm: str = "alphabeta", ordering: bool = False) -> SearchResult:
    """Search ``board`` (a non-terminal position) with ``algorithm`` and time it."""
    check_board(board)
    start = time.perf_counter()
    found = _run(board, algorithm, ordering)
    seconds = time.perf_counter() - start
    return SearchResult(found.moves[0], found.value, found.states, seconds)


# -- states explored per move number (001's plots) -------------------------------------------


def _positions_by_ply(rules: Rules) -> list[list[tuple[int, ...]]]:
    """Every reachable non-terminal position (no symmetry reduction), grouped by pieces played."""

    graph = build_graph(rules, symmetric=False)
    groups: list[list[tuple[int, ...]]] = [[] for _ in range(rules.cells)]
    for h in sorted(graph.boards):
        if not graph.is_terminal(h):
            groups[graph.depth(h)].append(graph.boards[h])
    return groups


@cache
def _tree_sizes(rules: Rules) -> dict[tuple[int, ...], int]:
    """Nodes of the full game tree below each position (what minimax and negamax visit)."""
    sizes: dict[tuple[int, ...], int] = {}

    def size(board: Board) -> int:
        got = sizes.get(board.cells)
        if got is None:
            got = sum(1 + size(board.play(m)) for m in board.legal_moves())
            sizes[board.cells] = got
        return got

    size(Board.empty(rules))
    return sizes


def states_per_move(rules: Rules = TIC_TAC_TOE) -> dict[str, Any]:
    """Mean states explored to choose a move, for each move number (1 = the first move).

    Averaged over every reachable position where that move is to be made (all 4,520 non-terminal
    positions of tic-tac-toe, no symmetry reduction), so the figures are exact and repeatable (001
    averaged over the games it happened to play). Minimax and negamax visit the whole tree below the
    position, so their count is the subtree size (tested equal to a real run); the alpha-beta
    columns are real runs with and without move ordering.
    """
    groups = _positions_by_ply(rules)
    sizes = _tree_sizes(rules)
    data: dict[str, Any] = {
        "counting": "states below the root (root not counted), mean over positions",
        "move_number": [],
        "positions": [],
        "minimax": [],
        "alphabeta": [],
        "alphabeta_ordered": [],
    }
    for ply, cells_list in enumerate(groups):
        if not cells_list:
            continue
        boards = [Board(c, rules) for c in cells_list]
        n = len(boards)
        data["move_number"].append(ply + 1)
        data["positions"].append(n)
        data["minimax"].append(round(sum(sizes[b.cells] for b in boards) / n, 2))
        for key, ordering in (("alphabeta", False), ("alphabeta_ordered", True)):
            total = sum(negamax(b, prune=True, ordering=ordering).states for b in boards)
            data[key].append(round(total / n, 2))
    return data


def plot_states_per_move(
    path: str | os.PathLike[str],
    rules: Rules = TIC_TAC_TOE,
    data: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write 001's plot (mean states explored per move number, log scale) as a PNG; return the data.

    ``data`` (from :func:`states_per_move`) skips recomputing it. The PNG bytes are deterministic:
    fixed size and dpi, no software or date metadata.
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    if data is None:
        data = states_per_move(rules)
    x = data["move_number"]
    fig = Figure(figsize=(7.0, 4.5), dpi=100)
    ax = fig.add_subplot()
    ax.plot(x, data["minimax"], "o-", label="minimax / negamax (no pruning)")
    ax.plot(x, data["alphabeta"], "s-", label="alpha-beta, cell order (001's)")
    ax.plot(x, data["alphabeta_ordered"], "^-", label="alpha-beta, move ordering")
    quoted: list[Any] = [
        SOURCE_001["minimax_states_first_move"],
        SOURCE_001["alphabeta_states_first_move"],
        3956,
    ]
    ax.plot(
        [1, 1, 2],
        quoted,
        "kx",
        markersize=9,
        label="001's figures (single positions: first move; O's reply to a corner)",
    )
    ax.set_yscale("log")
    ax.set_xticks(x)
    ax.set_xlabel("move number")
    ax.set_ylabel("states explored (mean over positions)")
    ax.set_title(f"States explored per move number, {rules.name} (root not counted)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    write_bytes_atomic(path, buffer.getvalue())
    return data


__all__ = [
    "ALGORITHMS",
    "SOURCE_001",
    "SearchResult",
    "check_board",
    "duration",
    "plot_states_per_move",
    "search",
    "states_per_move",
]
