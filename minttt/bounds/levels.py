"""A lower bound ply by ply: the sum of each table level's own minimum.

A table's entries are the non-terminal table positions it reaches, and each lies at one depth, so
``entries = sum over levels L of |reached at L|``. Any table also solves the formula *cut at L*:
the same clauses for the positions above L, none for L's own moves or below (they only constrain
deeper levels). So ``|reached at L|`` is at least the minimum of that cut formula when only L's
non-terminal positions are counted, and the sum of those per-level minima bounds every table from
below. Each level is a smaller problem than the whole (RC2 proves the early levels at once); under
a time limit, RC2's cost at the stop (the cores it found) is still a lower bound for that level,
so the sum stays sound when some levels are only bounded.

Where it helps: the whole formula asks RC2 for one long chain of cores over every level at once;
the levels apart give it short ones. Where it cannot help: a level's minimum ignores what the
levels below cost, so the sum can fall short of the minimum: it meets it on 3x3 O (72) and 3x4 X
(46), falls 2 short on 3x3 X (20 against 22), 23 on 3x4 O (166 against 189).

>>> from minttt.formula.variants import Variant
>>> from minttt.formula.arrays import encode_arrays
>>> from minttt.game.arrays import build_array_graph
>>> v = Variant.parse("second-lookup-entries")
>>> g = build_array_graph(v.rules)
>>> result = level_bounds(g, encode_arrays(g, v), seconds_per_level=10)
>>> [(lv.depth, lv.lower, lv.optimal) for lv in result.levels]
[(1, 3, True), (3, 10, True), (5, 34, True), (7, 25, True)]
>>> result.lower, result.complete   # the certified minimum: 72
(72, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from minttt.formula.arrays import ArrayFormula
from minttt.game.arrays import ArrayGraph
from minttt.solvers.arrays import rc2_arrays


@dataclass(frozen=True)
class LevelBound:
    """One level's minimum (``optimal``) or a lower bound of it, and the seconds it took."""

    depth: int
    lower: int
    optimal: bool
    seconds: float


@dataclass(frozen=True)
class LevelBounds:
    """Every level's bound; ``lower`` is their sum, ``complete`` when every level is optimal."""

    levels: list[LevelBound]

    @property
    def lower(self) -> int:
        """The bound: the sum of the levels' bounds."""
        return sum(level.lower for level in self.levels)

    @property
    def complete(self) -> bool:
        """Every level solved to its minimum (none stopped by the time limit)."""
        return all(level.optimal for level in self.levels)


def level_bounds(
    graph: ArrayGraph,
    formula: ArrayFormula,
    *,
    seconds_per_level: float = 60.0,
    on_level: Callable[[LevelBound], None] | None = None,
) -> LevelBounds:
    """Each table level's minimum by RC2 over the formula cut at that level
    (:meth:`~minttt.formula.arrays.ArrayFormula.cut`; a bound of it when RC2 runs out
    of ``seconds_per_level``), from the first level down; ``on_level`` sees each as it is done."""
    if formula.variant.objective != "entries":
        raise ValueError("level bounds count lookup entries: use an entries variant")
    heads, head_depth = formula.heads(), formula.head_depths(graph)
    out: list[LevelBound] = []
    for depth in sorted(set(head_depth.tolist())):
        start = time.perf_counter()
        cut = formula.cut(graph, depth)
        result = rc2_arrays(cut, timeout=seconds_per_level, objective=heads[head_depth == depth])
        level = LevelBound(
            depth=depth,
            lower=int(result.lower),
            optimal=result.model is not None,
            seconds=round(time.perf_counter() - start, 2),
        )
        out.append(level)
        if on_level is not None:
            on_level(level)
    return LevelBounds(out)


__all__ = ["LevelBound", "LevelBounds", "level_bounds"]
