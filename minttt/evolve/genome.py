"""000's genome: one gene per symmetry-reduced situation, an allele = the index of a legal move.

Genes are the canonical positions (minimum hash over the 8 symmetries) sorted by hash, as 000's
"base case -> gene index" table. ``genes=627`` keeps only the positions where a move is really
asked for; ``genes=827`` is 000's own count (boards up to symmetry with x = o or x = o + 1 that are
not full): it adds 200 boards that already hold a line, whose genes are never consulted.

An allele ``a`` at gene ``g`` means the ``a``-th empty cell (in increasing order) of the gene's
canonical board.

>>> index = GeneIndex.build()
>>> index.size, int(index.decision.sum())
(627, 627)
>>> GeneIndex.build(genes=827).size
827
>>> index.move(0, 4)          # gene 0 is the empty board; allele 4 is the centre
4
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from minttt.errors import InputError
from minttt.game.graph import Graph, build_graph
from minttt.game.rules import EMPTY, TIC_TAC_TOE, Rules

GENE_COUNTS = (627, 827)


@dataclass(frozen=True, eq=False)
class GeneIndex:
    """The genes of a genome: which canonical board each gene answers and its legal moves."""

    graph: Graph
    hashes: np.ndarray  # (G,) canonical hash per gene, increasing
    boards: np.ndarray  # (G, 9) cells of each gene's canonical board
    n_legal: np.ndarray  # (G,) number of alleles per gene
    legal: np.ndarray  # (G, 9) legal cells per gene, padded with -1
    decision: np.ndarray  # (G,) True where the gene is a real decision position of the graph

    @classmethod
    def build(cls, genes: int = 627, graph: Graph | None = None) -> GeneIndex:
        """The gene index for 627 decision positions or 000's 827 situations."""
        if genes not in GENE_COUNTS:
            raise InputError(f"--genes must be 627 or 827, got {genes}")
        return _build(genes) if graph is None else _build_from(genes, graph)

    @property
    def size(self) -> int:
        """The number of genes (decision positions)."""
        return len(self.hashes)

    def gene_of(self, h: int) -> int:
        """The gene answering canonical hash ``h`` (KeyError if none)."""
        i = int(np.searchsorted(self.hashes, h))
        if i >= self.size or int(self.hashes[i]) != h:
            raise KeyError(h)
        return i

    def move_at(self, h: int, genome: np.ndarray) -> int:
        """The canonical move ``genome`` plays at canonical position ``h``."""
        gene = self.gene_of(h)
        return self.move(gene, int(genome[gene]))

    def move(self, gene: int, allele: int) -> int:
        """The cell on the gene's canonical board that ``allele`` plays."""
        return int(self.legal[gene, allele])

    def random_population(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` genomes with uniformly random legal alleles (000: no seeding heuristics)."""
        draws = rng.random((size, self.size))
        return np.floor(draws * self.n_legal[None, :]).astype(np.int8)

    def moves(self, genome: np.ndarray) -> dict[int, int]:
        """Canonical hash -> canonical move for every decision position of ``genome``."""
        cells = self.legal[np.arange(self.size), genome.astype(np.int64)]
        return {
            int(h): int(m) for h, m, d in zip(self.hashes, cells, self.decision, strict=True) if d
        }


def _situation_hashes(rules: Rules) -> np.ndarray:
    """Canonical hashes of 000's situations: plausible piece counts, not full (827 for 3x3)."""
    n = rules.cells
    powers = np.array(rules.powers, dtype=np.int64)
    codes = np.arange(3**n, dtype=np.int64)
    digits = (codes[:, None] // powers[None, :]) % 3
    canon = np.min(
        np.stack([digits[:, list(inv)] @ powers for inv in rules.inverse_symmetries]), axis=0
    )
    xs, os = (digits == 1).sum(axis=1), (digits == 2).sum(axis=1)
    keep = (canon == codes) & ((xs == os) | (xs == os + 1)) & (digits == EMPTY).any(axis=1)
    return codes[keep]


@cache
def _build(genes: int) -> GeneIndex:
    return _build_from(genes, build_graph(TIC_TAC_TOE, symmetric=True))


def _build_from(genes: int, graph: Graph) -> GeneIndex:
    rules = graph.rules
    decisions = sorted(h for h in graph.boards if not graph.is_terminal(h))
    if genes == 827:
        hashes = [int(h) for h in _situation_hashes(rules)]
        if len(hashes) != 827 or not set(decisions) <= set(hashes):
            raise InputError("000's 827 situations only exist for 3x3 tic-tac-toe")
    else:
        hashes = decisions
    n = rules.cells
    boards = np.zeros((len(hashes), n), dtype=np.int8)
    for i, h in enumerate(hashes):
        v = h
        for c in range(n):
            v, boards[i, c] = divmod(v, 3)
    legal = np.full((len(hashes), n), -1, dtype=np.int8)
    n_legal = np.zeros(len(hashes), dtype=np.int64)
    for i in range(len(hashes)):
        empty = np.flatnonzero(boards[i] == EMPTY)
        legal[i, : len(empty)] = empty
        n_legal[i] = len(empty)
    decision_set = set(decisions)
    decision = np.array([h in decision_set for h in hashes], dtype=bool)
    return GeneIndex(graph, np.array(hashes, dtype=np.int64), boards, n_legal, legal, decision)


__all__ = [
    "GENE_COUNTS",
    "GeneIndex",
]
