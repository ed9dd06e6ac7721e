"""A lower bound by decomposition over the first player's openings.

A table for the ``any`` opening plays one opening and is then a table for that opening, so the
least of the openings' minima is a lower bound of the ``any`` minimum: each opening's RC2 lower
bound (its proven minimum where RC2 finishes) bounds the tables that open there.
"""

from __future__ import annotations

from collections.abc import Callable
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
