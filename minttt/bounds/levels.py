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
from pathlib import Path
from typing import Any

import numpy as np

from minttt.formula.arrays import ArrayFormula
from minttt.formula.instance import instance_for
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph
from minttt.proof.certify import OutOfTime
from minttt.proof.lower import build_lower_certificate
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


def blocks_of(depths: list[int], size: int) -> list[list[int]]:
    """``depths`` (the table's, increasing) in blocks of ``size`` consecutive levels: the sum of
    the block minima bounds a table too, and grows with the block (a block's minimum is at least
    the sum of its levels' minima: its cheapest answers at one level pay at the next).

    >>> blocks_of([1, 3, 5, 7, 9], 2)
    [[1, 3], [5, 7], [9]]
    """
    if size < 1:
        raise ValueError(f"a block has at least one level, got {size}")
    return [depths[i : i + size] for i in range(0, len(depths), size)]


def table_depths(graph: ArrayGraph, formula: ArrayFormula) -> list[int]:
    """The depths where a table of ``formula`` answers (its levels), increasing."""
    return sorted(set(formula.head_depths(graph).tolist()))


@dataclass(frozen=True)
class BlockBound:
    """A block of levels worked out on a worker: RC2's bound of the table's entries at
    ``depths`` (``optimal``: their minimum), and the certificate of ``certified`` (that bound,
    or 0 when CaDiCaL did not refute it in time): its lower-index record and files."""

    depths: list[int]
    lower: int
    optimal: bool
    seconds: float
    certified: int
    certificate: dict[str, Any] | None
    files: dict[str, bytes]


def block_bound(
    name: str,
    depths: list[int],
    graph: ArrayGraph,
    seconds: float | None,
    cert_seconds: float | None,
    drat_trim: str | None = None,
    certified: int = 0,
) -> BlockBound:
    """The entries at ``depths`` of every table of the variant ``name``: RC2 on the formula cut
    below the deepest (``seconds`` at most; ``None``: to its end), then CaDiCaL's refutation of
    one entry fewer (``cert_seconds`` at most), checked (drat-trim when given, its LRAT by
    minttt.lrat; else minttt's checker), unless ``certified`` (a bound certified before) is as
    high. A task for a worker (the ``graph`` scattered to it once); the formula is encoded
    here."""
    variant = Variant.parse(name)
    start = time.perf_counter()
    inst = instance_for(variant, graph=graph)
    formula = inst.formula
    assert isinstance(formula, ArrayFormula)
    heads, head_depth = formula.heads(), formula.head_depths(graph)
    cut = formula.cut(graph, max(depths))
    at = np.isin(head_depth, np.asarray(depths, dtype=np.int64))
    result = rc2_arrays(cut, timeout=seconds, objective=heads[at])
    lower = int(result.lower)
    certificate, files, proven = None, {}, 0
    if lower > certified:
        try:
            cert = build_lower_certificate(
                variant,
                lower,
                "",
                depths=depths,
                graph=graph,
                formula=formula,
                seconds=cert_seconds,
                drat_trim=None if drat_trim is None else Path(drat_trim),
                exact=result.model is not None,
            )
        except OutOfTime:
            pass
        else:
            certificate, proven = cert.record, lower
            files = {str(p): data for p, data in cert.files.items()}
    return BlockBound(
        depths=list(depths),
        lower=lower,
        optimal=result.model is not None,
        seconds=round(time.perf_counter() - start, 2),
        certified=proven,
        certificate=certificate,
        files=files,
    )


__all__ = [
    "BlockBound",
    "LevelBound",
    "LevelBounds",
    "block_bound",
    "blocks_of",
    "level_bounds",
    "table_depths",
]
