"""encodings/: every standard variant as WCNF and SMT-LIB 2, re-solved from disk."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from minttt.errors import InputError
from minttt.formula.encode import encode
from minttt.formula.files import to_smt2, to_wcnf
from minttt.formula.variants import Variant, standard_variants
from minttt.game.graph import build_graph
from minttt.report.encodings import write_encodings
from minttt.solvers import solve

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


@pytest.mark.parametrize("name", ["first-center-lookup-entries", "both-center-tree-positions"])
def test_pysat_reads_the_wcnf_back_to_the_formula(name):
    f = encode(build_graph(), Variant.parse(name))
    wcnf = WCNF(from_string=to_wcnf(f, 1))
    assert wcnf.hard == [list(c) for c in f.clauses]
    assert wcnf.soft == [[-v] for v in f.objective] and set(wcnf.wght) == {1}
    assert wcnf.nv == f.num_vars and wcnf.comments[1].startswith(f"c variant: {name} ")


def test_pysat_writer_gives_the_same_lines_soft_clauses_first():
    """Why to_wcnf is ours: PySAT's WCNF.to_fp writes the same lines, soft clauses before hard."""
    f = encode(build_graph(), Variant("second", None, "lookup", "entries"))
    ours = to_wcnf(f, 72)
    wcnf = WCNF()
    for clause in f.clauses:
        wcnf.append(list(clause))
    for v in f.objective:
        wcnf.append([-v], weight=1)
    out = io.StringIO()
    comments = [line for line in ours.splitlines() if line.startswith("c ")]
    wcnf.to_fp(out, comments=comments)
    theirs = out.getvalue()
    assert theirs != ours and sorted(theirs.splitlines()) == sorted(ours.splitlines())
    body = theirs.splitlines()[len(comments) :]
    assert body[0] == f"1 {-f.objective[0]} 0" and body[len(f.objective)].startswith("h ")


def test_write_encodings_proves_each_optimum_and_writes_the_shipped_bytes(tmp_path):
    v = Variant("first", "center", "lookup", "entries")
    paths = write_encodings(tmp_path / "enc", [v])
    assert [p.name for p in paths] == [f"{v.name}.smt2", f"{v.name}.wcnf"]
    for p in paths:
        assert p.read_bytes() == (ENCODINGS / p.name).read_bytes()
    assert _optimum(paths[1]) == 22


def test_write_encodings_refuses_a_file_as_folder(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(InputError, match="is a file"):
        write_encodings(target, [Variant("first", "center", "tree", "positions")])
    assert target.read_text() == "x"


def test_encode_writes_a_board_beyond_3x3_from_the_array_form(tmp_path):
    """``minttt encode`` takes the form ``solve`` takes: 3x4 X's WCNF comes from the array
    formula (named as the object form names its variables), and re-solved from disk it gives
    the certified minimum 46, the optimum its header states."""
    from typer.testing import CliRunner

    from minttt.cli import app
    from minttt.formula.instance import instance_for

    out = tmp_path / "x.wcnf"
    done = CliRunner().invoke(
        app, ["encode", "first-any-lookup-entries", "--game", "mnk:3,4,3", "--out", str(out)]
    )
    assert done.exit_code == 0, done.output
    text = out.read_text()
    inst = instance_for(Variant.parse("first-any-lookup-entries@mnk:3,4,3"))
    assert inst.arrays and f"hard clauses: {inst.formula.num_clauses};" in text
    names = re.findall(r"^c var \d+ (\S+)$", text, re.M)
    assert len(names) == inst.formula.num_vars and names[0].startswith("v_")
    assert names[-1].startswith("e_")
    with RC2(WCNF(from_file=str(out))) as rc2:
        assert rc2.compute() is not None and rc2.cost == _optimum(out) == 46
