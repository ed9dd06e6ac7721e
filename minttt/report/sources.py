"""Figures the source documents state (``/work/shared/seeds`` 000-004), each quoted once.

REPORT.md sets these beside the figures ``reproduce`` computes; nothing else in the report is
typed by hand. 000's evolution figures are in :data:`minttt.evolve.runner.SOURCE_000`.
"""

from __future__ import annotations

from minttt.formula.variants import Variant
from minttt.game.counts import SITUATIONS_000

# 003's "Playing strength" round robin, 100,000 games a pairing: (X wins, O wins, draws)
ROUND_ROBIN_003: dict[tuple[str, str], tuple[int, int, int]] = {
    ("hashed-tree", "random"): (96844, 0, 3156),
    ("random", "hashed-tree"): (0, 77579, 22421),
    ("table", "random"): (95777, 0, 4223),
    ("random", "table"): (0, 85070, 14930),
    ("hashed-tree", "table"): (0, 0, 100000),
    ("table", "hashed-tree"): (0, 0, 100000),
}
# 003's minimal tables: (variant, variables {positions, edges}, optimum in positions)
SOURCE_003: tuple[tuple[Variant, dict[str, int], int], ...] = (
    (Variant("first", "corner", "tree", "positions"), {"positions": 352, "edges": 0}, 56),
    (Variant("first", "edge", "tree", "positions"), {"positions": 408, "edges": 0}, 94),
    (Variant("first", "center", "tree", "positions"), {"positions": 201, "edges": 0}, 41),
    (Variant("second", None, "tree", "positions"), {"positions": 282, "edges": 0}, 127),
    (Variant("first", "corner", "lookup", "positions"), {"positions": 195, "edges": 344}, 30),
    (Variant("first", "edge", "lookup", "positions"), {"positions": 226, "edges": 400}, 51),
    (Variant("first", "center", "lookup", "positions"), {"positions": 95, "edges": 201}, 22),
    (Variant("second", None, "lookup", "positions"), {"positions": 158, "edges": 248}, 75),
)

__all__ = [
    "ROUND_ROBIN_003",
    "SOURCE_003",
    "COUNT_ROWS",
    "GAMES_000",
    "JOINT_DIRECT_003",
    "JOINT_MERGED_003",
    "SAMPLED_GAMES_003",
    "SAMPLED_WIN_PERCENT_003",
    "SITUATIONS_000",
    "Z99_PERCENT",
]

#: (source, figure, what the source says, where ours is in ``counts.json``: section, key).
#: 003: "It hits 549,946 nodes and has 255,168 leaf nodes ... (131,184 ...), (77,904 ...)", the
#: hashed and symmetric recursions' counts; 001: "the first move, which has the most states to
#: explore (549,946)"; 000: "each of the 827 situations".
COUNT_ROWS: tuple[tuple[str, str, int, tuple[str, str]], ...] = (
    ("003", "full tree nodes", 549_946, ("full_tree", "nodes")),
    ("003", "full tree leaves", 255_168, ("full_tree", "leaves")),
    ("003", "leaves: X wins", 131_184, ("full_tree", "x_wins")),
    ("003", "leaves: O wins", 77_904, ("full_tree", "o_wins")),
    ("003", "leaves: draws", 46_080, ("full_tree", "draws")),
    ("003", "hashed: nodes examined", 16_168, ("hashed", "examined")),
    ("003", "hashed: positions kept", 5_478, ("hashed", "positions")),
    ("003", "hashed: largest hash", 19_560, ("hashed", "max_hash")),
    ("003", "symmetric: nodes examined", 2_271, ("symmetric", "examined")),
    ("003", "symmetric: positions kept", 765, ("symmetric", "positions")),
    ("003", "symmetric: largest hash", 17_141, ("symmetric", "max_hash")),
    (
        "001",
        "states for the first move (plain minimax, root included)",
        549_946,
        ("full_tree", "nodes"),
    ),
    ("000", "unique situations", SITUATIONS_000, ("situations_827", "value")),
)

#: 000: "there are a total of 23,129 possible Tic-Tac-Toe games to be played".
GAMES_000 = 23_129

#: 003: "merging the 41 and 127 trees into a tree with 168 nodes"; its direct attempt at one tree
#: for both roles gave 212 ("weird") -- quoted by the report's "Beyond the source" section.
JOINT_MERGED_003 = 168
JOINT_DIRECT_003 = 212

#: 003's sampled win rates of its tiny tables against a random player (percent), as X and as O,
#: over this many games each -- quoted by the report's "Beyond the source" section.
SAMPLED_WIN_PERCENT_003 = {"X": 95.78, "O": 85.07}
SAMPLED_GAMES_003 = 100_000

#: Not a source figure: 100 x 2.576, the two-sided 99% normal quantile, for half-widths in points.
Z99_PERCENT = 257.6
