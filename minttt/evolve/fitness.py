"""000's exhaustive fitness, vectorised: a whole population against every opponent line at once.

000 lets each strategy play "an exhaustive set of all possible matches": the strategy's own move at
its turns, every opponent reply at the opponent's turns, once starting (as X) and once second (as
O). We count those games exactly as the verifier does on real boards (every empty cell is a
separate opponent reply), but walk the 765 canonical positions: a strategy defined on canonical
boards plays isomorphic games from every board of a symmetry class, so the number of games (and
of games won and lost) below a real board equals the number below its canonical board, and
``games(h) = sum over the opponent's empty cells of games(child)``.

The walk goes backwards, depth 9 to 0, one layer at a time, on one int64 per (position, individual)
that packs the three counts (games, lost, won; 21 bits each, so sums never carry between them): at
the strategy's positions every individual gathers the count of the child its allele picks, at the
opponent's positions the whole population sums the (at most 9) children, with multiplicity.

>>> from minttt.evolve.genome import GeneIndex
>>> tree = ExhaustiveTree(GeneIndex.build())
>>> rng = np.random.default_rng(0)
>>> out = tree.evaluate(GeneIndex.build().random_population(rng, 4))
>>> out.games.shape, bool((out.lost <= out.games).all())
((2, 4), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minttt.evolve.genome import GeneIndex
from minttt.game.graph import own_play
from minttt.game.rules import O, X

#: 000's table 1: (won, tied) points when the strategy moved first (X) and second (O).
POINTS = {X: (10, 5), O: (15, 10)}
FITNESS_NAMES = ("not-lost", "points")


@dataclass(frozen=True)
class Outcomes:
    """Exhaustive-match counts per role (row 0: the strategy plays X, row 1: O) and individual."""

    games: np.ndarray  # (2, P)
    lost: np.ndarray  # (2, P)
    won: np.ndarray  # (2, P)

    @property
    def tied(self) -> np.ndarray:
        """Games each individual drew, per row."""
        return self.games - self.lost - self.won

    def not_lost(self) -> np.ndarray:
        """000's final fitness: the fraction of all games (both rounds) not lost."""
        total = self.games.sum(axis=0)
        return (total - self.lost.sum(axis=0)) / total

    def points(self) -> np.ndarray:
        """000's first fitness (table 1): points per game won or tied, moving first or second."""
        (wx, tx), (wo, to) = POINTS[X], POINTS[O]
        tied = self.tied
        return wx * self.won[0] + tx * tied[0] + wo * self.won[1] + to * tied[1]

    def fitness(self, name: str) -> np.ndarray:
        """The fitness named ``name`` (``not-lost`` or ``points``) per individual."""
        return self.points() if name == "points" else self.not_lost()

    def perfect(self) -> np.ndarray:
        """Individuals that lose no game at all, as X or as O."""
        return self.lost.sum(axis=0) == 0


@dataclass(frozen=True)
class _Layer:
    size: int
    terminal_rows: np.ndarray  # rows of this layer that are finished games
    terminal_values: np.ndarray  # (n_t, 3): games, lost, won
    strategy_rows: np.ndarray
    strategy_genes: np.ndarray  # gene per strategy row
    strategy_children: np.ndarray  # (n_s, 9): child row in the next layer per allele
    strategy_base: np.ndarray  # 9 * row: where each strategy row starts in strategy_children
    opponent_rows: np.ndarray
    opponent_children: np.ndarray  # (n_o, 9): child rows, padded with the zero row (next size)


class ExhaustiveTree:
    """The canonical game graph laid out in layers, once per role, for :meth:`evaluate`."""

    def __init__(self, index: GeneIndex) -> None:
        self.index = index
        graph = index.graph
        self.graph = graph
        self.layers_by_depth = [g for g in graph.by_depth() if g]
        self.plans = {role: self._plan(role) for role in (X, O)}

    def _plan(self, role: int) -> list[_Layer]:
        graph, index = self.graph, self.index
        depths = self.layers_by_depth
        rows = [{h: i for i, h in enumerate(layer)} for layer in depths]
        plan = []
        for d, layer in enumerate(depths):
            term_r, term_v, s_r, s_g, s_c, o_r, o_m = [], [], [], [], [], [], []
            nxt = rows[d + 1] if d + 1 < len(depths) else {}
            for i, h in enumerate(layer):
                if graph.is_terminal(h):
                    w = graph.winner(h)
                    term_r.append(i)
                    term_v.append(_pack(1, int(w == 3 - role), int(w == role)))
                elif graph.to_move(h) == role:
                    g = index.gene_of(h)
                    kids = dict(graph.children[h])
                    table = [0] * 9
                    for a in range(int(index.n_legal[g])):
                        table[a] = nxt[kids[index.move(g, a)]]
                    s_r.append(i)
                    s_g.append(g)
                    s_c.append(table)
                else:
                    child_rows = [nxt[c] for _, c in graph.children[h]]
                    o_r.append(i)
                    o_m.append(child_rows + [len(nxt)] * (9 - len(child_rows)))
            plan.append(
                _Layer(
                    size=len(layer),
                    terminal_rows=np.array(term_r, dtype=np.int64),
                    terminal_values=np.array(term_v, dtype=np.int64),
                    strategy_rows=np.array(s_r, dtype=np.int64),
                    strategy_genes=np.array(s_g, dtype=np.int64),
                    strategy_children=np.array(s_c, dtype=np.int64).reshape(-1, 9),
                    strategy_base=9 * np.arange(len(s_r), dtype=np.int64),
                    opponent_rows=np.array(o_r, dtype=np.int64),
                    opponent_children=np.array(o_m, dtype=np.int64).reshape(-1, 9),
                )
            )
        return plan

    def _evaluate_role(self, role: int, genes_by_row: np.ndarray) -> np.ndarray:
        """(3, P) counts of games, lost and won below the root for ``role``.

        ``genes_by_row`` is the population transposed: one row per gene, one column per genome.
        """
        pop = genes_by_row.shape[1]
        cols = np.arange(pop)[None, :]
        below = np.zeros((1, pop), dtype=np.int64)  # the zero row only
        for layer in reversed(self.plans[role]):
            here = np.zeros((layer.size + 1, pop), dtype=np.int64)  # last row stays zero
            if len(layer.terminal_rows):
                here[layer.terminal_rows] = layer.terminal_values[:, None]
            if len(layer.strategy_rows):
                alleles = genes_by_row[layer.strategy_genes]
                child = layer.strategy_children.ravel()[layer.strategy_base[:, None] + alleles]
                here[layer.strategy_rows] = np.take(below, child * pop + cols)
            if len(layer.opponent_rows):
                kids = layer.opponent_children
                total = below[kids[:, 0]]
                for k in range(1, kids.shape[1]):
                    total += below[kids[:, k]]
                here[layer.opponent_rows] = total
            below = here
        return _unpack(below[0])

    def evaluate(self, population: np.ndarray) -> Outcomes:
        """Exhaustive-match counts for every genome (rows of ``population``)."""
        population = np.asarray(population)
        if population.ndim != 2 or population.shape[1] != self.index.size:
            raise ValueError(f"population must have shape (P, {self.index.size})")
        by_row = np.ascontiguousarray(population.T)
        counts = np.stack([self._evaluate_role(X, by_row), self._evaluate_role(O, by_row)])
        return Outcomes(games=counts[:, 0], lost=counts[:, 1], won=counts[:, 2])


_BITS = 21
_MASK = (1 << _BITS) - 1


def _pack(games: int, lost: int, won: int) -> int:
    return games | (lost << _BITS) | (won << (2 * _BITS))


def _unpack(packed: np.ndarray) -> np.ndarray:
    return np.stack([packed & _MASK, (packed >> _BITS) & _MASK, (packed >> (2 * _BITS)) & _MASK])


def reached_moves(index: GeneIndex, genome: np.ndarray) -> dict[int, int]:
    """Canonical hash -> canonical move at every position the genome's own play reaches,
    as X and as O, against every opponent reply (the entries of its table)."""
    moves: dict[int, int] = {}
    for role in (X, O):
        moves.update(own_play(index.graph, role, lambda h: index.move_at(h, genome)))
    return dict(sorted(moves.items()))


__all__ = [
    "ExhaustiveTree",
    "FITNESS_NAMES",
    "Outcomes",
    "POINTS",
    "reached_moves",
]
