"""``minttt solve`` and ``minttt encode``: the JSON contract, bad input, time limits, files."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minttt.cli import app

runner = CliRunner()
KEYS = [
    "role",
    "opening",
    "encoding",
    "objective",
    "criterion",
    "size",
    "lower_bound",
    "optimal",
    "variables",
    "solver",
    "seconds",
    "calls",
]


def run(*args: str):
    return runner.invoke(app, list(args))


def test_solve_json_contract():
    r = run(
        "solve",
        "--role",
        "first",
        "--opening",
        "center",
        "--encoding",
        "lookup",
        "--objective",
        "entries",
        "--json",
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert list(d)[: len(KEYS)] == KEYS
    assert (d["role"], d["opening"], d["size"], d["lower_bound"], d["optimal"]) == (
        "first",
        "center",
        22,
        22,
        True,
    )
    assert d["variables"] == {"positions": 95, "edges": 201} and d["solver"] == "rc2"


def test_solve_all_json():
    r = run("solve", "--all", "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert len(rows) == 18 and all(row["optimal"] for row in rows)
    assert all(list(row)[: len(KEYS)] == KEYS for row in rows)
    r = run("solve", "--all", "--objective", "entries", "--json", "--solver", "pysat-linear")
    rows = json.loads(r.stdout)
    assert sorted(row["size"] for row in rows) == [22, 22, 30, 51, 72, 94]


def test_cross_check_and_table_file(tmp_path):
    out = tmp_path / "o.json"
    r = run(
        "solve",
        "--role",
        "second",
        "--objective",
        "entries",
        "--cross-check",
        "--json",
        "--out",
        str(out),
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["optimal"] and d["cross_check"]["agree"] and d["cross_check"]["solver"] == "z3-opt"
    from minttt.table.model import load_table

    table = load_table(out)
    assert table.size == 72 and table.role == "O"


def test_enumerate_and_tie_break(tmp_path):
    out = tmp_path / "x.json"
    r = run(
        "solve",
        "--role",
        "first",
        "--objective",
        "entries",
        "--enumerate",
        "--tie-break",
        "max-wins",
        "--json",
        "--out",
        str(out),
    )
    assert r.exit_code == 0, r.output
    e = json.loads(r.stdout)["enumeration"]
    assert e["count"] >= e["count_up_to_symmetry"] >= 1 and "picked" in e
    from minttt.table.model import load_table

    assert load_table(out).size == 22


def test_time_limit_exits_zero_with_bounds():
    r = run(
        "solve",
        "--role",
        "both",
        "--objective",
        "entries",
        "--solver",
        "z3-binary",
        "--timeout",
        "0.3",
        "--json",
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["optimal"] is False and d["lower_bound"] <= 94 <= d["size"]


def test_human_output():
    r = run("solve", "--role", "first", "--encoding", "tree")
    assert r.exit_code == 0 and "41" in r.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--role", "second", "--opening", "center"],
        ["--role", "first", "--encoding", "tree", "--objective", "entries"],
        ["--role", "first", "--solver", "nosuch"],
        ["--role", "first", "--timeout", "-1"],
        ["--role", "first", "--timeout", "nan"],
        ["--role", "first", "--card", "nosuch", "--solver", "pysat-linear"],
        ["--role", "first", "--sat", "nosuch"],
        ["--role", "first", "--criterion", "greedy"],
        ["--role", "first", "--game", "go"],
        ["--role", "first", "--limit", "0"],
        ["--role", "first", "--tie-break", "min-wins"],
        ["--role", "zeroth"],
        ["--opening", "center"],
        ["--all", "--role", "first"],
        ["--role", "first", "--opening", "12"],
    ],
)
def test_bad_input_one_line_exit_2(args):
    r = run("solve", *args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")


@settings(max_examples=40, deadline=None)
@given(role=st.text(max_size=8), opening=st.text(max_size=6))
def test_fuzzed_role_and_opening_never_traceback(role, opening):
    r = run("solve", "--role", role, "--opening", opening, "--encoding", "tree", "--json")
    assert r.exit_code in (0, 2)
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit)


def test_encode_cli(tmp_path):
    out = tmp_path / "f.wcnf"
    r = run("encode", "first-center-lookup-entries", "--format", "wcnf", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "c optimum: 22 entries" in out.read_text()
    r = run("encode", "second-tree-positions", "--format", "smt2", "--no-optimum")
    assert r.exit_code == 0 and "(minimize" in r.stdout
    for bad in (
        ["nonsense"],
        ["first-center-tree-entries"],
        ["first-center-tree-positions", "--format", "cnf"],
        [],
    ):
        r = run("encode", *bad)
        assert r.exit_code == 2 and r.stderr.startswith("error: "), bad


@pytest.mark.slow
def test_encode_all(tmp_path):
    r = run("encode", "--all", "--out", str(tmp_path))
    assert r.exit_code == 0, r.output
    assert len(list(tmp_path.glob("*.wcnf"))) == len(list(tmp_path.glob("*.smt2"))) == 18
    old = run("encode", "--all", str(tmp_path / "old"))  # the old spelling, for one release
    assert old.exit_code == 0 and "--all FOLDER is deprecated" in old.stderr
    assert len(list((tmp_path / "old").glob("*.wcnf"))) == 18
    alone = run("encode", "--all")
    assert alone.exit_code == 2 and alone.stderr.count("\n") == 1 and "--out FOLDER" in alone.stderr


def test_a_solvers_table_is_what_the_file_check_would_build():
    """make_table reads the answer off the graph without the file loader's checks (start-up);
    the table it builds is the one the full validation builds from its file, for every variant."""
    from minttt.formula.variants import standard_variants
    from minttt.solvers.portfolio import solve_variant
    from minttt.table.model import Table, table_from_json

    for variant in standard_variants():
        table = solve_variant(variant).table()
        again = table_from_json(table.to_json())
        assert again == table and again.to_json() == table.to_json()
        assert isinstance(again, Table) and again.provenance == table.provenance


def test_table_from_moves_checks_each_answer_against_the_graph():
    from minttt.errors import InputError
    from minttt.game.graph import build_graph
    from minttt.table.model import table_from_moves

    graph = build_graph()
    finished = next(h for h, kids in graph.children.items() if not kids)
    for moves, role, reason in [
        ({9: 4}, "O", "not a position"),  # hash 9 (x on cell 2) is not canonical
        ({finished: 0}, "both", "finished game"),
        ({0: 4}, "O", "x to move, not O"),
        ({0: 9}, "X", "cell 9 is not a legal move"),
        ({0: True}, "X", "not a legal move"),
    ]:
        with pytest.raises(InputError, match=reason):
            table_from_moves(graph, moves, role=role, opening=None, criterion="optimal")
    with pytest.raises(InputError, match="opening"):
        table_from_moves(graph, {0: 0}, role="X", opening=4, criterion="optimal")
