"""A lower bound by decomposition over the first player's openings.

A table for the ``any`` opening plays one opening and is then a table for that opening, so the
least of the openings' minima is a lower bound of the ``any`` minimum: each opening's RC2 lower
bound (its proven minimum where RC2 finishes) bounds the tables that open there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from minttt.formula.arrays import encode_arrays, split_variants, table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.solvers.arrays import rc2_arrays


@dataclass
class OpeningBounds:
    """Each canonical opening's RC2 lower bound (``proven``: the opening's minimum), the cells
    allowed to open, the seconds each opening had; ``lower`` is the least of them."""

    variant: str
    allowed_openings: list[int]
    openings: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds_each: float = 0.0

    @property
    def lower(self) -> int:
        """The bound: the least opening bound."""
        return min(r["lower"] for r in self.openings.values())

    def to_dict(self) -> dict[str, Any]:
        """The record ``bounds.json`` keeps (``opening_decomposition``)."""
        return {
            "variant": self.variant,
            "allowed_openings": self.allowed_openings,
            "openings": self.openings,
            "lower": self.lower,
            "seconds_each": self.seconds_each,
        }


def opening_bounds(
    variant: Variant, time_limit: float, say: Callable[[str], None] = print
) -> OpeningBounds:
    """Decomposition by opening (first player, ``any`` opening): each canonical opening
    (:func:`minttt.formula.arrays.split_variants`) gets ``time_limit / openings`` seconds of RC2."""
    graph = build_array_graph(variant.rules)
    allowed = table_edge_mask(graph, variant)
    lo, hi = int(graph.ptr[0]), int(graph.ptr[1])
    cells = sorted({int(graph.move[e]) for e in range(lo, hi) if allowed[e]})
    parts = split_variants(graph, variant)  # one per canonical opening
    per = time_limit / max(1, len(parts))
    out = OpeningBounds(variant.name, cells, seconds_each=round(per, 1))
    for part in parts:
        o = rc2_arrays(encode_arrays(graph, part), timeout=per)
        out.openings[str(part.opening)] = {"lower": o.lower, "proven": not o.timed_out}
        say(f"  opening {part.opening}: lower {o.lower}{'' if o.timed_out else ' (optimum)'}")
    return out


__all__ = ["OpeningBounds", "opening_bounds"]


def best_cut(
    name: str, splits: Mapping[str, Sequence[str]], bounds: Mapping[str, int]
) -> tuple[int, list[str]] | None:
    """The best lower bound of ``name`` from split parts: its own bound (``bounds``), or the
    least over the parts of its split (``splits[name]``, each part at its best, split again
    where ``splits`` says), whichever is higher. Every table of a split variant is a table of
    one of its parts, so both bound it; a part's split can bound lower than the part itself
    (each part of it had a short budget), and is then left out. Returns the bound and the parts
    whose least it is (``[name]`` for its own); None where neither is known (a part of the
    split without a bound leaves the split out).

    >>> splits = {"a": ["b", "c"], "b": ["d", "e"]}
    >>> best_cut("a", splits, {"a": 5, "b": 9, "c": 8, "d": 7, "e": 10})   # b's split: 7 < 9
    (8, ['b', 'c'])
    >>> best_cut("a", splits, {"a": 5, "b": 6, "c": 8, "d": 7, "e": 10})   # b's split: 7 > 6
    (7, ['d', 'e', 'c'])
    >>> best_cut("a", splits, {"a": 5, "b": 9})   # c has no bound: a's own
    (5, ['a'])
    """
    own = bounds.get(name)
    parts = [best_cut(p, splits, bounds) for p in splits.get(name, ())]
    if parts and all(p is not None for p in parts):
        done = [p for p in parts if p is not None]
        low = min(bound for bound, _ in done)
        if own is None or low > own:
            return low, [leaf for _, leaves in done for leaf in leaves]
    return None if own is None else (own, [name])
