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
    """One depth, its rows ordered: finished games, then the strategy's, then the opponent's."""

    size: int
    terminal_values: np.ndarray  # (n_t,): games, lost and won, packed
    strategy_genes: np.ndarray  # gene per strategy row
    strategy_children: np.ndarray  # (n_s * 9,): child row in the next layer per allele
    strategy_base: np.ndarray  # (n_s, 1): 9 * row, where each strategy row starts above
    opponent_children: np.ndarray  # (n_o, most children): padded with the zero row (next size)

    @property
    def strategy_end(self) -> int:
        """The row after the strategy's rows (the opponent's start there)."""
        return len(self.terminal_values) + len(self.strategy_genes)


class ExhaustiveTree:
    """The canonical game graph laid out in layers, once per role, for :meth:`evaluate`."""

    def __init__(self, index: GeneIndex) -> None:
        self.index = index
        graph = index.graph
        self.graph = graph
        self.layers_by_depth = [g for g in graph.by_depth() if g]
        self.plans = {role: self._plan(role) for role in (X, O)}

    def _kind(self, role: int, h: int) -> int:
        """0 for a finished game, 1 where ``role`` moves, 2 where the opponent does."""
        if self.graph.is_terminal(h):
            return 0
        return 1 if self.graph.to_move(h) == role else 2

    def _plan(self, role: int) -> list[_Layer]:
        graph, index = self.graph, self.index
        depths = [
            sorted(layer, key=lambda h: self._kind(role, h)) for layer in self.layers_by_depth
        ]
        rows = [{h: i for i, h in enumerate(layer)} for layer in depths]
        plan = []
        for d, layer in enumerate(depths):
            term_v, s_g, s_c, o_m = [], [], [], []
            nxt = rows[d + 1] if d + 1 < len(depths) else {}
            for h in layer:
                kind = self._kind(role, h)
                if kind == 0:
                    w = graph.winner(h)
                    term_v.append(_pack(1, int(w == 3 - role), int(w == role)))
                elif kind == 1:
                    g = index.gene_of(h)
                    kids = dict(graph.children[h])
                    table = [0] * 9
                    for a in range(int(index.n_legal[g])):
                        table[a] = nxt[kids[index.move(g, a)]]
                    s_g.append(g)
                    s_c += table
                else:
                    o_m.append([nxt[c] for _, c in graph.children[h]])
            plan.append(
                _Layer(
                    size=len(layer),
                    terminal_values=np.array(term_v, dtype=np.int64),
                    strategy_genes=np.array(s_g, dtype=np.int64),
                    strategy_children=np.array(s_c, dtype=np.int64),
                    strategy_base=9 * np.arange(len(s_g), dtype=np.int64)[:, None],
                    opponent_children=_padded(o_m, len(nxt)),
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
            here = np.empty((layer.size + 1, pop), dtype=np.int64)
            here[-1] = 0  # the zero row, where padded children point
            start, end = len(layer.terminal_values), layer.strategy_end
            here[:start] = layer.terminal_values[:, None]
            if end > start:
                child = layer.strategy_children[
                    layer.strategy_base + genes_by_row[layer.strategy_genes]
                ]
                child *= pop
                child += cols
                np.take(below, child, out=here[start:end])
            kids = layer.opponent_children
            if len(kids):
                total = here[end : layer.size]
                np.take(below, kids[:, 0], axis=0, out=total)
                for k in range(1, kids.shape[1]):
                    total += below[kids[:, k]]
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


def _padded(rows: list[list[int]], zero_row: int) -> np.ndarray:
    """``rows`` as one array, each padded with ``zero_row`` to the longest (every position of a
    layer has as many empty cells: no padding at all but in the last layers' mixes)."""
    width = max((len(r) for r in rows), default=0)
    return np.array([r + [zero_row] * (width - len(r)) for r in rows], dtype=np.int64).reshape(
        len(rows), width
    )


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
