"""The shipped exchange files: every standard 3x3 variant as WCNF and SMT-LIB 2, each headed by its
optimum, proven by RC2 and cross-checked by Z3 before anything is written (``encodings/``).

The formats themselves are :mod:`minttt.formula.files`; this module runs the solvers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from minttt.errors import InputError
from minttt.fileio import write_texts_atomic
from minttt.formula.encode import encode
from minttt.formula.files import FORMATS, render
from minttt.formula.variants import Variant, standard_variants
from minttt.game.graph import build_graph
from minttt.solvers.portfolio import cross_check, solve

if TYPE_CHECKING:
    from minttt.solvers.solution import Solution

__all__ = ["write_encodings"]


def write_encodings(
    out_dir: str | Path = "encodings",
    variants: Sequence[Variant] | None = None,
    *,
    final: bool = False,
    solutions: Mapping[str, Solution] | None = None,
) -> list[Path]:
    """Write every standard variant as ``<variant>.wcnf`` and ``<variant>.smt2`` with its optimum.

    Each optimum is proven by RC2 and checked against Z3's Optimize before it is written, or
    taken from ``solutions`` (variant name -> that same cross-checked solution, as ``reproduce``'s
    tables step made it). Returns the paths written (sorted); the bytes are deterministic.
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: is a file; --all writes into a folder")
    graph = build_graph()
    texts: dict[str | PathLike[str], str] = {}
    for variant in variants or standard_variants():
        formula = encode(graph, variant)
        sol = (solutions or {}).get(variant.name) or cross_check(
            formula, solve(formula, solver="rc2")
        )
        opt = sol.size if sol.optimal else None
        bounds = (sol.lower_bound, sol.size or 0)
        for fmt in FORMATS:
            texts[out / f"{variant.name}.{fmt}"] = render(formula, fmt, opt, bounds)
    return sorted(write_texts_atomic(texts, final=final))  # every file or none
