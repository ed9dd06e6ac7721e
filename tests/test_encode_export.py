"""encodings/: every standard variant as WCNF and SMT-LIB 2, re-solved from disk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from minttt.formula.encode import Variant, encode
from minttt.formula.files import to_smt2, to_wcnf
from minttt.game.graph import build_graph
from minttt.solvers import solve, standard_variants

ENCODINGS = Path(__file__).resolve().parent.parent / "encodings"
OPTIMUM = re.compile(r"^[c;] optimum: (\d+) ", re.M)


def _optimum(path: Path) -> int:
    m = OPTIMUM.search(path.read_text())
    assert m, f"{path.name}: no optimum in the header"
    return int(m.group(1))


@pytest.mark.parametrize("variant", standard_variants(), ids=lambda v: v.name)
def test_wcnf_file_resolves_to_its_optimum(variant):
    path = ENCODINGS / f"{variant.name}.wcnf"
    assert f"variant: {variant.name} " in path.read_text()
    with RC2(WCNF(from_file=str(path))) as rc2:
        assert rc2.compute() is not None
        assert rc2.cost == _optimum(path)


@pytest.mark.parametrize("variant", standard_variants(), ids=lambda v: v.name)
def test_smt2_file_resolves_to_its_optimum(variant):
    import z3

    path = ENCODINGS / f"{variant.name}.smt2"
    opt = z3.Optimize()
    opt.from_file(str(path))
    assert opt.check() == z3.sat
    (objective,) = opt.objectives()
    assert opt.model().eval(objective).as_long() == _optimum(path)


def test_files_match_the_current_encoder():
    """The shipped files are what write_encodings produces now (same formulas, same optima)."""
    graph = build_graph()
    for variant in standard_variants():
        f = encode(graph, variant)
        s = solve(f)
        bounds = (s.lower_bound, s.size)
        assert (ENCODINGS / f"{variant.name}.wcnf").read_text() == to_wcnf(f, s.size, bounds)
        assert (ENCODINGS / f"{variant.name}.smt2").read_text() == to_smt2(f, s.size, bounds)


def test_unknown_optimum_header():
    f = encode(build_graph(), Variant("first", "center", "tree", "positions"))
    assert "optimum: unknown, proven bounds 3..50" in to_wcnf(f, None, (3, 50))
    assert "optimum: not computed" in to_smt2(f)
