"""minttt.proof.trace: a binary DRAT trace as text, the same as PySAT's converter, and refused
when it is not whole."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysat.formula import CNF
from pysat.solvers import Solver

from minttt.errors import DefectError
from minttt.proof import trace
from minttt.proof.trace import drat_text, read_trace, solver_drat


def _binary(clauses: list[tuple[str, list[int]]]) -> bytes:
    """Binary DRAT written here from the format's definition (not by minttt)."""
    out = bytearray()
    for kind, lits in clauses:
        out.append(ord(kind))
        for lit in lits:
            value = 2 * abs(lit) + (lit < 0)
            while value >= 0x80:
                out.append(value & 0x7F | 0x80)
                value >>= 7
            out.append(value)
        out.append(0)
    return bytes(out)


def _text(clauses: list[tuple[str, list[int]]], deletions: bool = True) -> bytes:
    lines = [
        ("d " if kind == "d" else "") + " ".join(map(str, [*lits, 0]))
        for kind, lits in clauses
        if deletions or kind == "a"
    ]
    return "".join(line + "\n" for line in lines).encode("ascii")


literals = st.integers(1, 2**31 - 1).flatmap(lambda v: st.sampled_from([v, -v]))
records = st.lists(st.tuples(st.sampled_from("ad"), st.lists(literals, max_size=6)), max_size=40)


@given(records, st.integers(1, 40))
def test_any_trace_reads_as_its_text_in_pieces_of_any_size(
    clauses: list[tuple[str, list[int]]], chunk: int
) -> None:
    data = _binary(clauses)
    assert drat_text(data) == _text(clauses)
    assert drat_text(data, deletions=False) == _text(clauses, deletions=False)
    assert drat_text(data, chunk=chunk) == _text(clauses)  # cut at clause ends, joined again
    assert drat_text(data, deletions=False, chunk=chunk) == _text(clauses, deletions=False)


@given(st.lists(st.tuples(st.just("a"), st.lists(st.integers(1, 30), max_size=5)), max_size=300))
def test_repeated_literals_read_the_same_through_the_table(
    clauses: list[tuple[str, list[int]]],
) -> None:
    # many literals over few variables: the lookup-table path
    assert drat_text(_binary(clauses)) == _text(clauses)


def _pigeons(n: int) -> list[list[int]]:
    var = {(p, h): p * n + h + 1 for p in range(n + 1) for h in range(n)}
    clauses = [[var[p, h] for h in range(n)] for p in range(n + 1)]
    for h in range(n):
        clauses += [[-var[p, h], -var[q, h]] for p, q in itertools.combinations(range(n + 1), 2)]
    return clauses


@pytest.mark.parametrize("n", [3, 5, 6])
def test_a_cadical_trace_reads_as_pysat_reads_it(n: int) -> None:
    # pigeons 6 into 5 and 7 into 6: thousands of lemmas and deletions
    with Solver(
        name="cadical195", bootstrap_with=CNF(from_clauses=_pigeons(n)), with_proof=True
    ) as s:
        assert s.solve() is False
        data = read_trace(s)
        expected = ("\n".join(Solver._proof_bin2text(bytearray(data))) + "\n").encode("ascii")
        assert drat_text(data) == expected
        assert s.get_proof() == expected.decode("ascii").splitlines()
    if n >= 5:
        assert b"\nd " in expected  # the deletions were read too


def test_read_trace_goes_on_from_where_it_was_read() -> None:
    with Solver(name="cadical195", bootstrap_with=_pigeons(4), with_proof=True) as s:
        assert s.solve() is False
        whole = read_trace(s)
        assert read_trace(s, 10) == whole[10:]
        assert read_trace(s, len(whole)) == b""
    assert drat_text(b"") == b""


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"a\x02\x04", "ends inside a clause"),
        (b"a\x02\x00\x00", "no a/d byte"),
        (b"x\x02\x00", "neither 'a' nor 'd'"),
        (b"a\x02\x84\x00", "cut short"),
        (b"a\x82\x80\x80\x80\x80\x01\x00", "beyond 32 bits"),
        (b"a\x01\x00", "variable 0"),
    ],
)
def test_a_trace_that_is_not_whole_is_refused(data: bytes, says: str) -> None:
    for chunk in (1, 2, 1 << 20):  # whole or in pieces
        with pytest.raises(ValueError, match=says):
            drat_text(data, chunk=chunk)
        with pytest.raises(ValueError, match=says):
            drat_text(b"a\x02\x00" * 3 + data, chunk=chunk)  # after clauses that are whole


def test_a_solver_trace_that_is_not_whole_is_the_solvers_defect(monkeypatch) -> None:
    # what the solver wrote is never turned into a proof when it is not binary DRAT
    monkeypatch.setattr(trace, "read_trace", lambda solver, start=0: b"a\x02\x84\x00")
    with pytest.raises(DefectError, match="not binary DRAT: a literal of the trace is cut short"):
        solver_drat(object())


def test_solver_drat_reads_on_from_where_it_was_read() -> None:
    with Solver(name="cadical195", bootstrap_with=_pigeons(4), with_proof=True) as s:
        assert s.solve() is False
        whole, read = solver_drat(s)
        assert read == len(read_trace(s)) and whole == drat_text(read_trace(s))
        assert solver_drat(s, read) == (b"", 0)
