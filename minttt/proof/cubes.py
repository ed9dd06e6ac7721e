"""Cube and conquer: a refutation split into cubes, each refuted on its own, joined into one DRAT
proof that ``minttt check-proof`` and drat-trim check like any other.

The cubes come from the game: a table must answer at each start position (the lookup clause
``-p OR e_1 .. e_k`` of a start is unit-forced), so the first ``depth`` starts' edge literals split
every assignment by a decision list each: ``e_1``, ``-e_1 e_2``, ..., ``-e_1 .. -e_k`` (the last
cube falsifies the lookup clause and is refuted at once). Their product covers every assignment.

A :class:`CubeSolver` loads the clauses into CaDiCaL once and refutes one cube after another
under assumptions. A clause learnt under assumptions follows from the clauses alone, so what one
cube's refutation learnt stays valid, and helps, for the next: a cube's proof *segment* is the
lemmas of its call followed by the clause ``-cube`` (RUP: the cube's literals propagate to the
conflict the solver ended on). A segment keeps the deletions of the solver's **own lemmas**
only (a clause its trace added before): never a clause of the formula, so another solver's
segments joined beside it still find every clause they used. That is sound only where nothing
deleted comes back, so the cube solver runs with every CaDiCaL technique that *sets clauses
aside* turned off (:data:`SOLVER_OPTIONS`): variable elimination, equivalence substitution,
blocked-clause, covered-clause and conditioning elimination move clauses to CaDiCaL's extension
stack (its trace writes their deletion), and a later cube assuming such a variable brings them
back with no line in the trace. With any of them on (CaDiCaL's defaults, as the certificates
made before this rule) a segment carries **no deletions** (:func:`keeps_deletions`): every clause
the solver ever had stays in the checker's database (RUP only gains from more clauses), which at
scale costs the checker hours (3x4 O at 189: 2.1 GB, drat-trim unfinished after 81 minutes,
where the earlier certificate's 2.2 GB proof with deletions took 28). ``tests/test_cubes.py``
makes the failure of deletions under elimination in a second. A solver's segments are valid in
the order it made them; segments of different solvers may follow one another (more clauses never
break RUP; a RAT lemma, which CaDiCaL does not write here, could fail among another solver's
clauses: the check would reject the proof, never accept a wrong one). :func:`join` writes the
segments, then resolves the clauses ``-cube`` along the decision tree down to the empty clause
(each step RUP). The joined proof is checked before anything claims it
(:mod:`minttt.proof.drat`).

>>> clauses = [[1, 2], [-1, 2], [1, -2], [-1, -2]]   # UNSAT
>>> splits = [[1, 2]]
>>> decision_cubes(splits)
[(1,), (-1, 2), (-1, -2)]
>>> with CubeSolver(clauses) as solver:
...     proofs = [solver.refute(cube).proof for cube in decision_cubes(splits)]
>>> from minttt.proof import drat
>>> drat.check(b"p cnf 2 4\\n1 2 0\\n-1 2 0\\n1 -2 0\\n-1 -2 0\\n", join(splits, proofs)).valid
True
"""

from __future__ import annotations

import hashlib
import itertools
import lzma
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from minttt.errors import DefectError
from minttt.interrupt import solver_library
from minttt.proof.trace import solver_drat

SAT_SOLVER = "cadical195"
#: what a certificate says of the solver that wrote its proof, by PySAT's name for it
SOLVER_NAMES: Mapping[str, str] = {
    "cadical195": "CaDiCaL 1.9.5 (python-sat solver 'cadical195', with_proof=True)",
    "cadical153": "CaDiCaL 1.5.3 (python-sat solver 'cadical153', with_proof=True)",
}
SAT_SOLVER_NAME = SOLVER_NAMES[SAT_SOLVER]
#: the core searches' solver (:mod:`minttt.proof.lower`): thousands of calls that each end after
#: a few conflicts, where CaDiCaL 1.9.5 tracing a proof walks every clause at the end of every
#: call (``Internal::finalize``, for LRAT and FRAT; 80% of a call's time under ``perf`` on 4x4
#: k=4 O's 9.5 M clauses): 0.52 s a call against 0.079 s with 1.5.3, whose DRAT trace is the same
#: format (``scripts/bench_cores.py``). Cube and conquer keeps 1.9.5: few long calls.
CORE_SOLVER = "cadical153"
MIN_SLICE_CONFLICTS = 100  # the shortest slice, near a deadline (:meth:`CubeSolver._solve`)
FIRST_SLICE_CONFLICTS = 1_000  # the first slice under a deadline, which measures the pace
PACE_WINDOW = 8  # the slices a pace or an overhead is the worst of (:class:`SlicePace`)
SLICE_CONFLICTS = 50_000  # conflicts per solver call before the other threads get a turn (each
# call costs CaDiCaL a restart: 5,000 took 3x4 O's first 24 cubes from 32 s to 75 s, 50,000 to 31 s)
#: CaDiCaL's techniques that move clauses to its extension stack (restored, untraced, when a later
#: call assumes a variable they removed), and whether each is on by default in CaDiCaL 1.9.5
SET_ASIDE: Mapping[str, bool] = {
    "elim": True,
    "decompose": True,
    "block": False,
    "cover": False,
    "condition": False,
}
#: the cube solver's CaDiCaL options: nothing set aside, so its segments keep their deletions
SOLVER_OPTIONS: Mapping[str, int] = {name: 0 for name in SET_ASIDE}

Cube = tuple[int, ...]


def fitting_slice(whole: int, deadline: float | None, pace: float | None) -> int:
    """The conflicts of a solver's next slice: ``whole`` without a ``deadline``
    (``time.perf_counter()``'s seconds); under one, :data:`FIRST_SLICE_CONFLICTS` while the pace
    is not known (a slice of ``whole`` took 240 s on 2x7 k=3's cardinality refutation, asked
    for 20 s), then what fits in half the time left at ``pace`` seconds a conflict (a pace
    that grows overruns it by less), never under :data:`MIN_SLICE_CONFLICTS`: a slice may take
    seconds on a large formula, and the deadline is then overrun by a fraction of one.

    >>> fitting_slice(5_000, None, 0.01), fitting_slice(5_000, time.perf_counter() + 1e6, 0.01)
    (5000, 5000)
    >>> fitting_slice(50_000, time.perf_counter() + 1e6, None)
    1000
    >>> fitting_slice(5_000, time.perf_counter() + 2, 0.01)  # 1 s at 10 ms a conflict
    100
    """
    if deadline is None:
        return whole
    if pace is None:
        return min(whole, FIRST_SLICE_CONFLICTS)
    fit = (deadline - time.perf_counter()) / 2 / pace
    return max(MIN_SLICE_CONFLICTS, min(whole, int(fit)))


class SlicePace:
    """How fast a solver's slices go, to cut the next one to what fits before a deadline
    (:meth:`budget`). A call's time is its conflicts' and a part that is not: under 100,000
    assumptions or more (a core search on 4x4 k=4) CaDiCaL propagates them all again on each
    call, and most calls end after a few conflicts. So the *pace* (seconds a conflict) is the
    slowest of the last :data:`PACE_WINDOW` slices that ran :data:`MIN_SLICE_CONFLICTS` or more
    (on 4x4 k=4 O's 5:6+0:6, 613 calls of 0 to 3 conflicts took 0.2 to 0.8 s, and one slice of 263
    took 9.4 s: the last call says little about the next), and the *overhead* is the longest of
    the last calls with fewer. A slice begins only where the overhead and the least slice fit
    in the time left; else the time has run out (TimeoutError), a little early rather than late.

    >>> pace = SlicePace()
    >>> pace.measure(0.3, 1); pace.measure(2.0, 1_000); pace.measure(1.0, 1_000)
    >>> pace.pace, pace.overhead
    (0.002, 0.3)
    >>> pace.budget(5_000, None), pace.budget(5_000, time.perf_counter() + 1e6)
    (5000, 5000)
    >>> 450 < pace.budget(5_000, time.perf_counter() + 2.3) <= 500  # 2 s left after the overhead
    True
    """

    def __init__(self) -> None:
        self._paces: deque[float] = deque(maxlen=PACE_WINDOW)
        self._overheads: deque[float] = deque(maxlen=PACE_WINDOW)

    @property
    def pace(self) -> float | None:
        """Seconds a conflict, the slowest of the last slices that measured it (None: none)."""
        return max(self._paces) if self._paces else None

    @property
    def overhead(self) -> float:
        """Seconds of the longest of the last calls of few conflicts (0 before any)."""
        return max(self._overheads, default=0.0)

    def measure(self, seconds: float, spent: int) -> None:
        """A slice took ``seconds`` for ``spent`` conflicts."""
        if spent >= MIN_SLICE_CONFLICTS:
            self._paces.append(seconds / spent)
        else:
            self._overheads.append(seconds)

    def budget(self, whole: int, deadline: float | None) -> int:
        """The next slice's conflicts (:func:`fitting_slice`, after the overhead); TimeoutError
        where not even the least slice fits before ``deadline``."""
        if deadline is None:
            return whole
        pace = self.pace
        least = self.overhead + (0.0 if pace is None else pace * MIN_SLICE_CONFLICTS)
        if deadline - time.perf_counter() < least:
            raise TimeoutError("the solver's time ran out")
        return fitting_slice(whole, deadline - self.overhead, pace)


def conflicts(solver: Any) -> int:
    """A PySAT solver's conflicts so far, over every call."""
    return int((solver.accum_stats() or {}).get("conflicts", 0))


def load_clauses(solver: Any, clauses: Iterable[Sequence[int]]) -> None:
    """``clauses`` into a PySAT CaDiCaL ``solver`` (a ``pysat.solvers.Solver``), one call of
    PySAT's C function a clause: its ``append_formula`` wraps each clause in two Python calls
    and a type test, and the copy to lists it needs is another pass (4x4 k=4 O's 9.5 M clauses:
    ``scripts/bench_cores.py``). Any other solver loads through ``append_formula``.

    >>> from pysat.solvers import Solver
    >>> with Solver(name="cadical153") as s:
    ...     load_clauses(s, [[1, 2], (-1,)])
    ...     s.solve(), s.get_model()
    (True, [-1, 2])
    """
    import pysolvers  # PySAT's C extension

    inner = solver.solver
    add = getattr(pysolvers, f"{type(inner).__name__.lower()}_add_cl", None)
    handle = getattr(inner, "cadical", None)
    if add is None or handle is None:
        solver.append_formula([list(c) for c in clauses])
        return
    for clause in clauses:
        if add(handle, clause if type(clause) is list else list(clause)) is False:
            inner.status = False  # as PySAT's add_clause records an empty clause


def keeps_deletions(options: Mapping[str, int]) -> bool:
    """Whether a solver with these CaDiCaL ``options`` writes segments with deletions: only when
    no technique of :data:`SET_ASIDE` is on (a name left out has CaDiCaL's default).

    >>> keeps_deletions(SOLVER_OPTIONS), keeps_deletions({})
    (True, False)
    """
    return not any(options.get(name, int(default)) for name, default in SET_ASIDE.items())


def decision_list(literals: Sequence[int]) -> list[Cube]:
    """The cubes of one decision list: ``l_1``, ``-l_1 l_2``, ..., ``-l_1 .. -l_k``."""
    out = [(*(-x for x in literals[:i]), literals[i]) for i in range(len(literals))]
    return [*out, tuple(-x for x in literals)]


def decision_cubes(splits: Sequence[Sequence[int]]) -> list[Cube]:
    """The product of one decision list per split, in order: the cubes cover every assignment."""
    return [
        tuple(itertools.chain(*paths)) for paths in itertools.product(*map(decision_list, splits))
    ]


#: xz preset of a segment as it grows (fast; a certificate recompresses what it ships)
SEGMENT_XZ = 1


class Segment:
    """A proof segment's DRAT text, xz-compressed as its lines come (a hard cube's segment runs
    to GB of text, which a worker never holds whole), with its SHA-256, size and lemma count.

    >>> seg = Segment()
    >>> seg.add(["1 2 0", "d 1 2 0"]); seg.add(["-1 0"])
    >>> seg.finish(); seg.lines(), seg.bytes, seg.lemmas
    (['1 2 0', 'd 1 2 0', '-1 0'], 19, 2)
    """

    def __init__(self) -> None:
        self._xz: lzma.LZMACompressor | None = lzma.LZMACompressor(preset=SEGMENT_XZ)
        self._parts: list[bytes] = []
        self._sha = hashlib.sha256()
        self.bytes = 0  # of text
        self.lemmas = 0  # lines that add a clause

    def add(self, lines: Iterable[str]) -> None:
        """Append DRAT text ``lines`` (no newline in them)."""
        if self._xz is None:
            raise ValueError("the segment is finished")
        lines = list(lines)
        if not lines:
            return
        text = ("\n".join(lines) + "\n").encode("ascii")
        self._sha.update(text)
        self.bytes += len(text)
        self.lemmas += sum(1 for line in lines if line and not line.startswith("d "))
        self._parts.append(self._xz.compress(text))

    def finish(self) -> None:
        """No more lines: the compressed text is complete."""
        if self._xz is not None:
            self._parts.append(self._xz.flush())
            self._xz = None

    @property
    def xz(self) -> bytes:
        """The text, xz-compressed (:data:`SEGMENT_XZ`), once finished."""
        if self._xz is not None:
            raise ValueError("the segment is not finished")
        return b"".join(self._parts)

    @property
    def sha256(self) -> str:
        """The SHA-256 of the text."""
        return self._sha.hexdigest()

    def text(self) -> bytes:
        """The text, decompressed (each line ending in a newline)."""
        return lzma.decompress(self.xz)

    def lines(self) -> list[str]:
        """The text's lines (for segments small enough to hold as Python strings)."""
        return self.text().decode("ascii").splitlines()


@dataclass(frozen=True)
class CubeResult:
    """A cube refuted: its proof segment (:class:`Segment`: DRAT text ending with the clause
    ``-cube``), the seconds it took (``load_seconds`` of them loading the clauses: 0 after a
    solver's first cube), and the solver that made it (``session``; its ``sequence``-th cube): a
    segment holds after its solver's earlier segments."""

    cube: Cube
    segment: Segment
    seconds: float
    load_seconds: float
    session: str = ""
    sequence: int = 0

    @property
    def proof(self) -> list[str]:
        """The segment's lines."""
        return self.segment.lines()


class CubeSolver:
    """CaDiCaL loaded with ``clauses`` once, with a DRAT proof, refuting cubes one after another
    under assumptions (a context manager; one cube at a time when threads share it)."""

    def __init__(
        self,
        clauses: Iterable[Sequence[int]],
        *,
        slice_conflicts: int = SLICE_CONFLICTS,
        options: Mapping[str, int] = SOLVER_OPTIONS,
        on_slice: Callable[[], None] | None = None,
        solver: str = SAT_SOLVER,
    ) -> None:
        from pysat.solvers import Solver  # the solver library only where a cube is solved

        if solver not in SOLVER_NAMES:
            raise ValueError(f"no cube solver {solver!r}: one of {', '.join(SOLVER_NAMES)}")
        start = time.perf_counter()
        self._solver = Solver(name=solver, with_proof=True)
        if options:  # CaDiCaL's options (its options.hpp), set before any clause
            self._solver.solver.configure(dict(options))
        self.deletions = keeps_deletions(options)
        self._live: dict[str, int] = {}  # its own lemmas not yet deleted (own_deletions)
        self._segment: Segment | None = None  # the cube's segment being written (refute)
        self._pending: list[str] = []  # read while no cube was open: the next segment's start
        with solver_library():
            load_clauses(self._solver, clauses)
        self.load_seconds = time.perf_counter() - start
        self.slice_conflicts = slice_conflicts  # conflicts per call (:meth:`_solve`)
        self.session = uuid.uuid4().hex
        self.sequence = 0
        self._read = 0  # bytes of the proof trace already turned into lines
        self._lock = threading.Lock()
        self._pace = SlicePace()  # how fast its slices go (the next one cut to fit a deadline)
        self.on_slice = on_slice  # called after each slice (a progress line while a call runs)

    def refute(self, cube: Cube, below: Sequence[Sequence[int]] = ()) -> CubeResult:
        """The segment refuting ``cube``; DefectError when it is satisfiable (the bound is not:
        a smaller table exists). With ``below`` (more splits) the cube is refuted through its
        sub-cubes, one after another, then their clauses are resolved to ``-cube``: a hard cube
        split further is often far quicker than in one piece."""
        with self._lock:
            start = time.perf_counter()
            segment = self._open_segment()
            try:
                for sub in decision_cubes(below) if below else [()]:
                    if self._solve([*cube, *sub]):
                        raise DefectError(
                            f"cube {[*cube, *sub]} is satisfiable: the bound is not refuted"
                        )
                    whole = [-x for x in (*cube, *sub)]
                    segment.add([" ".join(map(str, whole)) + " 0" if whole else "0"])
                segment.add(_cover(below, cube))  # nothing without ``below``
                segment.finish()
            finally:
                self._segment = None
            loaded = self.load_seconds if self.sequence == 0 else 0.0
            seconds = time.perf_counter() - start + loaded
            result = CubeResult(cube, segment, seconds, loaded, self.session, self.sequence)
            self.sequence += 1
            return result

    def refute_core(
        self, assumptions: Sequence[int], deadline: float | None = None
    ) -> tuple[list[int], Segment] | None:
        """``None`` when the clauses are satisfiable under ``assumptions``; else the part of them
        the refutation needed (CaDiCaL's failed assumptions, the *core*) and its segment: the
        lemmas of the call, then the clause ``-core`` (RUP: the core's literals alone propagate
        to the conflict the solver ended on). A cube refuted, keeping only what failed.
        TimeoutError past ``deadline`` (``time.perf_counter()``; checked between slices of
        ``slice_conflicts``): the call's answer is then no answer."""
        with self._lock:
            segment = self._open_segment()
            try:
                if self._solve(list(assumptions), deadline):  # lemmas begin the next segment
                    segment.finish()
                    self._pending = segment.lines()
                    return None
                core = sorted(self._solver.get_core() or [], key=abs)
                segment.add([" ".join(str(-x) for x in core) + " 0" if core else "0"])
                segment.finish()
            finally:
                self._segment = None
            self.sequence += 1
            return core, segment

    def model(self) -> list[int]:
        """The model of the last call, which was satisfiable (signed literals by variable)."""
        with self._lock:
            return list(self._solver.get_model() or [])

    def add_clauses(self, clauses: Sequence[Sequence[int]]) -> None:
        """More clauses for the calls to come (a core-guided search's totalizers): the proof of
        a later call holds in any formula that has them too."""
        with self._lock, solver_library():
            load_clauses(self._solver, clauses)

    def _open_segment(self) -> Segment:
        """A new segment for the next call, begun with what the trace wrote while none was open
        (loading the clauses, a satisfiable call's lemmas)."""
        self._take_trace()
        segment = self._segment = Segment()
        segment.add(self._pending)
        self._pending = []
        return segment

    def _solve(self, assumptions: list[int], deadline: float | None = None) -> bool:
        """SAT or UNSAT under ``assumptions``, solved in slices of ``slice_conflicts``
        conflicts (:data:`SLICE_CONFLICTS` by default): CaDiCaL holds Python's GIL while it
        runs, so between slices the process's other threads (a Dask worker's event loop:
        heartbeats, sending finished cubes to the client) get their turn, and Ctrl-C is
        noticed. The search goes on where it stopped (the solver keeps its state and the proof
        trace runs on), so a slice changes no result. After each slice the trace written so far
        is read into the cube's segment (:meth:`_take_trace`), compressed: a hard cube's trace,
        GB of text, never in memory at once. Near ``deadline`` a slice is cut to the conflicts
        that fit before it (:class:`SlicePace`), and none begins where the least would not:
        on a large formula one slice may take seconds (25 s on 4x4 k=4, under 176,642
        assumptions)."""
        while True:
            self._solver.conf_budget(self._pace.budget(self.slice_conflicts, deadline))
            began, before = time.perf_counter(), conflicts(self._solver)
            with solver_library():
                status = self._solver.solve_limited(assumptions=assumptions)
            self._take_trace()  # its time counts in the slice's
            self._pace.measure(time.perf_counter() - began, conflicts(self._solver) - before)
            if self.on_slice is not None:
                self.on_slice()
            if status is not None:
                return bool(status)
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeoutError("the solver's time ran out")
            time.sleep(0)  # a turn for the other threads

    def _take_trace(self) -> None:
        """Add the trace written since the last read to the cube's segment: its lemmas, and the
        deletions of lemmas it wrote before (none with a technique that sets clauses aside on:
        see the module docstring). What is read while no cube is open begins the next one's."""
        text, read = solver_drat(self._solver, self._read, deletions=self.deletions)
        self._read += read
        lines = text.decode("ascii").splitlines()
        kept = own_deletions(lines, self._live) if self.deletions else lines
        if self._segment is not None:
            self._segment.add(kept)
        else:
            self._pending += kept

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    def __enter__(self) -> CubeSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def own_deletions(lines: Sequence[str], live: dict[str, int]) -> list[str]:
    """``lines`` (DRAT text) with only the deletions of a lemma added before and not yet deleted
    (counted in ``live`` by each clause's literals, sorted, as text; updated): the deletions of
    the formula's own clauses left out. Only live lemmas are counted: a hard cube keeps
    millions, so each is one short string.

    >>> live = {}
    >>> own_deletions(["1 2 0", "d 2 1 0", "d 3 4 0", "d 1 2 0"], live)
    ['1 2 0', 'd 2 1 0']
    """
    out = []
    for line in lines:
        if line.startswith("d "):
            key = " ".join(sorted(line[2:].split()))
            count = live.get(key, 0)
            if count:
                if count == 1:
                    del live[key]  # the count holds only what is live
                else:
                    live[key] = count - 1
                out.append(line)
        else:
            key = " ".join(sorted(line.split()))
            live[key] = live.get(key, 0) + 1
            out.append(line)
    return out


def refute_cube(clauses: Sequence[Sequence[int]], cube: Cube) -> CubeResult:
    """One cube refuted by a solver of its own (:class:`CubeSolver`)."""
    with CubeSolver(clauses) as solver:
        return solver.refute(cube)


def _cover(splits: Sequence[Sequence[int]], prefix: Cube = ()) -> list[str]:
    """Lemmas resolving the clauses ``-cube`` of the decision tree below ``prefix`` to ``-prefix``
    (the empty clause at the root), each RUP: bottom-up, the last split first."""
    if not splits:
        return []
    lines: list[str] = []
    head, rest = splits[0], splits[1:]
    for path in decision_list(head):
        lines += _cover(rest, (*prefix, *path))
    negated_prefix = [-x for x in prefix]
    for j in range(len(head), 0, -1):  # -(P, -e_1 .. -e_{j-1}), j = k .. 1
        clause = [*negated_prefix, *head[: j - 1]]
        lines.append(" ".join(map(str, clause)) + " 0" if clause else "0")
    return lines


def join(splits: Sequence[Sequence[int]], proofs: Sequence[Sequence[str] | bytes]) -> bytes:
    """One DRAT proof of the formula from the segments refuting the cubes of ``splits``, one per
    cube, each solver's in the order it made them: the segments, then the cover down to the empty
    clause (a segment missing or out of its solver's order leaves a lemma unproven: the check
    fails). A segment is its lines, or its text (bytes, each line ending in a newline: how a
    checkpoint's are read, a hard cube's GB never split into lines)."""
    cubes = decision_cubes(splits)
    if len(cubes) != len(proofs):
        raise ValueError(f"{len(cubes)} cubes, {len(proofs)} proofs")
    texts = [p if isinstance(p, bytes) else _text(p) for p in proofs]
    return b"".join([*texts, _text(_cover(splits))])


def _text(lines: Sequence[str]) -> bytes:
    """DRAT lines as text, each ending in a newline (no lines: nothing)."""
    return ("\n".join(lines) + "\n").encode("ascii") if lines else b""


__all__ = [
    "FIRST_SLICE_CONFLICTS",
    "MIN_SLICE_CONFLICTS",
    "SEGMENT_XZ",
    "Segment",
    "SAT_SOLVER",
    "SAT_SOLVER_NAME",
    "CORE_SOLVER",
    "SOLVER_NAMES",
    "load_clauses",
    "SET_ASIDE",
    "SOLVER_OPTIONS",
    "CubeResult",
    "CubeSolver",
    "conflicts",
    "decision_cubes",
    "decision_list",
    "fitting_slice",
    "SlicePace",
    "join",
    "keeps_deletions",
    "own_deletions",
    "refute_cube",
]
